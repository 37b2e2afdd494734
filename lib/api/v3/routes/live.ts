// The v2-style routes of api-v3.md §2.2 and §2.5, answered live through the lite client with the same
// code as /api/v2 (lib/api/v2): addressInformation (= account), walletInformation (= wallet), and
// POST message, runGetMethod, estimateFee.
//
// Decisions on the reference's quirks:
// - [quirk] toncenter answers addressInformation/walletInformation from the index unless use_v2=true.
//   Atlas always reads them live (the index may lag the chain; a live read costs one lite query here),
//   so `use_v2` is accepted and has no effect, and frozen_hash is real instead of always null.
// - A missing required argument is 401, with toncenter's words (`address of account is required`,
//   `boc is required`, `address is required`, `method is required`): clients match on them. Any other
//   input problem is 422.
// - message/estimateFee/runGetMethod forward the v2 status and message on failure, as toncenter does;
//   toncenter checks nothing of estimateFee itself, so its missing address or body is v2's 422.
// - POST bodies as Go decodes them into toncenter's models: estimateFee's init_code/init_data may be ""
//   (toncenter's own clients always send both), and a stack value may be a JSON number, which toncenter
//   passes on to v2 as it came.
import { Address, Cell, type TupleItem } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { z } from 'zod';
import { accountAt, type AccountAt } from '../../../chain/account-state';
import { estimateFees, stateInit } from '../../../chain/fees';
import { methodIdOf, runGetMethodOn } from '../../../chain/get-method';
import { sendBocReturnHash } from '../../v2/methods/send';
import { parseStack, typedEntry } from '../../v2/stack';
import { missingWorkchain, parseAddress } from '../../../ton/address';
import { LIMITS } from '../../../limits';
import { bocParam } from '../../../ton/client-boc';
import { parseWalletData, walletKind } from '../../../ton/wallets';
import { V3Error, unprocessable } from '../errors';
import { EstimateFeeResponse, RunGetMethodResponse, SentMessage, V2AddressInformation, V2WalletInformation } from '../models/live';
import { p } from '../params';
import { live } from '../live-call';
import { definePostRoute, defineRoute } from '../route';

/** What toncenter leaves to v2 to check: missing is v2's 422. */
const unprocessableIfMissing = <T>(v: T | undefined, message: string): T => {
  if (v === undefined) throw unprocessable(message);
  return v;
};

/** A required argument: 401 with toncenter's words when it is missing (a v2-style route's quirk). */
const required = <T>(v: T | undefined, message: string): T => {
  if (v === undefined) throw new V3Error(401, message);
  return v;
};

const ZERO_HASH = Buffer.alloc(32).toString('base64');
const v3Status = (a: AccountAt) => (a.status === 'uninitialized' ? (a.account ? 'uninit' : 'nonexist') : a.status);
const lastTx = (a: AccountAt) => ({
  last_transaction_lt: a.lastTxLt.toString(),
  last_transaction_hash: a.lastTxLt === 0n ? ZERO_HASH : a.lastTxHash.toString('base64'),
});

const accountQuery = z.object({
  address: p.address('Account address (required).'),
  use_v2: p.bool('Accepted for compatibility; Atlas always answers live.'),
});

const accountAtHead = (lite: LiteClient, address: string | undefined) =>
  live(async () => accountAt(lite, readable(Address.parseRaw(required(address, 'address of account is required')))));

/** The address, when the chain has its workchain (one that does not exist is the client's mistake, 422). */
function readable(address: Address): Address {
  const missing = missingWorkchain(address);
  if (missing) throw unprocessable(`invalid address ${address.toRawString()}: ${missing}`);
  return address;
}

