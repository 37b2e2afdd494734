/**
 * Highload wallet v3 (ton-blockchain/highload-wallet-contract-v3 v3.00). The code cell comes from tonweb's
 * HighloadWalletContractV3.codeHex; data, query ids and the signed external are built here with @ton/core.
 *
 * External body: signature:bits512 ^MsgInner, where
 * MsgInner = subwallet_id:uint32 message_to_send:^Message send_mode:uint8 query_id:(shift:uint13 bit:uint10)
 *            created_at:uint64 timeout:uint22.
 * One message goes out directly; several go out through an internal_transfer#ae42e5a4 the wallet sends itself
 * with an OutList of send actions.
 */
import { HighloadWalletContractV3 } from 'tonweb/src/contract/highloadWallet/HighloadWalletContractV3.js';
import {
  beginCell,
  Cell,
  contractAddress,
  external,
  internal,
  Message,
  OutAction,
  SendMode,
  storeMessageRelaxed,
  storeOutList,
  toNano,
} from '@ton/core';
import type { DevnetWallet, TransferArgs } from './wallets';
import { ed25519Sign } from './signing';

export const HIGHLOAD_V3_SUBWALLET_ID = 0x10ad;
export const HIGHLOAD_V3_DEFAULT_TIMEOUT = 3600;
export const OP_HIGHLOAD_INTERNAL_TRANSFER = 0xae42e5a4;
/** Highest sequential query number: shift 0..8191 × bit number 0..1022 (the very last one is kept for emergencies). */
export const HIGHLOAD_V3_MAX_QUERY = 8192 * 1023 - 2;

let cachedCode: Cell | null = null;

/** The highload wallet v3 code cell (from tonweb). */
export function highloadV3Code(): Cell {
  cachedCode ??= Cell.fromBoc(Buffer.from(HighloadWalletContractV3.codeHex, 'hex'))[0];
  return cachedCode;
}

/** The query id for the n-th message of a wallet: shift = n / 1023, bit number = n % 1023. */
export function highloadQueryId(n: number): { shift: number; bitNumber: number; queryId: bigint } {
  if (!Number.isInteger(n) || n < 0 || n > HIGHLOAD_V3_MAX_QUERY) throw new Error(`highload query number out of range: ${n}`);
  const shift = Math.floor(n / 1023);
  const bitNumber = n % 1023;
  return { shift, bitNumber, queryId: (BigInt(shift) << 10n) | BigInt(bitNumber) };
}

export interface HighloadV3Options {
  workchain?: number;
  subwalletId?: number;
  timeout?: number;
}

/** A highload wallet v3; `seqno` in {@link TransferArgs} is the sequential query number. */
export function createHighloadWalletV3(publicKey: Buffer, options: HighloadV3Options = {}): DevnetWallet & {
  readonly subwalletId: number;
  readonly timeout: number;
} {
  const workchain = options.workchain ?? 0;
  const subwalletId = options.subwalletId ?? HIGHLOAD_V3_SUBWALLET_ID;
  const timeout = options.timeout ?? HIGHLOAD_V3_DEFAULT_TIMEOUT;
  const code = highloadV3Code();
  const data = beginCell()
    .storeBuffer(publicKey, 32)
    .storeUint(subwalletId, 32)
    .storeBit(false) // old_queries
    .storeBit(false) // queries
    .storeUint(0, 64) // last_clean_time
    .storeUint(timeout, 22)
    .endCell();
  const init = { code, data };
  const address = contractAddress(workchain, init);

  const messageToSend = (args: TransferArgs, queryId: bigint): { cell: Cell; mode: number } => {
    const mode = args.sendMode ?? SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS;
    if (args.messages.length === 1) {
      return { cell: beginCell().store(storeMessageRelaxed(args.messages[0])).endCell(), mode };
    }
    const actions: OutAction[] = args.messages.map((m) => ({ type: 'sendMsg', mode, outMsg: m }));
    let total = 0n;
    for (const m of args.messages) if (m.info.type === 'internal') total += m.info.value.coins;
    const body = beginCell()
      .storeUint(OP_HIGHLOAD_INTERNAL_TRANSFER, 32)
      .storeUint(queryId, 64)
      .storeRef(beginCell().store(storeOutList(actions)).endCell())
      .endCell();
    // The batch message to itself carries the value the actions spend plus gas for that transaction.
    const self = internal({ to: address, value: total + toNano('0.05') + toNano('0.007') * BigInt(actions.length), bounce: true, body });
    return { cell: beginCell().store(storeMessageRelaxed(self)).endCell(), mode: SendMode.PAY_GAS_SEPARATELY };
  };

  const w = {
    kind: 'highload_wallet_v3',
    address,
    workchain,
    publicKey,
    init,
    maxMessages: 254,
    subwalletId,
    timeout,
    async createTransferBody(args: TransferArgs): Promise<Cell> {
      if (args.messages.length === 0 || args.messages.length > 254) throw new Error('highload v3: 1..254 messages per external');
      const q = highloadQueryId(args.seqno);
      const { cell, mode } = messageToSend(args, q.queryId);
      const inner = beginCell()
        .storeUint(subwalletId, 32)
        .storeRef(cell)
        .storeUint(mode, 8)
        .storeUint(q.shift, 13)
        .storeUint(q.bitNumber, 10)
        // created_at must lie in (now - timeout, now]; sign a little in the past to absorb clock skew.
        .storeUint(args.now - 5, 64)
        .storeUint(timeout, 22)
        .endCell();
      return beginCell().storeBuffer(ed25519Sign(inner.hash(), args.secretKey)).storeRef(inner).endCell();
    },
    async createExternal(args: TransferArgs & { deploy?: boolean }): Promise<Message> {
      return external({ to: address, body: await w.createTransferBody(args), init: args.deploy ? init : undefined });
    },
  };
  return w;
}

