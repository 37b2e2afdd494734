// Transaction routes (api-v2.md §2.4, §3.1, §3.2): an account's history walked newest first through
// liteServer.getTransactions (at most 16 a call, like a real node), a block's transactions, and the
// transactions at either end of an internal message. History the lite servers pruned is read from the
// index when it holds it (history.ts), in the same JSON.
import { createHash } from 'node:crypto';
import { Address, Cell, loadTransaction } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { z } from 'zod';
import { Functions as FullFunctions } from '../../../lite/tl/codec';
import { parseAddress } from '../../../ton/address';
import { parseHash } from '../../../ton/hash-input';
import { blockIdJson, blockParams, MASTER_SHARD, oneMasterchainShard, optionalHash, resolveBlock } from '../block-json';
import { invalidRequest, V2Error } from '../errors';
import type { Database } from '../../../db/database';
import { isHistoryGone, LiteServerError, normalizeLiteError } from '../../../lite/errors';
import { indexedAccountTransactions, indexedBlockOf, indexedBlockTransactions, indexedLocate, withHistory, type IndexedBlock } from '../history';
import { defineMethod } from '../method';
import { address, bool, int32, int64 } from '../params';
import { parsedTransaction, transactionId, transactionJson } from '../../../chain/tx-json';
import { TtlLru } from '../../../lite/cache';

/** liteServer.getTransactions answers at most this many transactions per call (the node's limit). */
const LITE_PAGE = 16;
/** listBlockTransactions answers at most this many ids per call. */
const BLOCK_PAGE = 256;

const hash256 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

interface TxCursor {
  lt: bigint;
  hash: Buffer;
}

/**
 * An account's transactions from `start` (inclusive) back to the first one, newest first, fetched a
 * page at a time as the caller consumes them. Once the lite server says it no longer keeps them, the
 * rest comes from the index (`db`) as far as it holds them; past that, the lite server's error stands.
 */
async function* history(client: LiteClient, account: Address, start: TxCursor, pageSize = LITE_PAGE, db?: Database): AsyncGenerator<Cell> {
  let cursor = start;
  let pruned: unknown;
  const noSuchTransaction = () => new V2Error(404, `no transaction of ${account.toRawString()} has lt ${start.lt} and hash ${start.hash.toString('hex')}`);
  while (cursor.lt !== 0n) {
    let cells: Cell[] | undefined;
    if (pruned === undefined) {
      try {
        cells = pageCells((await client.getAccountTransactions(account, cursor.lt.toString(), cursor.hash, pageSize)).transactions);
      } catch (err) {
        // The start is the client's (lt, hash): the liteserver refusing that pair means no such transaction.
        const lite = normalizeLiteError(err, 0);
        if (cursor === start && lite instanceof LiteServerError && /hash mismatch/i.test(lite.message)) throw noSuchTransaction();
        if (!db || !isHistoryGone(err)) throw err;
        pruned = err; // older pages are gone too: the index from here on
      }
    }
    if (!cells) {
      const page = await indexedAccountTransactions(db!, account, cursor, pageSize);
      if (page === 'mismatch' && cursor === start) throw noSuchTransaction();
      if (!page || page === 'mismatch') throw pruned;
      cells = page;
    }
    if (cells.length === 0) return;
    for (const c of cells) yield c;
    const oldest = parsedTransaction(cells[cells.length - 1]!);
    cursor = { lt: oldest.prevTransactionLt, hash: hash256(oldest.prevTransactionHash) };
  }
}

// The cells of getTransactions answers by the answer's content hash: the same page comes back for every
// poll of a history, and reading a BoC (hashing every cell) costs more than fetching it. Cells are
// immutable, so the same objects serve every request.
// Sized at ~8x the BoC: what the Cell objects take in memory.
const pages = new TtlLru<string, { cells: Cell[]; size: number }>({ ttlMs: 60_000, maxEntries: 1000, maxBytes: 32 << 20, sizeOf: (p) => p.size });

function pageCells(boc: Buffer): Cell[] {
  if (boc.length === 0) return [];
  const key = createHash('sha256').update(boc).digest('hex');
  let page = pages.get(key);
  if (!page) {
    page = { cells: Cell.fromBoc(boc), size: 256 + boc.length * 8 };
    pages.set(key, page);
  }
  return page.cells;
}

/** The account's last transaction as of masterchain block `at` (the latest by default); null when it has none. */
async function lastTransaction(client: LiteClient, account: Address, at?: tonNode_blockIdExt): Promise<TxCursor | null> {
  const block = at ?? (await client.getMasterchainInfo()).last;
  const state = await client.getAccountState(account, block);
  return state.lastTx && state.lastTx.lt !== 0n ? { lt: state.lastTx.lt, hash: hash256(state.lastTx.hash) } : null;
}