const addressInformationRoute = (path: string) =>
  defineRoute({
    path,
    tag: 'accounts',
    summary: path === 'account' ? 'Alias of addressInformation' : 'Balance, code, data and status of an account, read live',
    description: 'Read from the chain through the lite client at the latest masterchain block.',
    liteOnly: true,
    query: accountQuery,
    response: V2AddressInformation,
    errors: { 401: 'address of account is required', 422: 'invalid address' },
    async run(q, ctx) {
      const a = await accountAtHead(ctx.lite, q.address);
      const boc = (c: Cell | null) => (c ? c.toBoc().toString('base64') : null);
      return {
        balance: a.balance.toString(),
        code: boc(a.code),
        data: boc(a.data),
        ...lastTx(a),
        frozen_hash: a.frozenHash ? a.frozenHash.toString('base64') : null,
        status: v3Status(a),
      };
    },
  });

const walletInformationRoute = (path: string) =>
  defineRoute({
    path,
    tag: 'accounts',
    summary: path === 'wallet' ? 'Alias of walletInformation' : 'Wallet type, seqno and wallet id of a wallet account, read live',
    description: '409 `not a wallet` for an initialized account whose code is not a known wallet.',
    liteOnly: true,
    query: accountQuery,
    response: V2WalletInformation,
    errors: { 401: 'address of account is required', 409: 'not a wallet', 422: 'invalid address' },
    async run(q, ctx) {
      const a = await accountAtHead(ctx.lite, q.address);
      const kind = a.status === 'active' ? walletKind(a.code) : undefined;
      const status = v3Status(a);
      if (!kind && status !== 'uninit' && status !== 'nonexist') throw new V3Error(409, 'not a wallet');
      const fields = kind && a.data ? parseWalletData(kind.layout, a.data) : null;
      return {
        balance: a.balance.toString(),
        ...(kind && fields ? { wallet_type: kind.type, seqno: fields.seqno, ...(fields.walletId !== undefined ? { wallet_id: fields.walletId } : {}) } : {}),
        ...lastTx(a),
        status,
      };
    },
  });

export const addressInformation = addressInformationRoute('addressInformation');
export const account = addressInformationRoute('account');
export const walletInformation = walletInformationRoute('walletInformation');
export const wallet = walletInformationRoute('wallet');

// POST bodies: JSON, validated with plain zod (api-v3.md §2.5 shapes).
const addressField = z
  .string()
  .transform((v, ctx) => {
    // lib/ton's parser, as every other route: raw workchains outside int8 are not addresses.
    const parsed = parseAddress(v.trim());
    const missing = parsed && missingWorkchain(parsed.address);
    if (parsed && !missing) return parsed.address;
    ctx.addIssue({ code: 'custom', message: `invalid address ${JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v)}${missing ? `: ${missing}` : ''}` });
    return z.NEVER;
  })
  .meta({ description: 'Account address in any form' });

/** A BoC the emulator is given: within the depth it can read. */
const bocField = (what: string) => bocParam(what, { maxDepth: LIMITS.emulatedCellDepth });
/** An optional part of a state init: "" is none, as toncenter's clients send it. */
const initField = (what: string) => bocParam(what, { maxDepth: LIMITS.emulatedCellDepth, emptyIsNone: true });

/** A stack argument: a num's value a decimal or 0x string or a JSON number, a cell's or slice's a base64 BoC. */
const StackEntryIn = z.object({ type: z.enum(['num', 'cell', 'slice']), value: z.union([z.string(), z.number(), z.bigint()]) });

export const message = definePostRoute({
  path: 'message',
  summary: 'Send an external message (base64 BoC); answers its hash and normalized hash',
  body: z.object({ boc: z.string().optional().meta({ description: 'base64 BoC of an external inbound message' }) }),
  response: SentMessage,
  errors: { 401: 'boc is required', 422: 'invalid boc' },
  async run(b, ctx) {
    const boc = required(b.boc || undefined, 'boc is required');
    return live(async () => {
      const params = sendBocReturnHash.params.safeParse({ boc });
      if (!params.success) throw unprocessable(params.error.issues[0]!.message);
      const r = (await sendBocReturnHash.run(params.data, { startedAt: performance.now(), lite: async () => ctx.lite, tvm: async () => ctx.tvm, pending: async () => ctx.pending })) as { hash: string; hash_norm: string };
      return { message_hash: r.hash, message_hash_norm: r.hash_norm };
    });
  },
});

