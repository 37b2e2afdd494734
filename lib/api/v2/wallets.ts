// Wallet detection by the code cell's representation hash (api-v2.md §3.4), with toncenter's exact
// `wallet_type` strings. The codes come from @ton/ton's wallet classes (v4 r1, which it lacks, from
// tonweb), so no hash is typed in by hand; v5 beta's code in @ton/ton is the library cell mainnet
// accounts carry, whose hash is the one toncenter lists.
import { Cell } from '@ton/core';
import {
  WalletContractV1R1,
  WalletContractV1R2,
  WalletContractV1R3,
  WalletContractV2R1,
  WalletContractV2R2,
  WalletContractV3R1,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5Beta,
  WalletContractV5R1,
} from '@ton/ton';

/** How the wallet keeps seqno / wallet_id in its data cell. */
export type WalletLayout = 'seqno' | 'seqno_id' | 'v5';

export interface WalletKind {
  /** toncenter's wallet_type, e.g. `wallet v4 r2`. */
  type: string;
  layout: WalletLayout;
  /** getExtendedAddressInformation account_state @type and tonlib revision, for the kinds tonlib models. */
  tonlib?: { type: string; revision: number };
}

export interface WalletFields {
  seqno: number;
  wallet_id?: number;
  is_signature_allowed?: boolean;
}

const key = Buffer.alloc(32);

/** tonweb builds v4 r1's code in the contract's constructor (loaded on first use: tonweb is large). */
async function v4r1Code(): Promise<Cell> {
  const { WalletV4ContractR1 } = await import('tonweb/src/contract/wallet/WalletContractV4.js');
  const wallet = new WalletV4ContractR1({}, { publicKey: new Uint8Array(32), wc: 0 });
  return Cell.fromBoc(Buffer.from(await wallet.options.code.toBoc(false)))[0];
}

async function kinds(): Promise<Map<string, WalletKind>> {
  const list: [Cell, WalletKind][] = [
    [WalletContractV1R1.create({ workchain: 0, publicKey: key }).init.code, { type: 'wallet v1 r1', layout: 'seqno' }],
    [WalletContractV1R2.create({ workchain: 0, publicKey: key }).init.code, { type: 'wallet v1 r2', layout: 'seqno' }],
    [WalletContractV1R3.create({ workchain: 0, publicKey: key }).init.code, { type: 'wallet v1 r3', layout: 'seqno' }],
    [WalletContractV2R1.create({ workchain: 0, publicKey: key }).init.code, { type: 'wallet v2 r1', layout: 'seqno' }],
    [WalletContractV2R2.create({ workchain: 0, publicKey: key }).init.code, { type: 'wallet v2 r2', layout: 'seqno' }],
    [
      WalletContractV3R1.create({ workchain: 0, publicKey: key }).init.code,
      { type: 'wallet v3 r1', layout: 'seqno_id', tonlib: { type: 'wallet.v3.accountState', revision: 1 } },
    ],
    [
      WalletContractV3R2.create({ workchain: 0, publicKey: key }).init.code,
      { type: 'wallet v3 r2', layout: 'seqno_id', tonlib: { type: 'wallet.v3.accountState', revision: 2 } },
    ],
    [await v4r1Code(), { type: 'wallet v4 r1', layout: 'seqno_id', tonlib: { type: 'wallet.v4.accountState', revision: 1 } }],
    [
      WalletContractV4.create({ workchain: 0, publicKey: key }).init.code,
      { type: 'wallet v4 r2', layout: 'seqno_id', tonlib: { type: 'wallet.v4.accountState', revision: 2 } },
    ],
    [WalletContractV5Beta.create({ publicKey: key }).init.code, { type: 'wallet v5 beta', layout: 'v5' }],
    [WalletContractV5R1.create({ publicKey: key }).init.code, { type: 'wallet v5 r1', layout: 'v5' }],
  ];
  return new Map(list.map(([code, kind]) => [code.hash().toString('base64'), kind]));
}

let byHash: Promise<Map<string, WalletKind>> | undefined;
const known = () => {
  byHash ??= kinds();
  byHash.catch(() => (byHash = undefined));
  return byHash;
};

/** The wallet kind of a contract code, or undefined for anything else (highload wallets included). */
export async function walletKind(code: Cell | null): Promise<WalletKind | undefined> {
  if (!code) return undefined;
  return (await known()).get(code.hash().toString('base64'));
}

/** Code hash (base64) of every known wallet kind by wallet_type. */
export async function walletCodeHashes(): Promise<Record<string, string>> {
  return Object.fromEntries([...(await known())].map(([hash, k]) => [k.type, hash]));
}

/** seqno / wallet_id / is_signature_allowed from the data cell (unsigned, big-endian fields). */
export function walletFields(kind: WalletKind, data: Cell): WalletFields {
  const s = data.beginParse();
  switch (kind.layout) {
    case 'seqno':
      return { seqno: s.loadUint(32) };
    case 'seqno_id':
      return { seqno: s.loadUint(32), wallet_id: s.loadUint(32) };
    case 'v5': {
      const isSignatureAllowed = s.loadBit();
      return { seqno: s.loadUint(32), wallet_id: s.loadUint(32), is_signature_allowed: isSignatureAllowed };
    }
  }
}
