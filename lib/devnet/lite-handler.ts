/**
 * The devnet's lite_api: every liteServer function ton-lite-client 3.1.1 knows, plus
 * listBlockTransactionsExt and lookupBlockWithProof, answered from the chain (lib/devnet/chain.ts)
 * through the transport's dispatcher (a thrown LiteServerError becomes liteServer.error).
 *
 * Semantics follow the node's liteserver where clients can tell: lookupBlock by lt returns the
 * first block whose end_lt ≥ lt and by utime the first block generated at or after it (the node's
 * LtDb); getTransactions returns at most 16 transactions (max_transaction_count) and fails when the
 * first one is not where lt/hash say; getOneTransaction answers an empty transaction when the block
 * has none at that lt; runSmcMethod runs against the account state of the block asked for, with
 * that block's gen_utime as `now`.
 *
 * States of the newest `stateWindow` rounds (and the zero states) are in memory; account state and
 * get-methods at an older block answer liteServer.error saying so. getBlockProof builds the node's
 * proof chains (forward links signed by the devnet's validators, lib/devnet/validators.ts; backward
 * links through OldMcBlocksInfo) and getShardBlockProof the masterchain block naming a shard block;
 * getValidatorStats, getLibrariesWithProof and nonfinal.* answer liteServer.error.
 *
 * One module per group of functions under lite-api/, over one LiteContext (the chain and the caches of
 * answers about blocks); this file puts them together behind the dispatcher.
 */
import type { DevnetChain } from './chain';
import { LiteErrorCodes, LiteServerError, createLiteDispatcher, type LiteCallContext, type LiteMethods, type LiteQueryHandler } from '../lite/tl/codec';
import { accountMethods } from './lite-api/accounts';
import { blockProofMethods } from './lite-api/block-proofs';
import { blockMethods } from './lite-api/blocks';
import { configMethods } from './lite-api/config';
import { LiteContext, unavailable } from './lite-api/context';
import { masterchainMethods } from './lite-api/masterchain';
import { runMethodMethods } from './lite-api/run-method';
import { sendMethods } from './lite-api/send';
import { shardMethods } from './lite-api/shards';
import { transactionMethods } from './lite-api/transactions';

export { LITE_CAPABILITIES, LITE_VERSION } from './lite-api/masterchain';
export { MAX_BLOCK_TRANSACTIONS, MAX_TRANSACTIONS } from './lite-api/transactions';
export { MAX_LIBRARIES } from './lite-api/config';
export { rejectionText } from './lite-api/send';

/** Longest wait for a waitMasterchainSeqno prefix. */
const MAX_WAIT_MS = 30_000;

export interface DevnetLiteHandlerOptions {
  /** Gas limit of runSmcMethod (default 10M, the sandbox's). */
  getMethodGasLimit?: bigint;
}

/** What the devnet does not serve: an answer saying so rather than "unsupported query". */
const unavailableMethods = {
  'liteServer.getValidatorStats': () => {
    throw unavailable('validator statistics (getValidatorStats)');
  },
  'liteServer.getLibrariesWithProof': () => {
    throw unavailable('library proofs (getLibrariesWithProof; use getLibraries)');
  },
  'liteServer.nonfinal.getValidatorGroups': () => {
    throw unavailable('non-final block candidates');
  },
  'liteServer.nonfinal.getCandidate': () => {
    throw unavailable('non-final block candidates');
  },
} satisfies LiteMethods;

/** Resolves once masterchain block `seqno` is sealed (a waitMasterchainSeqno prefix), or fails after the timeout. */
async function waitFor(chain: DevnetChain, seqno: number, timeoutMs: number): Promise<void> {
  if (chain.lastSeqno >= seqno) return;
  await new Promise<void>((resolveWait, reject) => {
    const timer = setTimeout(
      () => {
        off();
        reject(new LiteServerError(LiteErrorCodes.timeout, `timeout waiting for masterchain block ${seqno} (last is ${chain.lastSeqno})`));
      },
      Math.min(Math.max(timeoutMs, 0), MAX_WAIT_MS),
    );
    const off = chain.onRound((r) => {
      if (r.seqno >= seqno) {
        clearTimeout(timer);
        off();
        resolveWait();
      }
    });
  });
}

export function createDevnetLiteHandler(chain: DevnetChain, opts: DevnetLiteHandlerOptions = {}): LiteQueryHandler {
  const ctx = new LiteContext(chain);
  const methods: LiteMethods = {
    ...masterchainMethods(ctx),
    ...blockMethods(ctx),
    ...sendMethods(ctx),
    ...accountMethods(ctx),
    ...runMethodMethods(ctx, opts.getMethodGasLimit ?? 10_000_000n),
    ...shardMethods(ctx),
    ...transactionMethods(ctx),
    ...configMethods(ctx),
    ...blockProofMethods(ctx),
    ...unavailableMethods,
  };
  return createLiteDispatcher(methods, {
    before: async (_fn, call: LiteCallContext) => {
      if (call.waitMasterchainSeqno) await waitFor(chain, call.waitMasterchainSeqno.seqno, call.waitMasterchainSeqno.timeoutMs);
    },
  });
}
