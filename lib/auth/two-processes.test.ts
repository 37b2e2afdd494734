// Two Atlas API processes sharing one Redis hold one key's budget between them under concurrent load.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { startApiProcess, type ApiProcess } from '../testing/api-process';
import { startPrivatePostgres, type PrivatePostgres } from '../testing/private-postgres';
import { startTestRedis, type TestRedis } from '../testing/redis';
import { createKey } from './keys';
import { WINDOW_MS } from './limiter';

const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const RPS = 10;

let pgServer: PrivatePostgres;
let redis: TestRedis;
let db: Database;
let processes: ApiProcess[] = [];
let key: string;

beforeAll(async () => {
  // Both processes must read one database: PGlite is one process's, so a private PostgreSQL server.
  [pgServer, redis] = await Promise.all([startPrivatePostgres(), startTestRedis()]);
  const url = await pgServer.createDatabase('atlas');
  db = await openDatabase({ engine: 'postgresql', url });
  await migrate(db);
  key = (await createKey(db.prisma, { name: 'shared', rps: RPS })).key;
  processes = await Promise.all([1, 2].map(() => startApiProcess({ DATABASE_URL: url, REDIS_URL: redis.url, LOG_LEVEL: 'warn' })));
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.close()));
  await db?.close();
  await redis?.close();
  await pgServer?.destroy();
});

it('one key: 200s across both processes stay within its rate, window by window', async () => {
  // Warm both processes (key lookup cached) before measuring.
  for (const p of processes) await fetch(`${p.url}/api/v2/packAddress?address=${RAW}&api_key=${key}`);
  await new Promise((r) => setTimeout(r, WINDOW_MS - (Date.now() % WINDOW_MS) + 5));
  const started = Date.now();
  let ok = 0;
  let limited = 0;
  // 20 clients, 10 on each process, each sending back to back for three windows.
  await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const base = processes[i % 2]!.url;
      while (Date.now() - started < 3 * WINDOW_MS - 50) {
        const r = await fetch(`${base}/api/v2/packAddress?address=${RAW}`, { headers: { 'X-API-Key': key } });
        await r.arrayBuffer();
        if (r.status === 200) ok++;
        else if (r.status === 429) limited++;
        else throw new Error(`unexpected ${r.status}`);
      }
    }),
  );
  const windows = Math.floor(Date.now() / WINDOW_MS) - Math.floor(started / WINDOW_MS) + 1;
  expect(limited).toBeGreaterThan(0);
  // Separate budgets would allow twice as many.
  expect(ok).toBeLessThanOrEqual(RPS * windows);
  expect(ok).toBeGreaterThanOrEqual(RPS * (windows - 1));
});
