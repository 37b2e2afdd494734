// /traces?account= pages on a real devnet index (genesis scenario plus traffic: wallets, jettons, NFTs,
// bounces) are exactly the pages of the query they replace: every trace with a
// transaction of the account, filtered, ordered end_lt (end_utime with a time filter) and trace_id,
// LIMIT/OFFSET. The busiest and the quietest accounts, both orders, several pages and ranges; the walk from its default first
// batch and from a batch of 1 (every growth step and every stopping rule taken). The devnet runs each
// trace to its end before the next starts; traces running side by side (the walk's edge) are the SPAN
// case of account-pages-plan.test.ts. The page's messages, read by trace id alongside its transactions,
// are the ones read by transaction hash. The trace cache (../trace-cache.ts) answers as building the traces does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { loadTransactions, mapTransactions, messagesOfTraces, partsAddresses, transactionAddresses, transactionParts } from './transactions-load';
import { accountTracesByLt, findTraces, servedWhole, transactionsOfTraces, type TraceFilter, type TraceRow } from './traces';
import { testApi } from '../../../testing/api';
import { TraceCache } from '../trace-cache';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'traces-equivalence', rounds: 4, tps: 20, index: true });
}, 300_000);
afterAll(() => chain?.close());

const prisma = () => chain.db!.db.prisma;
const sql = () => chain.db!.db.sql;

/** The query the walk replaced (its exact fallback, for every account): the definition of a page. */
function reference(f: TraceFilter & { account: string }): Promise<TraceRow[]> {
  const dir = Prisma.raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  const byTime = f.startUtime !== undefined || f.endUtime !== undefined;
  const key = byTime ? Prisma.sql`tr.end_utime ${dir}, tr.trace_id ${dir}` : Prisma.sql`tr.end_lt ${dir}, tr.trace_id ${dir}`;
  return prisma().$queryRaw<TraceRow[]>(Prisma.sql`
    WITH mine AS MATERIALIZED (SELECT DISTINCT trace_id FROM transactions WHERE account = ${f.account})
    SELECT tr.trace_id, tr.external_hash, tr.external_hash_norm, tr.mc_seqno_start, tr.mc_seqno_end, tr.start_lt, tr.start_utime, tr.end_lt, tr.end_utime,
      tr.state, tr.transactions, tr.messages, tr.pending_messages, tr.is_incomplete, tr.classification_state, tr.classifier_version
    FROM traces tr WHERE tr.trace_id IN (SELECT trace_id FROM mine)
      AND tr.end_lt BETWEEN ${f.startLt ?? -1n}::int8 AND ${f.endLt ?? 2n ** 62n}::int8
      AND tr.end_utime BETWEEN ${f.startUtime ?? -1}::int8 AND ${f.endUtime ?? 2 ** 40}::int8
    ORDER BY ${key} LIMIT ${f.take} OFFSET ${f.skip}`);
}

