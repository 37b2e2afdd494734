/**
 * Wallet contracts of every standard version, code from @ton/ton's Wallet*Contract classes, behind one
 * interface: an address, the state init, and a signer that turns messages into a signed external.
 */
import {
  Address,
  beginCell,
  Builder,
  Cell,
  external,
  Message,
  MessageRelaxed,
  SendMode,
  StateInit,
  storeMessageRelaxed,
} from '@ton/core';
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
import { ed25519Sign, nativeSigner } from './signing';

export const WALLET_KINDS = [
  'wallet_v1r1',
  'wallet_v1r2',
  'wallet_v1r3',
  'wallet_v2r1',
  'wallet_v2r2',
  'wallet_v3r1',
  'wallet_v3r2',
  'wallet_v4r2',
  'wallet_v5beta',
  'wallet_v5r1',
] as const;

export type StandardWalletKind = (typeof WALLET_KINDS)[number];

/** Arguments of one signed external. */
export interface TransferArgs {
  /** The wallet's current seqno (for the highload wallet: a fresh query number). */
  seqno: number;
  secretKey: Buffer;
  messages: MessageRelaxed[];
  /** Default PAY_GAS_SEPARATELY | IGNORE_ERRORS (v5 wallets always add IGNORE_ERRORS for externals). */
  sendMode?: SendMode;
  /** Chain time the message is signed at; valid_until = now + ttl. */
  now: number;
  /** Seconds the message stays valid (default 120). */
  ttl?: number;
}

/** A wallet whose externals the devnet can sign. */
export interface DevnetWallet {
  readonly kind: string;
  readonly address: Address;
  readonly workchain: number;
  readonly publicKey: Buffer;
  readonly init: StateInit & { code: Cell; data: Cell };
  /** How many messages one external may carry. */
  readonly maxMessages: number;
  /** The signed body of an external. */
  createTransferBody(args: TransferArgs): Promise<Cell>;
  /** The whole external-in message; `deploy` attaches the state init. */
  createExternal(args: TransferArgs & { deploy?: boolean }): Promise<Message>;
}

const DEFAULT_MODE = SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS;
const DEFAULT_TTL = 120;

/**
 * The body of a v1/v2 wallet external: signature ‖ (header, then mode:uint8 ^message per message), the
 * layout @ton/ton writes; built here because @ton/ton signs v1/v2 transfers only with tweetnacl.
 */
function signedAtHead(header: Builder, messages: MessageRelaxed[], a: TransferArgs): Cell {
  for (const m of messages) header.storeUint(a.sendMode ?? DEFAULT_MODE, 8).storeRef(beginCell().store(storeMessageRelaxed(m)));
  return beginCell().storeBuffer(ed25519Sign(header.endCell().hash(), a.secretKey)).storeBuilder(header).endCell();
}

function externalFor(w: DevnetWallet, body: Cell, deploy: boolean | undefined): Message {
  return external({ to: w.address, body, init: deploy ? w.init : undefined });
}

/** Options of {@link createWallet}. */
export interface WalletOptions {
  workchain?: number;
  /** v5 wallets: the network global id in the wallet id (default -239, what @ton/ton assumes). */
  networkGlobalId?: number;
}

/** A standard wallet of the given version for a public key. */
export function createWallet(kind: StandardWalletKind, publicKey: Buffer, options: WalletOptions = {}): DevnetWallet {
  const workchain = options.workchain ?? 0;
  const withBody = (
    maxMessages: number,
    contract: { address: Address; init: { code: Cell; data: Cell } },
    sign: (a: TransferArgs) => Promise<Cell>,
  ): DevnetWallet => {
    const w: DevnetWallet = {
      kind,
      address: contract.address,
      workchain,
      publicKey,
      init: contract.init,
      maxMessages,
      createTransferBody: async (a) => {
        if (a.messages.length > maxMessages) throw new Error(`${kind}: at most ${maxMessages} messages per external`);
        return sign(a);
      },
      createExternal: async (a) => externalFor(w, await w.createTransferBody(a), a.deploy),
    };
    return w;
  };
  const until = (a: TransferArgs) => a.now + (a.ttl ?? DEFAULT_TTL);
  switch (kind) {
    case 'wallet_v1r1':
    case 'wallet_v1r2':
    case 'wallet_v1r3': {
      const C = kind === 'wallet_v1r1' ? WalletContractV1R1 : kind === 'wallet_v1r2' ? WalletContractV1R2 : WalletContractV1R3;
      const c = C.create({ workchain, publicKey });
      return withBody(1, c, async (a) => {
        const m = a.messages[0];
        return signedAtHead(beginCell().storeUint(a.seqno, 32), m ? [m] : [], a);
      });
    }
    case 'wallet_v2r1':
    case 'wallet_v2r2': {
      const c = (kind === 'wallet_v2r1' ? WalletContractV2R1 : WalletContractV2R2).create({ workchain, publicKey });
      return withBody(4, c, async (a) => signedAtHead(beginCell().storeUint(a.seqno, 32).storeUint(until(a), 32), a.messages, a));
    }
    case 'wallet_v3r1':
    case 'wallet_v3r2': {
      const c = (kind === 'wallet_v3r1' ? WalletContractV3R1 : WalletContractV3R2).create({ workchain, publicKey });
      return withBody(4, c, (a) =>
        c.createTransfer({ seqno: a.seqno, signer: nativeSigner(a.secretKey), messages: a.messages, sendMode: a.sendMode ?? DEFAULT_MODE, timeout: until(a) }),
      );
    }
    case 'wallet_v4r2': {
      const c = WalletContractV4.create({ workchain, publicKey });
      return withBody(4, c, (a) =>
        c.createTransfer({ seqno: a.seqno, signer: nativeSigner(a.secretKey), messages: a.messages, sendMode: a.sendMode ?? DEFAULT_MODE, timeout: until(a) }),
      );
    }
    case 'wallet_v5beta': {
      const c = WalletContractV5Beta.create({
        publicKey,
        walletId: { workchain, networkGlobalId: options.networkGlobalId ?? -239 },
      });
      return withBody(255, c, (a) =>
        c.createTransfer({ seqno: a.seqno, signer: nativeSigner(a.secretKey), messages: a.messages, sendMode: a.sendMode ?? DEFAULT_MODE, timeout: until(a) }),
      );
    }
    case 'wallet_v5r1': {
      const c = WalletContractV5R1.create({
        publicKey,
        walletId: {
          networkGlobalId: options.networkGlobalId ?? -239,
          context: { walletVersion: 'v5r1', workchain, subwalletNumber: 0 },
        },
      });
      return withBody(255, c, (a) =>
        c.createTransfer({ seqno: a.seqno, signer: nativeSigner(a.secretKey), messages: a.messages, sendMode: a.sendMode ?? DEFAULT_MODE, timeout: until(a) }),
      );
    }
  }
}

/** The wallet id a v5r1 wallet reports from `get_subwallet_id` (client context, subwallet 0). */
export function v5r1WalletId(workchain: number, networkGlobalId = -239): number {
  // context_id_client$1 wc:int8 wallet_version:uint8 (0 = v5r1) counter:uint15, XOR-ed with the global id.
  const context = (1 << 31) | ((workchain & 0xff) << 23) | (0 << 15) | 0;
  return (networkGlobalId ^ context) | 0;
}
