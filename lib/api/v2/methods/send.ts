// Sending (api-v2.md §2.7, §3.7, §3.8): external messages go to the liteserver as they are, or built from
// their parts (sendQuery, as the Python service's); estimateFee emulates one (fees.ts). POST only.
import { Address, beginCell, Cell, loadMessage, storeMessage, type StateInit } from '@ton/core';
import { z } from 'zod';
import { normalizedHash } from '../../../ton/normalized-hash';
import { LIMITS } from '../../../limits';
import { BocRejected, bocParam, parseClientBoc } from '../../../ton/client-boc';
import { cellObjectParam } from '../cell-object';
import type { V2Context } from '../context';
import { invalidRequest, V2Error } from '../errors';
import { estimateFees, stateInit } from '../../../chain/fees';
import { defineMethod } from '../method';
import { address, bool } from '../params';

/** A base64 BoC with one root cell, within the BoC limits; "" means none. */
const boc = (what: string, maxDepth?: number) => bocParam(what, { emptyIsNone: true, maxDepth });

const sendParams = z.object({ boc: boc('boc') });

function required(cell: Cell | null, name: string): Cell {
  if (!cell) throw invalidRequest(`failed to validate request: ${name} is empty`);
  return cell;
}

/**
 * Hands the message to the lite server. With a pending-trace emulator, its emulation starts first (it
 * pins the states the message meets) and runs on after the answer; it never delays nor fails the send.
 */
async function send(cell: Cell, ctx: V2Context) {
  const lite = await ctx.lite();
  const pending = await ctx.pending?.().catch(() => undefined);
  const sendIt = () => lite.sendMessage(cell.toBoc());
  await (pending ? pending.track(cell, sendIt).sent : sendIt());
}

/** hash and hash_norm of an external inbound message (the BoC's root); 422 for anything else. */
function messageHashes(cell: Cell) {
  let norm: Buffer | null = null;
  try {
    norm = normalizedHash(loadMessage(cell.beginParse()));
  } catch {
    // not a message at all
  }
  if (!norm) throw invalidRequest('failed to validate request: boc is not an external inbound message');
  return { '@type': 'raw.extMessageInfo', hash: cell.hash().toString('base64'), hash_norm: norm.toString('base64') };
}

/**
 * Sends the request's BoC, which must be an external inbound message (refused before sending
 * otherwise, by all three sendBoc methods); answers its hashes. `sendFailure` turns a failure of
 * the send itself into the method's own error.
 */
async function sendExternal(p: z.output<typeof sendParams>, ctx: V2Context, sendFailure?: (e: unknown) => Error) {
  const cell = required(p.boc, 'boc');
  const hashes = messageHashes(cell);
  try {
    await send(cell, ctx);
  } catch (e) {
    throw sendFailure ? sendFailure(e) : e;
  }
  return hashes;
}

export const sendBoc = defineMethod({
  name: 'sendBoc',
  verbs: 'post',
  summary: 'Send an external inbound message (base64 BoC)',
  params: sendParams,
  async run(p, ctx) {
    await sendExternal(p, ctx);
    return { '@type': 'ok' };
  },
});

export const sendBocReturnHash = defineMethod({
  name: 'sendBocReturnHash',
  verbs: 'post',
  summary: 'Send an external inbound message; answer its hash and normalized hash',
  params: sendParams,
  run: (p, ctx) => sendExternal(p, ctx),
});

export const sendBocReturnHashNoError = defineMethod({
  name: 'sendBocReturnHashNoError',
  verbs: 'post',
  summary: 'As sendBocReturnHash, with any failure to send reported as 400',
  params: sendParams,
  run: (p, ctx) => sendExternal(p, ctx, (e) => new V2Error(400, e instanceof Error ? e.message : String(e))),
});

/**
 * The external inbound message tonlib's raw.createQuery builds (the Python service's sendQuery): from
 * addr_none to `dest`, no import fee, the state init and the body each in a reference of its own.
 */
function externalMessage(dest: Address, body: Cell, init: StateInit | null): Cell {
  return beginCell()
    .store(storeMessage({ info: { type: 'external-in', dest, importFee: 0n }, init: init ?? undefined, body }, { forceRef: true }))
    .endCell();
}

/** Builds the message, checks it is within the BoC limits a sent BoC has, and sends it. */
async function sendParts(dest: Address, body: Cell, init: StateInit | null, ctx: V2Context) {
  const cell = externalMessage(dest, body, init);
  // Each part was within the limits; together they may not be (the emulation and the lite server get it whole).
  try {
    parseClientBoc(cell.toBoc().toString('base64'), 'the message');
  } catch (e) {
    throw e instanceof BocRejected ? invalidRequest(`failed to validate request: ${e.message}`) : e;
  }
  await send(cell, ctx);
  return { '@type': 'ok' };
}

export const sendQuery = defineMethod({
  name: 'sendQuery',
  verbs: 'post',
  summary: 'Send an external message built from its parts: destination address, body and, to deploy, init code and data (base64 BoCs)',
  params: z.object({
    address: address(),
    body: boc('body'),
    init_code: boc('init_code').optional(),
    init_data: boc('init_data').optional(),
  }),
  run: (p, ctx) => sendParts(p.address.address, required(p.body, 'body'), stateInit(p.init_code, p.init_data), ctx),
});

export const sendQuerySimple = defineMethod({
  name: 'sendQuerySimple',
  verbs: 'post',
  deprecated: true,
  summary: 'As sendQuery, with the body and init code and data given as cell objects {data: {b64, len}, refs} (what tonweb\'s provider.sendQuery sends)',
  params: z.object({
    address: address(),
    body: cellObjectParam('body'),
    init_code: cellObjectParam('init_code').nullable().optional(),
    init_data: cellObjectParam('init_data').nullable().optional(),
  }),
  run: (p, ctx) => sendParts(p.address.address, p.body, stateInit(p.init_code, p.init_data), ctx),
});

export const estimateFee = defineMethod({
  name: 'estimateFee',
  verbs: 'post',
  summary: 'Fees of an external message to an account, by emulating it on the current state and config',
  params: z.object({
    address: address(),
    // What the emulator is given stays within the depth it can read.
    body: boc('body', LIMITS.emulatedCellDepth),
    init_code: boc('init_code', LIMITS.emulatedCellDepth).optional(),
    init_data: boc('init_data', LIMITS.emulatedCellDepth).optional(),
    ignore_chksig: bool().default(true),
  }),
  async run(p, ctx) {
    const body = required(p.body, 'body');
    return estimateFees(await ctx.lite(), await ctx.tvm(), p.address.address, body, stateInit(p.init_code, p.init_data), p.ignore_chksig);
  },
});