/** v3's {type, value} stack entries out: nums as 0x-hex, cells and slices as BoC, tuples and lists nested. */
function v3Entry(typed: unknown): { type: string; value: unknown } {
  const t = typed as Record<string, unknown> & { '@type': string };
  switch (t['@type']) {
    case 'tvm.stackEntryNumber': {
      const n = BigInt((t.number as { number: string }).number);
      return { type: 'num', value: n < 0n ? `-0x${(-n).toString(16)}` : `0x${n.toString(16)}` };
    }
    case 'tvm.stackEntryCell':
      return { type: 'cell', value: (t.cell as { bytes: string }).bytes };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', value: (t.slice as { bytes: string }).bytes };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', value: (t.tuple as { elements: unknown[] }).elements.map(v3Entry) };
    case 'tvm.stackEntryList':
      return { type: 'list', value: (t.list as { elements: unknown[] }).elements.map(v3Entry) };
    default:
      throw new V3Error(501, `unsupported stack entry type ${t['@type']}`);
  }
}

export const runGetMethod = definePostRoute({
  path: 'runGetMethod',
  summary: 'Run a get-method of an account at the latest block',
  body: z.object({
    // "" is as good as missing (toncenter's 401), not an invalid address.
    address: z.preprocess((v) => (v === '' ? undefined : v), addressField.optional()),
    method: z.string().optional().meta({ description: 'get-method name, or its numeric id' }),
    stack: z.array(StackEntryIn).default([]).meta({ description: 'arguments, first pushed first: {type: num|cell|slice, value}' }),
  }),
  response: RunGetMethodResponse,
  errors: { 401: 'address is required · method is required', 422: 'invalid address, method or stack entry' },
  async run(b, ctx) {
    const address = required(b.address, 'address is required');
    const method = required(b.method?.trim() || undefined, 'method is required');
    return live(async () => {
      const input: TupleItem[] = parseStack(
        b.stack.map((e) => [e.type === 'num' ? 'num' : e.type === 'cell' ? 'tvm.Cell' : 'tvm.Slice', e.value]),
        false,
      );
      const client = ctx.lite;
      const methodId = /^-?\d+$/.test(method) ? BigInt(method) : methodIdOf(method);
      const res = await runGetMethodOn(client, ctx.tvm, await accountAt(client, address), methodId, input);
      return { gas_used: res.gasUsed, exit_code: res.exitCode, stack: res.stack.map((x) => v3Entry(typedEntry(x))) };
    });
  },
});

export const estimateFee = definePostRoute({
  path: 'estimateFee',
  summary: 'Fees of an external message, emulated against the current state and config',
  body: z.object({
    address: addressField.optional(),
    body: bocField('body').optional(),
    init_code: initField('init_code').optional(),
    init_data: initField('init_data').optional(),
    ignore_chksig: z.boolean().default(true),
  }),
  response: EstimateFeeResponse,
  errors: { 422: 'address or body is required, or invalid' },
  async run(b, ctx) {
    const address = unprocessableIfMissing(b.address, 'address is required');
    const body = unprocessableIfMissing(b.body, 'body is required');
    const init = stateInit(b.init_code, b.init_data);
    return live(async () => {
      const r = await estimateFees(ctx.lite, ctx.tvm, address, body, init, b.ignore_chksig);
      const fee = ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee }: { in_fwd_fee: number; storage_fee: number; gas_fee: number; fwd_fee: number }) => ({
        in_fwd_fee,
        storage_fee,
        gas_fee,
        fwd_fee,
      });
      return { source_fees: fee(r.source_fees), destination_fees: r.destination_fees.map(fee) };
    });
  },
});
