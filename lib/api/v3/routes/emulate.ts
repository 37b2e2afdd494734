// POST /emulate (an Atlas extension; toncenter has no such route): what a signed external message would
// do, emulated exactly as a sent one is for /pendingTraces (lib/pending: the whole trace against the
// latest states, classified into actions), but never sent and never stored. For the explorer's emulate
// page: paste a BoC, see the trace, its actions, fees and failures before sending it.
import { loadMessage, type Cell } from '@ton/core';
import { z } from 'zod';
import { LIMITS } from '../../../limits';
import { normalizedHash } from '../../../ton/normalized-hash';
import { pendingTraceJson } from '../pending-json';
import { BocRejected, parsePastedBoc } from '../../../ton/client-boc';
import { rawUpper } from '../../../ton/address';
import { actionAddresses } from '../action-json';
import { supportedActionTypes } from '../action-types';
import { unprocessable, V3Error } from '../errors';
import { live } from '../live-call';
import { EmulateResponse } from '../models/traces';
import { definePostRoute } from '../route';
import { sideMaps } from '../queries/side-maps';
import { transactionAddresses } from '../queries/transactions-load';

/** One emulation's bounds: the transactions of a large fan-out, and the emulator's time for one request. */
const EMULATE_BOUNDS = { maxTransactions: LIMITS.emulatedTransactions, budgetMs: LIMITS.tvmRunMs };

/** The external inbound message a client pasted: 422 for anything else. */
function externalIn(text: string | undefined): Cell {
  if (text === undefined || !text.trim()) throw unprocessable('boc is required');
  let cell: Cell;
  try {
    cell = parsePastedBoc(text, 'boc', LIMITS.emulatedCellDepth);
  } catch (err) {
    if (err instanceof BocRejected) throw unprocessable(`invalid boc: ${err.message}`);
    throw err;
  }
  let external = false;
  try {
    const msg = loadMessage(cell.beginParse());
    external = msg.info.type === 'external-in' && normalizedHash(msg) !== null;
  } catch {
    // not a message at all
  }
  if (!external) throw unprocessable('invalid boc: not an external inbound message');
  return cell;
}

export const emulate = definePostRoute({
  path: 'emulate',
  tag: 'emulate',
  summary: 'Emulate a signed external message without sending it (Atlas extension)',
  description:
    'The whole trace the message would cause, emulated like a sent message for /pendingTraces (every internal hop, the latest ' +
    `states, signatures checked), with its actions, fees and failures; nothing is sent or kept. At most ${EMULATE_BOUNDS.maxTransactions} ` +
    `transactions and ${EMULATE_BOUNDS.budgetMs} ms (truncated: true past either). A message the chain would refuse answers 200 with rejected.`,
  body: z.object({ boc: z.string().optional().meta({ description: 'the external inbound message: a BoC in base64 (standard or url-safe) or hex' }) }),
  response: EmulateResponse,
  errors: { 422: 'boc is required, is not a bag of cells within the BoC limits, or is not an external inbound message' },
  async run(b, ctx) {
    const external = externalIn(b.boc);
    // [quirk] as the pending routes: without the emulator the answer is toncenter's wording for it.
    if (!ctx.pending) throw new V3Error(500, 'emulatedTracesRepository is not initialized');
    const pending = ctx.pending;
    const entry = await live(() => pending.entryOf(external, EMULATE_BOUNDS));
    const msg = loadMessage(external.beginParse());
    const destination = msg.info.type === 'external-in' ? rawUpper(msg.info.dest) : '';
    const trace = entry.rejected === null ? pendingTraceJson(entry, supportedActionTypes(undefined, ctx.actionsVersion)) : null;
    const txs = Object.values(trace?.transactions ?? {});
    const exit = entry.rejected === null ? null : /exit code (-?\d+)/.exec(entry.rejected);
    return {
      external_hash: entry.externalHash,
      external_hash_norm: entry.externalHashNorm,
      destination,
      mc_seqno: entry.mcSeqno,
      trace,
      rejected: entry.rejected === null ? null : { reason: entry.rejected, exit_code: exit ? Number(exit[1]) : null },
      truncated: entry.truncated,
      total_fees: txs.reduce((sum, t) => sum + BigInt(t.total_fees), 0n).toString(),
      ...(await sideMaps(ctx, [destination, ...transactionAddresses(txs), ...actionAddresses(trace?.actions ?? [])])),
    };
  },
});
