// Identical GETs in flight share one read (shared-reads.ts): on a real devnet index, requests asked
// together get byte for byte the answer a process that does not share gives, only identical ones share,
// and a request's own settings (address book, budget) keep it apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../testing/chain';
import { testApi, type TestApi } from '../../testing/api';
import { SharedReads, type SharedAnswer } from './shared-reads';

describe('SharedReads', () => {
  it('answers a key asked while its read is in flight from that read, and reads again once it settled', async () => {
    const shared = new SharedReads();
    let reads = 0;
    let finish!: (a: SharedAnswer) => void;
    const read = () => {
      reads++;
      return new Promise<SharedAnswer>((resolve) => (finish = resolve));
    };
    const first = shared.run('k', read);
    const second = shared.run('k', read);
    const other = shared.run('other', () => Promise.resolve({ json: Buffer.from('{}'), verified: false }));
    expect([first.joined, second.joined, other.joined]).toEqual([false, true, false]);
    finish({ json: Buffer.from('{"a":1}'), verified: true });
    expect(await second.answer).toEqual({ json: Buffer.from('{"a":1}'), verified: true });
    await other.answer;
    expect(shared.size).toBe(0);
    expect(shared.run('k', () => Promise.resolve({ json: Buffer.from('[]'), verified: false })).joined).toBe(false);
    expect(reads).toBe(1);
  });

  it('hands a failed read to every request that joined it, and forgets it', async () => {
    const shared = new SharedReads();
    let fail!: (e: Error) => void;
    const first = shared.run('k', () => new Promise<SharedAnswer>((_, reject) => (fail = reject)));
    const joined = shared.run('k', () => Promise.reject(new Error('not run')));
    fail(new Error('boom'));
    await expect(first.answer).rejects.toThrow('boom');
    await expect(joined.answer).rejects.toThrow('boom');
    expect(shared.size).toBe(0);
  });
});

let chain: TestChain;
let sharing: TestApi;
let alone: TestApi;
let shared: SharedReads;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'shared-reads', rounds: 3, tps: 10, index: true });
  shared = new SharedReads();
  sharing = testApi({ db: chain.db!.db, sharedReads: shared });
  alone = testApi({ db: chain.db!.db, sharedReads: null });
}, 300_000);
afterAll(async () => {
  await sharing?.close();
  await alone?.close();
  await chain?.close();
});

type Ask = { route: string; query: Record<string, string | number | boolean>; headers?: Record<string, string> };

async function busiest(): Promise<string> {
  const [row] = await chain.db!.db.prisma.$queryRaw<{ account: string }[]>`SELECT account FROM transactions GROUP BY account ORDER BY count(*) DESC, account LIMIT 1`;
  return row!.account;
}

/** Every ask `times` times at once on the sharing API. */
async function together(asks: Ask[], times: number) {
  const calls = asks.flatMap((a) => Array.from({ length: times }, () => sharing.fetchV3(a.route, a.query, { headers: a.headers })));
  return Promise.all((await Promise.all(calls)).map(async (r) => ({ status: r.status, text: await r.text() })));
}

describe('shared reads over a real index', () => {
  it('answer requests asked together with the bytes each would get alone, reading once per distinct request', async () => {
    const account = await busiest();
    const asks: Ask[] = [
      { route: 'transactions', query: { limit: 100 } },
      { route: 'transactions', query: { account, limit: 20 } },
      { route: 'traces', query: { account, limit: 10 } },
      { route: 'events', query: { account, limit: 10 } },
      { route: 'transactions', query: { account, limit: 20 }, headers: { 'x-no-address-book': 'true' } },
      { route: 'transactionsByMessage', query: { msg_hash: 'A'.repeat(43) + '=' } }, // no such message: 404 for all
    ];
    const times = 8;
    const before = shared.joined;
    const got = await together(asks, times);
    for (const [i, a] of asks.entries()) {
      const want = await alone.fetchV3(a.route, a.query, { headers: a.headers });
      const wantText = await want.text();
      for (const g of got.slice(i * times, (i + 1) * times)) {
        expect(g.status, `${a.route} ${JSON.stringify(a.query)}`).toBe(want.status);
        expect(g.text, `${a.route} ${JSON.stringify(a.query)} ${JSON.stringify(a.headers ?? {})}`).toBe(wantText);
      }
    }
    // Each distinct request read once, its other asks joined it. The address-book setting kept its asks
    // apart from the same query without it: its answers (checked above) name no addresses.
    expect(shared.joined - before).toBe(asks.length * (times - 1));
    expect(JSON.parse(got[4 * times]!.text).address_book).toEqual({});
    expect(Object.keys(JSON.parse(got[1 * times]!.text).address_book).length).toBeGreaterThan(0);
    expect(shared.size).toBe(0);
  });

  it('share across parameters the route does not read, and not across its own parameters or budgets', async () => {
    const before = shared.joined;
    const [plain, junk, other] = await Promise.all([
      sharing.fetchV3('transactions', { limit: 30 }),
      sharing.fetchV3('transactions', { limit: 30, cb: 7 }),
      sharing.fetchV3('transactions', { limit: 31 }),
    ]);
    expect(shared.joined - before).toBe(1);
    expect(await junk.text()).toBe(await plain.text());
    expect(await other.text()).toBe(await (await alone.fetchV3('transactions', { limit: 31 })).text());

    // A 1 ms budget does not hand its 504 to a request with the default budget asked at the same time.
    const b = shared.joined;
    const [, loose] = await Promise.all([sharing.fetchV3('transactions', { limit: 100, x_timeout: 1 }), sharing.fetchV3('transactions', { limit: 100 })]);
    expect(shared.joined - b).toBe(0);
    expect(loose.status).toBe(200);
  });
});