describe('/traces?account= on a devnet index', () => {
  it('every account, order, page and range: the same rows as the query it replaced', async () => {
    const accounts = await prisma().$queryRaw<{ account: string; n: bigint; lo: bigint; hi: bigint; t0: number; t1: number }[]>`
      SELECT t.account, count(*) AS n, min(tr.end_lt) AS lo, max(tr.end_lt) AS hi, min(tr.end_utime) AS t0, max(tr.end_utime) AS t1
      FROM transactions t JOIN traces tr ON tr.trace_id = t.trace_id GROUP BY t.account ORDER BY count(*) DESC`;
    expect(accounts.length).toBeGreaterThan(20);
    // The 15 busiest accounts (wallets and contracts in many traces) and the 5 quietest.
    const chosen = [...accounts.slice(0, 15), ...accounts.slice(-5)];
    let compared = 0;
    let nonEmpty = 0;
    for (const a of chosen) {
      const mid = (a.lo + a.hi) / 2n;
      const midTime = Math.floor((a.t0 + a.t1) / 2);
      const ranges: Partial<TraceFilter>[] = [{}, { startLt: mid }, { endLt: mid }, { startLt: a.lo + 1n, endLt: a.hi - 1n }, { startUtime: midTime }, { endUtime: midTime }];
      for (const range of ranges)
        for (const sort of ['desc', 'asc'] as const)
          for (const [skip, take] of [[0, 1], [1, 2], [2, 20], [0, 100]] as const) {
            const f = { account: a.account, take, skip, sort, ...range };
            const expected = await reference(f);
            const label = JSON.stringify({ ...f, startLt: String(f.startLt), endLt: String(f.endLt) });
            expect(await findTraces(sql(), f), label).toEqual(expected);
            if (range.startUtime === undefined && range.endUtime === undefined) expect(await accountTracesByLt(sql(), f, a.account, 1), `${label} batch 1`).toEqual(expected);
            compared++;
            if (expected.length) nonEmpty++;
          }
    }
    expect(compared).toBe(chosen.length * 6 * 2 * 4);
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  }, 600_000);

  it('a page of traces reads its messages by trace id: the same transactions and address-book accounts as by transaction hash', async () => {
    const accounts = await prisma().$queryRaw<{ account: string }[]>`SELECT account FROM transactions GROUP BY account ORDER BY count(*) DESC LIMIT 10`;
    let transactions = 0;
    for (const { account } of accounts) {
      const rows = await findTraces(sql(), { account, take: 20, skip: 0, sort: 'desc' });
      const txRows = await transactionsOfTraces(sql(), rows);
      const parts = await transactionParts(sql(), txRows, { messages: messagesOfTraces(sql(), servedWhole(rows)) });
      const expected = await loadTransactions(sql(), txRows);
      expect(mapTransactions(parts)).toEqual(expected);
      expect(new Set(partsAddresses(parts))).toEqual(new Set(transactionAddresses(expected)));
      transactions += expected.length;
    }
    expect(transactions).toBeGreaterThan(100);
  }, 120_000);

  it('answers with the trace cache are the answers built from the rows: first and repeated asks, with and without actions, a re-classification', async () => {
    const cache = new TraceCache(64 * 1024 * 1024);
    const cached = testApi({ db: chain.db!.db, traceCache: cache });
    const built = testApi({ db: chain.db!.db, traceCache: null });
    const accounts = await prisma().$queryRaw<{ account: string }[]>`SELECT account FROM transactions GROUP BY account ORDER BY count(*) DESC, account LIMIT 6`;
    const asks: [string, Record<string, string | number | boolean>][] = accounts.flatMap(({ account }) => [
      ['traces', { account, limit: 15 }],
      ['traces', { account, limit: 15, include_actions: true }],
      ['traces', { account, limit: 15, include_actions: true, supported_action_types: 'v1' }],
      ['events', { account, limit: 15, sort: 'asc' }],
    ]);
    const same = async (label: string) => {
      for (const [route, q] of asks) {
        const want = await built.callV3(route, q);
        expect(want.status).toBe(200);
        expect((await cached.callV3(route, q)).body, `${label} ${route} ${JSON.stringify(q)}`).toEqual(want.body);
      }
    };
    await same('first ask');
    expect(cache.stats.entries).toBeGreaterThan(50);
    await same('from the cache');

    // A re-classification stores other actions under a new classifier_version: answered at once.
    const [trace] = await prisma().$queryRaw<{ trace_id: Uint8Array }[]>`
      SELECT trace_id FROM actions WHERE trace_id IN (SELECT trace_id FROM transactions WHERE account = ${accounts[0]!.account}) LIMIT 1`;
    const flip = () => prisma().$executeRaw`UPDATE actions SET success = NOT success WHERE trace_id = ${trace!.trace_id}`;
    await flip();
    await prisma().$executeRaw`UPDATE traces SET classifier_version = classifier_version + 1 WHERE trace_id = ${trace!.trace_id}`;
    try {
      await same('after a re-classification');
    } finally {
      await flip();
      await prisma().$executeRaw`UPDATE traces SET classifier_version = classifier_version - 1 WHERE trace_id = ${trace!.trace_id}`;
    }
    await cached.close();
    await built.close();
  }, 300_000);
});
