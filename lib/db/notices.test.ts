// Change notices as a listener hears them (notices.ts): on a private PostgreSQL server (started here
// whatever the suite's engine, so the test runs unchanged in both CI suites) and on PGlite. A notice
// reaches the listener once its transaction commits and never when it rolls back; a listener whose
// server restarts is told it may have missed notices, then listens again by itself.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePostgres, type PrivatePostgres } from '../testing/private-postgres';
import { openDatabase, type Database } from './database';
import { listenPostgres, type NoticeListener } from './notices';

/** A listener that records what it is told, in order. */
function recorder(): NoticeListener & { log: string[] } {
  const log: string[] = [];
  return { log, notice: (p) => log.push(`notice ${p}`), heard: () => log.push('heard'), deaf: () => log.push('deaf') };
}

async function notify(db: Database, payload: string, commit: boolean): Promise<void> {
  await db
    .transaction(async (s) => {
      await s.query(`SELECT pg_notify('atlas_test', $1)`, [payload]);
      if (!commit) throw new Error('rolled back');
    })
    .catch((err: Error) => {
      if (commit) throw err;
    });
}

describe('on PostgreSQL', () => {
  let server: PrivatePostgres;
  let db: Database;

  beforeAll(async () => {
    server = await startPrivatePostgres();
    db = await openDatabase({ engine: 'postgresql', url: await server.createDatabase('atlas') });
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await server?.destroy();
  });

  it('hears committed notices, not rolled-back ones, and listens again after a restart', async () => {
    const r = recorder();
    const listening = await db.listen('atlas_test', r);
    await expect.poll(() => r.log).toEqual(['heard']);
    await notify(db, 'rolled back', false);
    await notify(db, 'one', true);
    await expect.poll(() => r.log).toEqual(['heard', 'notice one']);

    await server.stop('fast');
    await expect.poll(() => r.log.at(-1)).toBe('deaf');
    await server.start();
    await expect.poll(() => r.log.at(-1), { timeout: 15_000 }).toBe('heard');
    // The pool's connections died with the server: a fresh client sends the next notice.
    const c = new pg.Client({ connectionString: server.url('atlas') });
    await c.connect();
    await c.query(`NOTIFY atlas_test, 'two'`);
    await c.end();
    await expect.poll(() => r.log.at(-1)).toBe('notice two');
    expect(r.log.filter((e) => e.startsWith('notice'))).toEqual(['notice one', 'notice two']);

    await listening.close();
    expect(r.log.at(-1)).toBe('deaf');
  }, 60_000);

  /** A client of its own that sends probes (the pool's connections die with a restart in the first test). */
  async function withSender(fn: (sender: pg.Client) => Promise<void>): Promise<void> {
    const sender = new pg.Client({ connectionString: server.url('atlas') });
    await sender.connect();
    try {
      await fn(sender);
    } finally {
      await sender.end();
    }
  }

  it('stays listening while its probes come back, and passes none of them on', () =>
    withSender(async (sender) => {
      const r = recorder();
      let probes = 0;
      const send = (ch: string, payload: string) => (probes++, sender.query('SELECT pg_notify($1, $2)', [ch, payload]));
      const listening = listenPostgres(server.url('atlas'), 'atlas_test', r, { send, everyMs: 20, timeoutMs: 2_000 });
      await expect.poll(() => probes).toBeGreaterThanOrEqual(10);
      await sender.query(`NOTIFY atlas_test, 'real'`);
      await expect.poll(() => r.log).toEqual(['heard', 'notice real']);
      await listening.close();
    }), 60_000);

  it('never counts as hearing while its probes do not come back (a pooler that drops notices), and keeps trying', () =>
    withSender(async (sender) => {
      const r = recorder();
      // As through a pooler in transaction mode: the probe is sent, but never reaches the listening session.
      const send = (_ch: string, payload: string) => sender.query('SELECT pg_notify($1, $2)', ['nowhere', payload]);
      const listening = listenPostgres(server.url('atlas'), 'atlas_test', r, { send, everyMs: 20, timeoutMs: 200 });
      // Never counted as hearing: told deaf at each lost probe, and it keeps trying (a new connection a second).
      await expect.poll(() => r.log.filter((e) => e === 'deaf').length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
      expect(r.log.filter((e) => e !== 'deaf')).toEqual([]);
      await listening.close();
    }), 60_000);
});

describe('on PGlite', () => {
  it('hears committed notices, not rolled-back ones, until closed', async () => {
    const db = await openDatabase({ engine: 'pglite', dir: null });
    try {
      const r = recorder();
      await db.listen('atlas_test', r);
      await notify(db, 'rolled back', false);
      await notify(db, 'one', true);
      expect(r.log).toEqual(['heard', 'notice one']);
      await db.close();
      expect(r.log.at(-1)).toBe('deaf');
    } finally {
      await db.close().catch(() => undefined);
    }
  }, 60_000);

  it('refuses a channel name it would have to quote', async () => {
    const db = await openDatabase({ engine: 'pglite', dir: null });
    try {
      await expect(db.listen('atlas; DROP TABLE x', recorder())).rejects.toThrow('not a channel name');
    } finally {
      await db.close();
    }
  }, 60_000);
});
