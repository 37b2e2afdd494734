// `npm start` on PostgreSQL with API_WORKERS=2, as a user runs it (scripts/start.ts, its production build,
// the seeded devnet, real HTTP): two workers answer on one port, the streams of each get what the one
// indexer publishes, a killed worker is replaced, and SIGTERM stops the whole tree.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startPrivatePostgres, type PrivatePostgres } from '../testing/private-postgres';
import { openSse, type SseClient } from '../testing/stream-clients';
import type { ClusterView } from './messages';

interface Health {
  status: string;
  indexer: string;
  cluster?: ClusterView;
}

let pg: PrivatePostgres;
let atlas: ChildProcess;
let base: string;
let output = '';
let dataDir: string;

/** One request on a connection of its own (so the cluster may hand it to either worker). */
function get(target: string, post?: unknown): Promise<{ status: number; worker: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = post === undefined ? {} : { 'content-type': 'application/json' };
    http
      .request(new URL(target, base), { method: post === undefined ? 'GET' : 'POST', headers, agent: false, timeout: 10_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, worker: res.headers['x-atlas-worker'] as string | undefined, body }));
      })
      .on('timeout', function (this: http.ClientRequest) {
        this.destroy(new Error(`GET ${target}: no answer in 10 s`));
      })
      .on('error', reject)
      .end(post === undefined ? undefined : JSON.stringify(post));
  });
}

const health = async () => JSON.parse((await get('/api/health')).body) as Health;

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; server output:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  pg = await startPrivatePostgres();
  const url = await pg.createDatabase('atlas');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-cluster-'));
  // Only PATH and HOME from outside: no VITEST or NODE_ENV (the server would think it is a test) and no
  // DATABASE_URL or REDIS_URL of the test run.
  atlas = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url, API_WORKERS: '2', PORT: String(port), ATLAS_DATA_DIR: dataDir, DEVNET_SEED: 'atlas-cluster', DEVNET_BLOCK_MS: '1000', DEVNET_ADNL_PORT: '0', LOG_LEVEL: 'warn' } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  atlas.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  atlas.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  // The first start builds the app when the sources changed since the last build: minutes on two cores.
  await until('the ready line', 900_000, async () => (output.includes('atlas: ready at') ? true : atlas.exitCode === null ? undefined : Promise.reject(new Error('exited'))));
}, 960_000);

afterAll(async () => {
  if (atlas && atlas.exitCode === null) {
    atlas.kill('SIGKILL');
    await once(atlas, 'exit');
  }
  await pg?.destroy();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('says it runs two API workers with the indexer and devnet once', () => {
  expect(output).toMatch(/atlas: ready at .*PostgreSQL, 2 API workers; the devnet and the indexer run once, in process \d+/);
});

it('answers from two workers on one port, and each lists the whole cluster in /api/health', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 40 && seen.size < 2; i++) {
    const r = await get('/api/v3/masterchainInfo');
    expect(r.status).toBe(200);
    seen.add(r.worker!);
  }
  expect(seen.size).toBe(2);
  const h = await until('both workers up and the indexer live in health', 60_000, async () => {
    const x = await health();
    return x.cluster?.workers.filter((w) => w.state === 'up').length === 2 && x.indexer.startsWith('ok: live') ? x : undefined;
  });
  expect(h.status).toBe('ok');
  expect(h.cluster!.api_workers).toBe(2);
  expect(h.cluster!.workers.map((w) => String(w.id)).sort()).toEqual([...seen].sort());
  expect(new Set(h.cluster!.workers.map((w) => w.pid)).size).toBe(2);
  expect(h.cluster!.primary.indexer?.state).toBe('live');
});

it('indexes once: the chain grows in the index with no duplicate-key failures', async () => {
  const seqno = async () => Number(/seqno (\d+)/.exec((await health()).indexer)?.[1] ?? 0);
  const before = await seqno();
  await until('five more indexed blocks', 60_000, async () => ((await seqno()) >= before + 5 ? true : undefined));
  const txs = JSON.parse((await get('/api/v3/transactions?limit=5')).body) as { transactions: unknown[] };
  expect(txs.transactions.length).toBeGreaterThan(0);
  expect(output).not.toMatch(/duplicate key|Unique constraint|another indexer/i);
});

it('streams what the one indexer commits on every worker', async () => {
  const streams: SseClient[] = [];
  const byWorker = new Map<string, SseClient>();
  try {
    for (let i = 0; i < 20 && byWorker.size < 2; i++) {
      const s = await openSse(base, { subscription: { types: ['blocks'] }, headers: { connection: 'close' } });
      streams.push(s);
      expect(s.status).toBe(200);
      byWorker.set(String(s.headers['x-atlas-worker']), s);
    }
    expect(byWorker.size).toBe(2);
    for (const s of byWorker.values()) await s.waitFor(() => s.notifications().some((n) => n.type === 'blocks'), 'a blocks notification', 30_000);
  } finally {
    for (const s of streams) s.close();
  }
});

it('finds a message sent through one worker through every worker (the pending store is the primary\'s)', async () => {
  // A new wallet's first message with nothing to pay for it: the chain will refuse it, and Atlas keeps the refusal.
  const keys = keyPairFromSeed(randomBytes(32));
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  const body = wallet.createTransfer({ seqno: 0, secretKey: keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to: wallet.address, value: toNano('1'), bounce: false })] });
  const msg = beginCell().store(storeMessage(external({ to: wallet.address, body, init: wallet.init }))).endCell();
  const hash = msg.hash().toString('base64');
  const sentThrough = (await get('/api/v2/sendBoc', { boc: msg.toBoc().toString('base64') })).worker;
  const answeredBy = new Set<string>();
  await until('the refusal found through both workers', 60_000, async () => {
    const r = await get(`/api/v3/pendingTraces?ext_msg_hash=${encodeURIComponent(hash)}`);
    const found = (JSON.parse(r.body) as { rejected?: { external_hash: string }[] }).rejected?.some((x) => x.external_hash === hash);
    if (found) answeredBy.add(r.worker!);
    return answeredBy.size === 2 ? true : undefined;
  });
  expect(answeredBy).toContain(sentThrough);
});

it('replaces a killed worker', async () => {
  const h = await health();
  const victim = h.cluster!.workers[0]!;
  process.kill(victim.pid!, 'SIGKILL');
  // A new worker starts Next and its services: seconds, more on two busy cores.
  const after = await until('a new worker up in place of the killed one', 240_000, async () => {
    const x = await health();
    const up = x.cluster?.workers.filter((w) => w.state === 'up') ?? [];
    return up.length === 2 && !up.some((w) => w.pid === victim.pid) ? x : undefined;
  });
  expect(after.cluster!.restarts).toBe(1);
  expect(after.cluster!.workers.map((w) => w.id)).not.toContain(victim.id);
  expect(output).toMatch(/API worker exited; starting a new one/);
}, 300_000);

it('stops the primary and every worker on SIGTERM, within the shutdown budget', async () => {
  const pids = [(await health()).cluster!.primary.pid, ...(await health()).cluster!.workers.map((w) => w.pid!)];
  const t0 = Date.now();
  atlas.kill('SIGTERM');
  const [code] = (await once(atlas, 'exit')) as [number | null];
  expect(code).toBe(0);
  expect(Date.now() - t0).toBeLessThan(20_000);
  await until('every worker gone', 5_000, async () => (pids.every((pid) => !alive(pid)) ? true : undefined));
}, 30_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
