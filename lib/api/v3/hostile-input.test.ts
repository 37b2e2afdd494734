// v3 under careless and hostile input: values past the columns' ranges, addresses in workchains that
// cannot exist, internal failures that must not leak, and the per-request budget (X-Timeout).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { testApi } from '../../testing/api';
import { fixtureDatabase, type FixtureDatabase } from '../../testing/v3';

let db: FixtureDatabase;
beforeAll(async () => {
  db = await fixtureDatabase();
});
afterAll(() => db.drop());

const ZERO_ACCOUNT = `0:${'0'.repeat(64)}`;

describe('values past the range of what is stored', () => {
  it('time bounds beyond int32 seconds are an empty range or no bound, never an error', async () => {
    for (const start of ['2147483648', '4294967296', '9007199254740991']) {
      const r = await db.callV3<{ transactions: unknown[] }>('transactions', { start_utime: start });
      expect(r.status, start).toBe(200);
      expect(r.body.transactions).toEqual([]);
    }
    const all = await db.callV3<{ transactions: unknown[] }>('transactions', { limit: 1000 });
    const upTo = await db.callV3<{ transactions: unknown[] }>('transactions', { end_utime: '9007199254740991', limit: 1000 });
    expect(upTo.status).toBe(200);
    expect(upTo.body.transactions.length).toBe(all.body.transactions.length);
    const blocks = await db.callV3('blocks', { start_utime: '9007199254740991' });
    expect(blocks.status).toBe(200);
    const messages = await db.callV3('messages', { start_utime: '9007199254740991' });
    expect(messages.status).toBe(200);
  });

  it('a NUL byte in a text parameter is a 422 naming it, never a database error', async () => {
    for (const [route, query] of [
      ['events', { supported_action_types: ['x', '\0'] }],
      ['actions', { action_type: 'ton_transfer\0' }],
      ['dns/records', { domain: 'a\0.ton' }],
      ['search', { q: 'atlas\0' }],
    ] as const) {
      const r = await db.callV3(route, query as Record<string, string | string[]>);
      expect(r.status, `${route} ${JSON.stringify(query)}`).toBe(422);
      expect(r.text).toContain(Object.keys(query)[0]);
    }
  });

  it('a time that is not an unsigned number is a 422 naming the parameter', async () => {
    const r = await db.callV3('transactions', { start_utime: '1e999' });
    expect(r.status).toBe(422);
    expect(r.text).toContain('start_utime');
  });
});

describe('list parameters', () => {
  it('carry at most 1000 values, repeated or comma-separated, counted before any is parsed', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => `0:${i.toString(16).padStart(64, '0')}`);
    const repeated = await db.callV3('transactions', { account: many });
    expect(repeated.status).toBe(422);
    expect(repeated.body).toEqual({ error: 'failed to decode: too many values (1001 > 1000) for "account"' });
    const commas = await db.callV3('addressBook', { address: many.join(',') });
    expect(commas.status).toBe(200); // addressBook's address is a plain string list: one value
    const hashes = await db.callV3('transactions', { hash: Array(1001).fill('x').join(',') });
    expect(hashes.status).toBe(422);
    const thousand = await db.callV3('transactions', { account: many.slice(0, 1000) });
    expect(thousand.status).toBe(200);
  });
});

describe('POST bodies with impossible addresses', () => {
  it('a raw workchain outside int8 is an invalid address (422), not a server error', async () => {
    for (const wc of ['2147483648', '128', '-129', '99999999999999999999']) {
      const r = await db.postV3('runGetMethod', { address: `${wc}:${'0'.repeat(64)}`, method: 'seqno', stack: [] });
      expect(r.status, wc).toBe(422);
      expect((r.body as { error: string }).error).toMatch(/invalid address/);
      const fee = await db.postV3('estimateFee', { address: `${wc}:${'0'.repeat(64)}`, body: 'te6ccgEBAQEAAgAAAA==' });
      expect(fee.status, wc).toBe(422);
    }
  });

  it('an address in a workchain that does not exist is 422 on every live route, before the chain is asked', async () => {
    for (const wc of ['5', '127', '-2']) {
      const address = `${wc}:${'0'.repeat(64)}`;
      for (const route of ['addressInformation', 'account', 'walletInformation', 'wallet']) {
        const r = await db.callV3(route, { address });
        expect([route, wc, r.status, r.text]).toEqual([route, wc, 422, expect.stringContaining(`workchain ${wc} does not exist (only -1 and 0)`)]);
      }
      const run = await db.postV3('runGetMethod', { address, method: 'seqno', stack: [] });
      expect([wc, run.status, run.text]).toEqual([wc, 422, expect.stringContaining(`workchain ${wc} does not exist`)]);
    }
  });
});

describe('internal failures', () => {
  it('answer 500 with a reference only: no database text, stack or path reaches the client', async () => {
    const broken = await openDatabase({ engine: 'pglite', dir: null });
    await broken.close(); // every query now fails inside Prisma / PGlite
    const api = testApi({ db: broken });
    const r = await api.callV3('transactions', { account: ZERO_ACCOUNT });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: expect.stringMatching(/^internal server error \(ref [0-9a-f]{8}\)$/) });
  });
});

describe('X-Timeout, the request budget', () => {
  it('is capped at DB_STATEMENT_TIMEOUT_MS and must be an integer', async () => {
    const ok = await db.callV3('masterchainInfo', {}, { headers: { 'x-timeout': '999999' } });
    expect(ok.status).toBe(200);
    const bad = await db.callV3('masterchainInfo', { x_timeout: 'soon' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('x_timeout');
  });

  it('answers 504 when the budget runs out, and PostgreSQL cancels the query at the cap (PGlite cannot interrupt)', async () => {
    if (db.db.engine === 'pglite') {
      // One in-process engine: nothing can hold a lock while a request waits, so the budget is never
      // reached; requests with a budget answer normally.
      const r = await db.callV3('transactions', { limit: 5 }, { headers: { 'x-timeout': '2000' } });
      expect(r.status).toBe(200);
      return;
    }
    // Another session holds the transactions table; a request waiting for it runs out of its budget.
    const locker = new pg.Client({ connectionString: db.url! });
    await locker.connect();
    const cappedDb = await openDatabase({ engine: 'postgresql', url: db.url! }, { statementTimeoutMs: 1000 });
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
      const capped = testApi({ db: cappedDb, config: parseConfig({ DB_STATEMENT_TIMEOUT_MS: '1000' }) });
      const t0 = performance.now();
      const r = await capped.callV3('transactions', { limit: 5 }, { headers: { 'x-timeout': '300' } });
      expect(r.status).toBe(504);
      expect(r.body).toEqual({ error: 'the request took longer than its 300 ms budget (X-Timeout)' });
      expect(performance.now() - t0).toBeLessThan(1000);
      // The query itself is cancelled by the statement timeout, so the lock holder sees it give up.
      await expect
        .poll(async () => (await locker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rows[0].n, { timeout: 5000 })
        .toBe(0);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
      await cappedDb.close();
    }
  });
});
