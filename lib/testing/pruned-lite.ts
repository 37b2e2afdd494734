/**
 * Test support: a lite server that has pruned its old blocks, as a non-archival node has. It wraps the
 * devnet's lite_api handler (lib/devnet/lite-handler.ts) and answers what asks about a block below
 * `below` (any workchain: the devnet's masterchain block k registers basechain block k) with the
 * liteServer.error a pruned node sends (validator/db/archive-manager.cpp, rootdb.cpp), over the same
 * real TL bytes as every other answer:
 *
 * - lookupBlock: 651 "seqno not in db", "lt not in db" or "ts not in db", by how it looks up;
 * - getTransactions: 651 "lt not in db" when the first transaction is in a pruned block; otherwise the
 *   transactions down to the first pruned block (the node answers as far as it got);
 * - a state at a pruned block (account state, get-method, config, shard info): 602 "state already gc'd";
 * - anything else addressed to a pruned block (the block, its header, its transactions): 651 "block
 *   handle not in db".
 */
import type { DevnetChain } from '../devnet/chain';
import { LiteErrorCodes } from '../lite/errors';
import { decodeLiteAnswer, decodeLiteQuery, encodeLiteAnswer, encodeLiteError, isLiteError, type DecodedLiteQuery, type LiteQueryHandler } from '../lite/tl/codec';
import { accountPrefix, deserializeBoc, serializeBoc } from '../ton';

/** lite_api functions that read a block's state rather than the block. */
const STATE_READS = new Set([
  'liteServer.getState',
  'liteServer.getAccountState',
  'liteServer.getAccountStatePrunned',
  'liteServer.runSmcMethod',
  'liteServer.getConfigAll',
  'liteServer.getConfigParams',
  'liteServer.getShardInfo',
  'liteServer.getAllShardsInfo',
]);

export function prunedLiteHandler(handler: LiteQueryHandler, chain: DevnetChain, below: number): LiteQueryHandler {
  const notInDb = (what: string) => encodeLiteError(LiteErrorCodes.notready, `${what} not in db`);
  return async (query) => {
    let fn: DecodedLiteQuery['fn'];
    try {
      fn = decodeLiteQuery(query).fn;
    } catch {
      return handler(query); // the handler answers undecodable queries
    }
    switch (fn.kind) {
      case 'liteServer.lookupBlock': {
        const wc = fn.id.workchain;
        const prefix = BigInt.asUintN(64, BigInt(fn.id.shard));
        const found = fn.mode & 1 ? { seqno: fn.id.seqno } : fn.mode & 2 ? chain.store.byLt(wc, BigInt(fn.lt!), prefix) : chain.store.byUtime(wc, fn.utime!, prefix);
        if (found && found.seqno < below) return notInDb(fn.mode & 1 ? 'seqno' : fn.mode & 2 ? 'lt' : 'ts');
        return handler(query);
      }
      case 'liteServer.getTransactions': {
        const first = chain.store.byLt(fn.account.workchain, BigInt(fn.lt), accountPrefix(fn.account.id));
        if (first && first.seqno < below) return notInDb('lt');
        const answer = await handler(query);
        if (isLiteError(answer)) return answer;
        const list = decodeLiteAnswer('liteServer.getTransactions', answer);
        const keep = list.ids.findIndex((id) => id.seqno < below);
        if (keep < 0) return answer;
        const cells = deserializeBoc(list.transactions).slice(0, keep);
        return encodeLiteAnswer('liteServer.getTransactions', { ...list, ids: list.ids.slice(0, keep), transactions: serializeBoc(cells) });
      }
      default: {
        const id = (fn as { id?: { seqno?: unknown; rootHash?: unknown } }).id;
        if (id && typeof id.seqno === 'number' && id.rootHash !== undefined && id.seqno < below) {
          return STATE_READS.has(fn.kind) ? encodeLiteError(LiteErrorCodes.error, "state already gc'd") : notInDb('block handle');
        }
        return handler(query);
      }
    }
  };
}
