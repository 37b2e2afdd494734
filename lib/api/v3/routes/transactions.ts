// Transaction routes (api-v3.md §2.1): transactions, transactionsByMasterchainBlock,
// transactionsByMessage, adjacentTransactions. Each answers {transactions, address_book}; the book covers
// every transaction's account, its in_msg source and its out_msgs' destinations. No metadata key.
import { z } from 'zod';
import type { V3Context } from '../context';
import { bytes } from '../encode';
import { notFound, unprocessable } from '../errors';
import { TransactionsResponse } from '../models/transactions';
import { limitParams, ltParams, p, page, sortOrder, utimeParams } from '../params';
import { adjacentTransactions as adjacentOf, findTransactions, findTransactionsByMessage, type TransactionFilter, type TransactionRow } from '../queries/transactions';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';
import { mapTransactionsInTurns, readTransactionParts } from '../queries/transactions-load';
import { bounds, clampLt, requireMasterchainBlock } from './common';
import { heavyRead, letIoIn } from '../heavy-reads';

/** The page's transactions and their address book; a long page (limit up to 1000) takes its turn among heavy reads. */
function answer(ctx: V3Context, rows: TransactionRow[]) {
  return heavyRead(rows.length, ctx.checkBudget, async () => {
    const { parts, addresses } = readTransactionParts(ctx.sql, rows, { cache: ctx.txCache });
    const book = addresses.then((a) => sideMaps(ctx, a, { book: true, metadata: false }));
    book.catch(() => undefined); // awaited below, after the mapping
    const transactions = await mapTransactionsInTurns(await parts);
    await letIoIn();
    ctx.checkBudget();
    const { address_book } = await book;
    return { transactions, address_book };
  });
}

function validDirection(direction: string | undefined): 'in' | 'out' | undefined {
  if (direction === undefined) return undefined;
  if (direction !== 'in' && direction !== 'out') throw unprocessable('direction should be one of: in, out');
  return direction;
}

export const transactions = defineRoute({
  path: 'transactions',
  tag: 'blockchain',
  summary: 'Transactions by filters',
  description:
    'Ordering (later rules win): lt {sort}, account; with start_utime/end_utime: now {sort}, lt {sort}, account; ' +
    'with exactly one account: account, [now {sort},] lt {sort}; with hash: hash {sort}; with lt: lt, account {sort}.',
  query: z.object({
    workchain: p.int32('Workchain of the block.'),
    shard: p.shard('Shard of the block, e.g. 8000000000000000.'),
    seqno: p.int32('Seqno of the block.'),
    root_hash: p.hash('Accepted for compatibility; does not filter (as in toncenter).'),
    file_hash: p.hash('Accepted for compatibility; does not filter (as in toncenter).'),
    mc_seqno: p.int32('Masterchain block seqno the transactions were committed in (404 if that block is not indexed).'),
    account: p.addresses('Accounts (repeat the key or give a comma list).'),
    exclude_account: p.addresses('Accounts whose transactions are left out.'),
    hash: p.hashes('Transaction hashes.'),
    lt: p.uint64('Transaction lt.'),
    ...utimeParams('now'),
    ...ltParams('lt'),
    ...limitParams(),
  }),
  response: TransactionsResponse,
  errors: { 404: 'masterchain block <n> not found', 422: 'invalid parameter, limit or sort' },
  async run(q, ctx) {
    if (q.mc_seqno !== undefined) await requireMasterchainBlock(ctx.sql, q.mc_seqno);
    const filter: TransactionFilter = {
      workchain: q.workchain,
      shard: q.shard,
      seqno: q.seqno,
      mcSeqno: q.mc_seqno,
      // [quirk] toncenter accepts exclude_account and ignores it; a client sending it wants those
      // accounts left out, so Atlas leaves them out.
      accounts: q.account,
      excludeAccounts: q.exclude_account,
      hashes: q.hash,
      lt: q.lt === undefined ? undefined : clampLt(q.lt),
      ...bounds(q),
      sort: sortOrder(q.sort),
    };
    return answer(ctx, await findTransactions(ctx.sql, filter, page(q)));
  },
});

export const transactionsByMasterchainBlock = defineRoute({
  path: 'transactionsByMasterchainBlock',
  tag: 'blockchain',
  summary: 'Transactions of a masterchain block and of every shard block it committed',
  description: 'Ordered lt {sort}, account.',
  query: z.object({ seqno: p.int32('Masterchain block seqno (missing means 0).'), ...limitParams() }),
  response: TransactionsResponse,
  errors: { 404: 'masterchain block <n> not found', 422: 'invalid parameter, limit or sort' },
  async run(q, ctx) {
    const seqno = q.seqno ?? 0;
    await requireMasterchainBlock(ctx.sql, seqno);
    return answer(ctx, await findTransactions(ctx.sql, { mcSeqno: seqno, sort: sortOrder(q.sort) }, page(q)));
  },
});

export const transactionsByMessage = defineRoute({
  path: 'transactionsByMessage',
  tag: 'blockchain',
  summary: 'Transactions that received or sent a message',
  description:
    'A message matches by hash (or normalized hash), body hash or opcode (opcode implies direction=in). ' +
    'direction in = the receiving transaction, out = the sending one. Ordered lt {sort}, account.',
  query: z.object({
    msg_hash: p.hashes('Message hash or normalized external message hash.'),
    body_hash: p.hash('Hash of the message body cell.'),
    opcode: p.opcode('Message opcode; implies direction=in.'),
    direction: p.string('in | out', { enum: ['in', 'out'] }),
    ...limitParams(),
  }),
  response: TransactionsResponse,
  errors: { 422: 'direction should be one of: in, out · at least one of msg_hash, body_hash, opcode should be specified' },
  async run(q, ctx) {
    const direction = validDirection(q.direction);
    if (!q.msg_hash?.length && !q.body_hash && q.opcode === undefined) {
      throw unprocessable('at least one of msg_hash, body_hash, opcode should be specified');
    }
    const filter = { msgHashes: q.msg_hash, bodyHash: q.body_hash, opcode: q.opcode, direction, sort: sortOrder(q.sort) };
    return answer(ctx, await findTransactionsByMessage(ctx.sql, filter, page(q)));
  },
});

export const adjacentTransactions = defineRoute({
  path: 'adjacentTransactions',
  tag: 'blockchain',
  summary: 'Parent and/or children of a transaction',
  description:
    'in = the transaction that sent this one\'s inbound message; out = the transactions that received its outbound ' +
    'messages; absent = both. Ordered lt asc, no limit.',
  query: z.object({
    hash: p.hash('Transaction hash.'),
    direction: p.string('in | out; any other value means both.', { enum: ['in', 'out'] }),
  }),
  response: TransactionsResponse,
  errors: { 404: 'adjacent transactions not found', 422: 'hash is required' },
  async run(q, ctx) {
    // toncenter runs the query with an empty hash and answers 404; a missing parameter is a 422 here.
    if (!q.hash) throw unprocessable('hash is required');
    const direction = q.direction === 'in' || q.direction === 'out' ? q.direction : undefined;
    const rows = await adjacentOf(ctx.sql, bytes(q.hash), direction);
    if (!rows.length) throw notFound('adjacent transactions not found');
    return answer(ctx, rows);
  },
});