const historyParams = {
  address: address(),
  limit: int32('a limit from 1 to 1000', 1n, 1000n).default(10),
  lt: int64('a non-negative lt', 0n).optional(),
  hash: optionalHash(),
  to_lt: int64('a non-negative lt', 0n).default(0n),
  // "Use only archival liteservers" (api-v2.md §2.0, §3.1). Accepted and validated, then answered by
  // whichever server the pool picks: lib/lite's pool does not know which of its servers keep full
  // history, so the reference's CPP behaviour (542 when none is archival) cannot be told apart from a
  // real answer without a per-server archival flag there. This is PY's behaviour (fall back to any
  // server); a server without the older blocks still fails the read with its own error.
  archival: bool().default(false),
};

/** Reads up to `limit` transactions from `start` down to (not including) `toLt`; also gives the next older id. */
async function readHistory(client: LiteClient, account: Address, start: TxCursor | null, limit: number, toLt: bigint, db?: Database) {
  const cells: Cell[] = [];
  let next: TxCursor = { lt: 0n, hash: Buffer.alloc(32) };
  if (start) {
    for await (const cell of history(client, account, start, Math.min(LITE_PAGE, limit), db)) {
      const tx = parsedTransaction(cell);
      if (tx.lt <= toLt) break;
      cells.push(cell);
      next = { lt: tx.prevTransactionLt, hash: hash256(tx.prevTransactionHash) };
      // Stop here, not on the next cell: asking for it would fetch one more page nobody reads.
      if (cells.length === limit) break;
    }
  }
  return { cells, next };
}

export const getTransactions = defineMethod({
  name: 'getTransactions',
  verbs: 'read',
  summary: "An account's transactions, newest first, from lt+hash (inclusive) down to to_lt (exclusive)",
  params: z.object(historyParams),
  async run(p, ctx) {
    const lt = p.lt === 0n ? undefined : p.lt; // lt 0 is "not given" here (not in getTransactionsStd)
    if ((lt === undefined) !== (p.hash === undefined)) throw invalidRequest('failed to validate request: lt and hash must be given together');
    const client = await ctx.lite();
    const account = p.address.address;
    const start = lt !== undefined ? { lt, hash: p.hash! } : await lastTransaction(client, account);
    const { cells } = await readHistory(client, account, start, p.limit, p.to_lt, await ctx.db?.());
    return cells.map((c) => transactionJson(c, account.workChain, 'ext'));
  },
});

export const getTransactionsStd = defineMethod({
  name: 'getTransactionsStd',
  verbs: 'read',
  summary: "An account's transactions as raw.transactions, with the id of the next older one",
  params: z.object(historyParams),
  async run(p, ctx) {
    if ((p.lt === undefined) !== (p.hash === undefined)) throw invalidRequest('failed to validate request: lt and hash must be given together');
    const client = await ctx.lite();
    const account = p.address.address;
    const start = p.lt !== undefined ? { lt: p.lt, hash: p.hash! } : await lastTransaction(client, account);
    const { cells, next } = await readHistory(client, account, start, p.limit, p.to_lt, await ctx.db?.());
    return {
      '@type': 'raw.transactions',
      transactions: cells.map((c) => transactionJson(c, account.workChain, 'raw')),
      previous_transaction_id: transactionId(next.lt, next.hash),
    };
  },
});

/** after_hash: a transaction's account id, given as a hash or as any address form. */
const accountId = () =>
  z
    .string()
    .transform((v, ctx): Buffer | undefined => {
      const t = v.trim();
      if (t === '') return undefined;
      const id = parseHash(t) ?? parseAddress(t)?.address.hash;
      if (!id) {
        ctx.addIssue({ code: 'custom', message: `invalid account id ${JSON.stringify(v)}: expected a 32-byte hash or an address` });
        return z.NEVER;
      }
      return id;
    })
    .optional()
    .meta({ description: 'account id of the cursor transaction: 32-byte hash or an address' });

const blockTxParams = z.object({
  ...blockParams,
  after_lt: int64('a non-negative lt', 0n).optional(),
  after_hash: accountId(),
  count: int32('a count from 1 to 10000', 1n, 10000n).default(40),
}).superRefine(oneMasterchainShard);

function cursorOf(p: z.output<typeof blockTxParams>) {
  if ((p.after_lt === undefined) !== (p.after_hash === undefined)) {
    throw invalidRequest('failed to validate request: after_lt and after_hash must be given together');
  }
  return p.after_lt !== undefined ? { kind: 'liteServer.transactionId3' as const, account: p.after_hash!, lt: p.after_lt.toString() } : null;
}

/** Mode bits of listBlockTransactions: account, lt and hash wanted (7), `after` present (128). */
const listMode = (after: unknown) => 7 | (after ? 128 : 0);

