// Answers made of kept parts (transaction-cache.ts, trace-cache.ts, serialize.ts's renderedOnce) are
// byte for byte the answers built from the rows, on a real devnet index: first asks, repeated asks, and
// after what can change around a finalized transaction — its trace's external hash, its trace, whether
// its account states are indexed, token metadata (kept side maps: side-cache.ts, once the change's
// notice is heard), a trace's re-classification. And a long page of
// transactions waits for its turn among heavy reads (heavy-reads.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../testing/chain';
import { testApi, type TestApi } from '../../testing/api';
import { recordNotices, type HeardNotices } from '../../testing/notices';
import { heavyRead, heavyReadsNow } from './heavy-reads';
import { SIDE_CHANGES, SideCache } from './side-cache';
import { TraceCache } from './trace-cache';
import { TransactionCache } from './transaction-cache';

let chain: TestChain;
let kept: TestApi;
let built: TestApi;
let txCache: TransactionCache;
let sideCache: SideCache;
let notices: HeardNotices;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'kept-answers', rounds: 4, tps: 20, index: true });
  txCache = new TransactionCache(64 * 1024 * 1024);
  sideCache = new SideCache(16 * 1024 * 1024);
  notices = await recordNotices(chain.db!.db, SIDE_CHANGES, sideCache);
  kept = testApi({ db: chain.db!.db, traceCache: new TraceCache(64 * 1024 * 1024), txCache, sideCache });
  built = testApi({ db: chain.db!.db, traceCache: null, txCache: null });
}, 300_000);
afterAll(async () => {
  await kept?.close();
  await built?.close();
  await chain?.close();
});

const prisma = () => chain.db!.db.prisma;

type Ask = [string, Record<string, string | number | boolean>];

/** Asks of every route that answers finalized transactions, on the busiest accounts and newest rows. */
async function asks(): Promise<{ transactions: Ask[]; traces: Ask[] }> {
  const accounts = await prisma().$queryRaw<{ account: string }[]>`SELECT account FROM transactions GROUP BY account ORDER BY count(*) DESC, account LIMIT 4`;
  const [tx] = await prisma().$queryRaw<{ hash: Uint8Array; mc: number }[]>`
    SELECT t.hash, t.mc_block_seqno AS mc FROM transactions t JOIN messages m ON m.tx_hash = t.hash AND m.direction = 'out' ORDER BY t.lt DESC LIMIT 1`;
  const [msg] = await prisma().$queryRaw<{ hash: Uint8Array }[]>`SELECT msg_hash AS hash FROM messages WHERE direction = 'in' ORDER BY created_lt DESC NULLS LAST LIMIT 1`;
  const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
  const transactions: Ask[] = [
    ['transactions', { limit: 100 }],
    ['transactions', { limit: 50, sort: 'asc' }],
    ['transactionsByMasterchainBlock', { seqno: tx!.mc }],
    ['transactionsByMessage', { msg_hash: b64(msg!.hash) }],
    ['adjacentTransactions', { hash: b64(tx!.hash) }],
    ...accounts.map(({ account }): Ask => ['transactions', { account, limit: 20 }]),
    ...accounts.map(({ account }): Ask => ['actions', { account, limit: 20, include_transactions: true, include_accounts: true }]),
  ];
  const traces: Ask[] = [
    ['traces', { limit: 30, include_actions: true }],
    ...accounts.flatMap(({ account }): Ask[] => [
      ['traces', { account, limit: 15 }],
      ['events', { account, limit: 15, sort: 'asc' }],
    ]),
  ];
  return { transactions, traces };
}

