/** lite_api group: transactions — one by account and lt, an account's list backwards, a block's page. */
import type { Cell } from '@ton/core';
import { accountPrefix, serializeBoc, shardContains } from '../../ton';
import { blockAccountProof, blockTransactionsProof } from '../proofs';
import { BASECHAIN, MASTERCHAIN } from '../state';
import {
  LiteErrorCodes,
  LiteServerError,
  type LiteMethods,
  type liteServer_accountId,
  type liteServer_transactionId,
  type tonNode_blockIdExt,
} from '../../lite/tl/codec';
import { EMPTY, NOT_FOUND, bocOrEmpty, tlId, type LiteContext } from './context';

/** The node's max_transaction_count for getTransactions. */
export const MAX_TRANSACTIONS = 16;
/** Upper bound of listBlockTransactions' count (the node caps it too). */
export const MAX_BLOCK_TRANSACTIONS = 256;

interface BlockPageRequest {
  id: tonNode_blockIdExt;
  mode: number;
  count: number;
  after?: { account: Buffer; lt: string } | null;
  reverseOrder?: boolean | null;
  wantProof?: boolean | null;
}

export function transactionMethods(ctx: LiteContext) {
  const { chain } = ctx;

  const selectTransactions = (req: BlockPageRequest) => {
    const block = ctx.resolve(req.id);
    if (block.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block');
    let txs = chain.store.transactions(block);
    if (req.reverseOrder) txs = [...txs].reverse();
    let start = 0;
    if (req.after) {
      const acc = BigInt('0x' + req.after.account.toString('hex'));
      const lt = BigInt(req.after.lt);
      const beyond = (t: { account: bigint; lt: bigint }) =>
        req.reverseOrder ? t.account < acc || (t.account === acc && t.lt < lt) : t.account > acc || (t.account === acc && t.lt > lt);
      start = txs.findIndex(beyond);
      if (start < 0) start = txs.length;
    }
    const count = Math.min(req.count, MAX_BLOCK_TRANSACTIONS);
    const page = txs.slice(start, start + count);
    return { block, page, incomplete: start + page.length < txs.length };
  };

  return {
    'liteServer.getOneTransaction': (req: { id: tonNode_blockIdExt; account: liteServer_accountId; lt: string }) => {
      const m = ctx.resolve(req.id);
      if (m.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block');
      if (req.account.workchain !== m.workchain || !shardContains(m.shard, accountPrefix(req.account.id))) {
        throw new LiteServerError(LiteErrorCodes.error, 'the block cannot contain the specified account');
      }
      const id256 = BigInt('0x' + req.account.id.toString('hex'));
      const lt = BigInt(req.lt);
      const tx = chain.store.transactions(m).find((t) => t.account === id256 && t.lt === lt);
      const root = chain.store.root(m);
      return {
        kind: 'liteServer.transactionInfo' as const,
        id: tlId(m),
        proof: serializeBoc(blockAccountProof(root, id256, tx !== undefined)),
        transaction: tx ? serializeBoc(tx.cell) : EMPTY,
      };
    },
    'liteServer.getTransactions': (req: { count: number; account: liteServer_accountId; lt: string; hash: Buffer }) => {
      const wc = req.account.workchain;
      if (wc !== MASTERCHAIN && wc !== BASECHAIN) throw new LiteServerError(NOT_FOUND, `workchain ${wc} does not exist on the devnet`);
      const id256 = BigInt('0x' + req.account.id.toString('hex'));
      let lt = BigInt(req.lt);
      let hash = req.hash;
      const ids: tonNode_blockIdExt[] = [];
      const cells: Cell[] = [];
      const count = Math.min(req.count, MAX_TRANSACTIONS);
      while (cells.length < count && lt !== 0n) {
        const m = chain.store.byLt(wc, lt, accountPrefix(req.account.id));
        const tx = m && m.seqno <= chain.lastSeqno ? chain.store.transactions(m).find((t) => t.account === id256 && t.lt === lt) : undefined;
        if (!m || !tx) {
          if (cells.length === 0) throw new LiteServerError(LiteErrorCodes.error, 'cannot locate transaction in block with specified logical time');
          break;
        }
        if (!tx.hash.equals(hash)) {
          if (cells.length === 0) throw new LiteServerError(LiteErrorCodes.error, 'transaction hash mismatch');
          break;
        }
        ids.push(tlId(m));
        cells.push(tx.cell);
        const s = tx.cell.beginParse();
        s.skip(4 + 256 + 64);
        hash = s.loadBuffer(32);
        lt = s.loadUintBig(64);
      }
      return { kind: 'liteServer.transactionList' as const, ids, transactions: bocOrEmpty(cells) };
    },
    'liteServer.listBlockTransactions': (req: BlockPageRequest) => {
      const { block, page, incomplete } = selectTransactions(req);
      const mode = req.mode & 7;
      const ids: liteServer_transactionId[] = page.map((t) => ({
        kind: 'liteServer.transactionId',
        mode: req.mode, // the node echoes the request's mode (liteserver.cpp finish_listBlockTransactions)
        account: mode & 1 ? Buffer.from(t.account.toString(16).padStart(64, '0'), 'hex') : undefined,
        lt: mode & 2 ? t.lt.toString() : undefined,
        hash: mode & 4 ? t.hash : undefined,
      }));
      return {
        kind: 'liteServer.blockTransactions' as const,
        id: tlId(block),
        reqCount: req.count,
        incomplete,
        ids,
        proof: req.wantProof ? serializeBoc(blockTransactionsProof(chain.store.root(block))) : EMPTY,
      };
    },
    'liteServer.listBlockTransactionsExt': (req: BlockPageRequest) => {
      const { block, page, incomplete } = selectTransactions(req);
      return {
        kind: 'liteServer.blockTransactionsExt' as const,
        id: tlId(block),
        reqCount: req.count,
        incomplete,
        transactions: bocOrEmpty(page.map((t) => t.cell)),
        proof: req.wantProof ? serializeBoc(blockTransactionsProof(chain.store.root(block))) : EMPTY,
      };
    },
  } satisfies LiteMethods;
}