/**
 * The `mode` of the i-th short id of an answer: a node echoes each page's request mode, and pages after
 * the first (BLOCK_PAGE ids) always continue after a cursor.
 */
const shortIdMode = (i: number, after: unknown) => listMode(i < BLOCK_PAGE ? after : true);

/** The block of a getBlockTransactions(Ext) request and its transactions page, from the index. */
async function indexedBlockPage(db: Database, p: z.output<typeof blockTxParams>, withBocs: boolean) {
  const block = await indexedBlockOf(db, p);
  if (!block) return undefined;
  const page = await indexedBlockTransactions(db, block, cursorOf(p), p.count, withBocs);
  return page && { block, ...page };
}

type BlockCursor = ReturnType<typeof cursorOf>;
/** One page of a block's transactions and the cursor after its last (undefined when it is empty). */
type BlockPage<T> = { items: T[]; incomplete: boolean; next: BlockCursor | undefined };

/**
 * A block's transactions from the lite server, BLOCK_PAGE at a time from `after` until `count` are
 * read or the block ends; `fetch` reads one page and names the cursor after its last transaction
 * (undefined when the page is empty, which ends the walk).
 */
async function pageBlock<T>(
  after: BlockCursor,
  count: number,
  fetch: (after: BlockCursor, count: number) => Promise<BlockPage<T>>,
): Promise<{ out: T[]; incomplete: boolean }> {
  const out: T[] = [];
  let incomplete = false;
  do {
    const page = await fetch(after, Math.min(BLOCK_PAGE, count - out.length));
    out.push(...page.items);
    incomplete = page.incomplete;
    if (!page.next) break;
    after = page.next;
  } while (incomplete && out.length < count);
  return { out, incomplete };
}

const blockTransactionsJson = (id: IndexedBlock | tonNode_blockIdExt, count: number, incomplete: boolean, transactions: unknown[], type: string) => ({
  '@type': type,
  id: blockIdJson(id),
  req_count: count,
  incomplete,
  transactions,
});

/**
 * getBlockTransactions(Ext): a block's transactions from the request's cursor, read live a page at a
 * time (`livePage`) or, when the lite server no longer has the block, from the index (`indexed`;
 * `withBocs` for the full form), answered as `type`.
 */
function blockTxMethod<T>(m: {
  name: string;
  summary: string;
  type: string;
  withBocs: boolean;
  livePage: (client: LiteClient, id: tonNode_blockIdExt, after: BlockCursor, count: number) => Promise<BlockPage<T>>;
  indexed: (page: NonNullable<Awaited<ReturnType<typeof indexedBlockPage>>>, p: z.output<typeof blockTxParams>) => T[];
}) {
  return defineMethod({
    name: m.name,
    verbs: 'read',
    summary: m.summary,
    params: blockTxParams,
    async run(p, ctx) {
      const client = await ctx.lite();
      const live = async () => {
        const id = await resolveBlock(client, p);
        const { out, incomplete } = await pageBlock(cursorOf(p), p.count, (after, count) => m.livePage(client, id, after, count));
        return blockTransactionsJson(id, p.count, incomplete, out, m.type);
      };
      return withHistory(await ctx.db?.(), live, async (db) => {
        const page = await indexedBlockPage(db, p, m.withBocs);
        return page && blockTransactionsJson(page.block, p.count, page.incomplete, m.indexed(page, p), m.type);
      });
    },
  });
}

const shortId = (mode: number, workchain: number, account: Buffer, lt: string, hash: Buffer) =>
  ({ '@type': 'blocks.shortTxId', mode, account: `${workchain}:${account.toString('hex')}`, lt, hash: hash.toString('base64') });

export const getBlockTransactions = blockTxMethod({
  name: 'getBlockTransactions',
  summary: "A block's transactions as short ids (account, lt, hash)",
  type: 'blocks.transactions',
  withBocs: false,
  async livePage(client, id, after, count) {
    const page = await client.listBlockTransactions(id, { mode: listMode(after), count, after });
    const last = page.ids[page.ids.length - 1];
    const items = page.ids.map((t) => shortId(t.mode, id.workchain, t.account!, t.lt!, t.hash!));
    return { items, incomplete: page.incomplete, next: last && { kind: 'liteServer.transactionId3', account: last.account!, lt: last.lt! } };
  },
  indexed: (page, p) => page.transactions.map((t, i) => shortId(shortIdMode(i, cursorOf(p)), page.block.workchain, t.account, t.lt.toString(), t.hash)),
});