/** Where two answers first differ, with some context (the answers are too long to print whole). */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 80), i + 80)}… against …${b.slice(Math.max(0, i - 80), i + 80)}…`;
}

async function same(label: string, list: Ask[]) {
  for (const [route, q] of list) {
    const want = await built.callV3(route, q);
    expect(want.status, `${route} ${JSON.stringify(q)}`).toBe(200);
    expect(firstDifference((await kept.callV3(route, q)).text, want.text), `${label}: ${route} ${JSON.stringify(q)}`).toBeNull();
  }
}

describe('answers from kept parts', () => {
  it('are the answers built from the rows, asked first and again', async () => {
    const { transactions, traces } = await asks();
    await same('first ask', [...transactions, ...traces]);
    expect(txCache.stats.entries).toBeGreaterThan(100);
    await same('kept', [...transactions, ...traces]);
    expect(sideCache.stats.entries).toBeGreaterThan(10);
  }, 300_000);

  it('follow what changes around a kept transaction: trace external hash, trace, account states, metadata, classification', async () => {
    const { transactions, traces } = await asks();
    await same('before', [...transactions, ...traces]);
    const [t] = await prisma().$queryRaw<{ hash: Uint8Array; trace_id: Uint8Array; external: Uint8Array; after: Uint8Array }[]>`
      SELECT t.hash, t.trace_id, tr.external_hash AS external, t.account_state_hash_after AS after
      FROM transactions t JOIN traces tr ON tr.trace_id = t.trace_id WHERE tr.external_hash IS NOT NULL ORDER BY t.lt DESC LIMIT 1`;
    const moved = Buffer.concat([Buffer.from([0]), Buffer.from(t!.after).subarray(1)]);
    // Each change, then its undoing: kept traces are those that can no longer change (trace-cache.ts), so
    // only the transaction routes are asked while a trace's own rows are changed.
    const changes: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'external hash unknown',
        () => prisma().$executeRaw`UPDATE traces SET external_hash = NULL WHERE trace_id = ${t!.trace_id}`,
        () => prisma().$executeRaw`UPDATE traces SET external_hash = ${t!.external} WHERE trace_id = ${t!.trace_id}`,
      ],
      [
        'account state no longer indexed',
        () => prisma().$executeRaw`UPDATE account_states SET hash = ${moved} WHERE hash = ${t!.after}`,
        () => prisma().$executeRaw`UPDATE account_states SET hash = ${t!.after} WHERE hash = ${moved}`,
      ],
      [
        'no trace',
        () => prisma().$executeRaw`UPDATE transactions SET trace_id = NULL WHERE hash = ${t!.hash}`,
        () => prisma().$executeRaw`UPDATE transactions SET trace_id = ${t!.trace_id} WHERE hash = ${t!.hash}`,
      ],
    ];
    for (const [label, change, undo] of changes) {
      expect(await change(), label).toBe(1);
      await same(label, transactions);
      await undo();
    }
    await same('undone', [...transactions, ...traces]);
    await prisma().$executeRaw`UPDATE jetton_masters SET jetton_content = jsonb_build_object('name', 'Renamed <&>')`;
    await notices.settled();
    await same('token metadata', [...transactions, ...traces]);
    // A name for the busiest account: its address_book entry changes in every answer that names it.
    const [{ account }] = await prisma().$queryRaw<{ account: string }[]>`SELECT account FROM transactions GROUP BY account ORDER BY count(*) DESC, account LIMIT 1`;
    await prisma().$executeRaw`INSERT INTO dns_entries (nft_item_address, domain, nft_item_owner, dns_wallet, last_transaction_lt) VALUES (${`0:${'AB'.repeat(32)}`}, 'kept.ton', ${account}, ${account}, 1)`;
    await notices.settled();
    expect((await built.callV3('transactions', { account, limit: 20 })).text).toContain('"kept.ton"');
    await same('a name', [...transactions, ...traces]);
    // A re-classification stores other actions under a new classifier_version: a new key for kept traces.
    const [traced] = await prisma().$queryRaw<{ trace_id: Uint8Array }[]>`SELECT trace_id FROM actions LIMIT 1`;
    await prisma().$executeRaw`UPDATE actions SET success = NOT success WHERE trace_id = ${traced!.trace_id}`;
    await prisma().$executeRaw`UPDATE traces SET classifier_version = classifier_version + 1 WHERE trace_id = ${traced!.trace_id}`;
    await same('re-classified', [...transactions, ...traces]);
  }, 300_000);

  it('a long page of transactions takes its turn among heavy reads; a short one passes', async () => {
    const [{ n }] = await prisma().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM transactions`;
    expect(n).toBeGreaterThan(250);
    let release!: () => void;
    const holding = heavyRead(1000, () => {}, () => new Promise<void>((r) => (release = r)));
    let longDone = false;
    const long = kept.callV3('transactions', { limit: 250 }).then((a) => ((longDone = true), a));
    // The long page waits in the queue (no sleep: the queue itself says so) while a short page is answered.
    await expect.poll(() => heavyReadsNow().waiting, { timeout: 10_000, interval: 10 }).toBe(1);
    const short = await kept.callV3('transactions', { limit: 20 });
    expect(short.status).toBe(200);
    expect([longDone, heavyReadsNow().waiting]).toEqual([false, 1]);
    release();
    await holding;
    expect((await long).body.transactions).toHaveLength(250);
  }, 60_000);
});
