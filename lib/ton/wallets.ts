// The standard wallet contracts, known by the representation hash of their code (what toncenter's v2
// and v3 both recognize): their wallet_type names, tonlib's account-state type where tonlib models the
// kind, toncenter's interface name, and how their data cell keeps seqno, wallet_id and the v5 signature
// flag. The one place this knowledge lives: /api/v2, /api/v3, the interface table (interfaces.ts) and the
// explorer all read it from here.
// The hashes are those of @ton/ton's wallet classes' code (wallets.test.ts recomputes every one; v4 r1,
// which @ton/ton lacks, from tonweb). v5 beta has two, as toncenter lists them: @ton/ton's code is the
// library cell most mainnet accounts carry, and an account may hold the library's code itself.
import type { Cell } from '@ton/core';

/** How the wallet keeps seqno / wallet_id / the signature flag in its data cell. */
export type WalletLayout = 'seqno' | 'v3' | 'v5beta' | 'v5';

export interface WalletKind {
  /** toncenter's wallet_type, e.g. `wallet v4 r2`. */
  type: string;
  /** toncenter's interface name (api-v3.md §4.7), e.g. `wallet_v4r2`. */
  interface: string;
  layout: WalletLayout;
  /** getExtendedAddressInformation's account_state @type and tonlib revision, for the kinds tonlib models. */
  tonlib?: { type: string; revision: number };
}

const v3 = (revision: number) => ({ type: 'wallet.v3.accountState', revision });
const v4 = (revision: number) => ({ type: 'wallet.v4.accountState', revision });

/** Every standard wallet kind by its code hash (standard base64). */
export const WALLET_CODE_HASHES: Readonly<Record<string, WalletKind>> = {
  'oM/CxIruFqJx8s/AtzgtgXVs7LEBfQd/qqs7tgL2how=': { type: 'wallet v1 r1', interface: 'wallet_v1r1', layout: 'seqno' },
  '1JAvzJ+tdGmPqONTIgpo2g3PcuMryy657gQhfBfTBiw=': { type: 'wallet v1 r2', interface: 'wallet_v1r2', layout: 'seqno' },
  'WHzHie/xyE9G7DeX5F/ICaFP9a4k8eDHpqmcydyQYf8=': { type: 'wallet v1 r3', interface: 'wallet_v1r3', layout: 'seqno' },
  'XJpeaMEI4YchoHxC+ZVr+zmtd+xtYktgxXbsiO7mUyk=': { type: 'wallet v2 r1', interface: 'wallet_v2r1', layout: 'seqno' },
  '/pUw0yQ4Uwg+8u8LTCkIwKv2+hwx6iQ6rKpb+MfXU/E=': { type: 'wallet v2 r2', interface: 'wallet_v2r2', layout: 'seqno' },
  'thBBpYp5gLlG6PueGY48kE0keZ/6NldOpCUcQaVm9YE=': { type: 'wallet v3 r1', interface: 'wallet_v3r1', layout: 'v3', tonlib: v3(1) },
  'hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=': { type: 'wallet v3 r2', interface: 'wallet_v3r2', layout: 'v3', tonlib: v3(2) },
  'ZN1UgFUixb6KnbWc6gEFzPDQh4bKeb64y3nogKjXMi0=': { type: 'wallet v4 r1', interface: 'wallet_v4r1', layout: 'v3', tonlib: v4(1) },
  '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=': { type: 'wallet v4 r2', interface: 'wallet_v4r2', layout: 'v3', tonlib: v4(2) },
  '89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=': { type: 'wallet v5 beta', interface: 'wallet_v5_beta', layout: 'v5beta' },
  '5M87L0xtamHqDytUR9JmeFsmrzY32y3u5rzRqoJvNBI=': { type: 'wallet v5 beta', interface: 'wallet_v5_beta', layout: 'v5beta' },
  'IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8=': { type: 'wallet v5 r1', interface: 'wallet_v5r1', layout: 'v5' },
};

/** The code hashes of the wallet kind toncenter names `name` among its interfaces, in table order. */
export function walletCodeHashes(name: string): string[] {
  return Object.entries(WALLET_CODE_HASHES).flatMap(([hash, kind]) => (kind.interface === name ? [hash] : []));
}

/** The wallet kind of a code cell or code hash (base64), or undefined for anything else (highload wallets included). */
export function walletKind(code: Cell | string | null | undefined): WalletKind | undefined {
  if (!code) return undefined;
  return WALLET_CODE_HASHES[typeof code === 'string' ? code : code.hash().toString('base64')];
}

/** One of the standard wallet codes (their addresses print non-bounceable, api-v3.md §1.2). */
export const isStandardWallet = (codeHashB64: string | null): boolean => codeHashB64 !== null && codeHashB64 in WALLET_CODE_HASHES;

export interface WalletFields {
  seqno: number;
  walletId?: number;
  isSignatureAllowed?: boolean;
}

/**
 * The fields of a wallet's data cell (big-endian): seqno (all), wallet_id (v3 and later), is_signature_allowed
 * (v5); null when the data does not fit the layout. Unsigned, as the Python service reads them, except
 * v5 beta's wallet_id below.
 * v5r1 data starts is_signature_allowed:1 seqno:32 wallet_id:32. v5 beta's starts seqno:int33 (its sign
 * bit set means signatures are disabled) wallet_id:80 (network_global_id:int32 workchain:int8 version:uint8
 * subwallet:uint32). Only the C++ service knows v5 beta, and reads it with v5r1's layout: the first bit
 * as is_signature_allowed (so a fresh wallet shows false), then seqno, then the first 32 bits of the
 * wallet id, signed (the network id: -239 on mainnet). Atlas reads it the same way, in v2 and v3 alike.
 */
export function parseWalletData(layout: WalletLayout, data: Cell): WalletFields | null {
  try {
    const s = data.beginParse();
    switch (layout) {
      case 'seqno':
        return { seqno: s.loadUint(32) };
      case 'v3':
        return { seqno: s.loadUint(32), walletId: s.loadUint(32) };
      case 'v5':
      case 'v5beta': {
        const isSignatureAllowed = s.loadBit();
        const seqno = s.loadUint(32);
        return { isSignatureAllowed, seqno, walletId: layout === 'v5' ? s.loadUint(32) : s.loadInt(32) };
      }
    }
  } catch {
    return null;
  }
}