export const getBlockTransactionsExt = blockTxMethod({
  name: 'getBlockTransactionsExt',
  summary: "A block's transactions in full",
  type: 'blocks.transactionsExt',
  withBocs: true,
  async livePage(client, id, after, count) {
    const query = { kind: 'liteServer.listBlockTransactionsExt', id, mode: listMode(after), count, after, reverseOrder: null, wantProof: null } as const;
    const page = await client.engine.query(FullFunctions.liteServer_listBlockTransactionsExt, query);
    const cells = page.transactions.length ? Cell.fromBoc(page.transactions) : [];
    const last = cells[cells.length - 1];
    const tx = last && loadTransaction(last.beginParse());
    const items = cells.map((c) => transactionJson(c, id.workchain, 'raw', 'raw.transactionExt'));
    return { items, incomplete: page.incomplete, next: tx && { kind: 'liteServer.transactionId3', account: hash256(tx.address), lt: tx.lt.toString() } };
  },
  indexed: (page) => page.transactions.map((t) => transactionJson(t.cell!, page.block.workchain, 'raw', 'raw.transactionExt')),
});

// ---- tryLocate* --------------------------------------------------------------------------------

/** How far a walk from the latest state may go back before giving up (the message is then too old). */
const MAX_LATEST_WALK = 256;
/** The result of a message usually lands within this many lt after it was created (api-v2.md §3.2). */
const RESULT_WINDOW = 2_000_000n;

const sameAddress = (a: unknown, b: Address) => a instanceof Address && a.equals(b);

/**
 * The transaction on `side` of the internal message (source → destination, created_lt): 'result' is the
 * destination's transaction that received it, 'source' the source's that sent it. The walk starts at the
 * account's state in the masterchain block at created_lt (+ a window for results), then from the latest;
 * last, the index (`db`) is asked for the message directly. History the lite servers pruned on the way
 * ends that part of the search; when nothing found it, their error stands (542), else 404.
 */
async function locate(client: LiteClient, side: 'result' | 'source', source: Address, destination: Address, createdLt: bigint, db?: Database): Promise<Cell> {
  const account = side === 'result' ? destination : source;
  const matches = (cell: Cell) => {
    const tx = parsedTransaction(cell);
    const msgs = side === 'result' ? (tx.inMessage ? [tx.inMessage] : []) : [...tx.outMessages.values()];
    return msgs.some((m) => m.info.type === 'internal' && m.info.createdLt === createdLt && sameAddress(m.info.src, source) && sameAddress(m.info.dest, destination));
  };
  // Every older transaction is out of reach: results come after the message, sources' out messages end before.
  const tooOld = (cell: Cell) => {
    const tx = parsedTransaction(cell);
    return side === 'result' ? tx.lt <= createdLt : tx.lt + BigInt(tx.outMessagesCount) < createdLt;
  };
  let pruned: unknown;
  const unlessPruned = async <T>(read: () => Promise<T>): Promise<T | null> => {
    try {
      return await read();
    } catch (err) {
      if (!isHistoryGone(err)) throw err;
      pruned ??= err;
      return null;
    }
  };
  const walk = (start: TxCursor | null, max: number) =>
    unlessPruned(async () => {
      if (!start) return null;
      let n = 0;
      for await (const cell of history(client, account, start, LITE_PAGE, db)) {
        if (tooOld(cell) || n++ >= max) return null;
        if (matches(cell)) return cell;
      }
      return null;
    });
  let near: tonNode_blockIdExt | undefined;
  try {
    const lt = createdLt + (side === 'result' ? RESULT_WINDOW : 1n);
    near = (await client.lookupBlockByLt({ workchain: -1, shard: MASTER_SHARD.toString(), lt })).id;
  } catch (err) {
    // no masterchain block that late yet (the latest state below covers it), or one the lite servers pruned
    if (isHistoryGone(err)) pruned ??= err;
  }
  const found =
    (near && (await walk(await unlessPruned(() => lastTransaction(client, account, near)), Number.MAX_SAFE_INTEGER))) ||
    (await walk(await lastTransaction(client, account), MAX_LATEST_WALK)) ||
    (db && (await indexedLocate(db, side, source, destination, createdLt)));
  if (found) return found;
  if (pruned) throw pruned;
  throw new V2Error(404, 'transaction was not found');
}

const locateParams = z.object({ source: address(), destination: address(), created_lt: int64('a non-negative lt', 0n) });

const locateMethod = (name: string, side: 'result' | 'source', summary: string) =>
  defineMethod({
    name,
    verbs: 'read',
    summary,
    params: locateParams,
    async run(p, ctx) {
      const cell = await locate(await ctx.lite(), side, p.source.address, p.destination.address, p.created_lt, await ctx.db?.());
      const account = side === 'result' ? p.destination.address : p.source.address;
      return transactionJson(cell, account.workChain, 'ext');
    },
  });

export const tryLocateTx = locateMethod('tryLocateTx', 'result', "The destination's transaction that received an internal message");
export const tryLocateResultTx = locateMethod('tryLocateResultTx', 'result', "The destination's transaction that received an internal message");
export const tryLocateSourceTx = locateMethod('tryLocateSourceTx', 'source', "The source's transaction that sent an internal message");
