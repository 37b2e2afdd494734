// Block and trace pages of a devnet whose basechain splits and merges. The suite's own server runs one
// shard; this spec starts a second `npm start` (the same build) on a free port with DEVNET_SHARDS=2,
// DEVNET_SHARD_SCHEDULE=cycle:6 and LITE_VERIFY=on, and reads its pages once its index holds a split
// and a merge: a shard block after a split with its parent and children, a merged block with its two
// halves, a masterchain block that committed several shard blocks, and a trace that crossed shards.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ mode: 'serial', timeout: 300_000 });

interface Block {
  workchain: number;
  shard: string;
  seqno: number;
  after_split: boolean;
  after_merge: boolean;
  before_split: boolean;
  prev_blocks: { workchain: number; shard: string; seqno: number }[];
}

let server: ChildProcess | undefined;
let dataDir = '';
let base = '';
let api: APIRequestContext;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

test.beforeAll(async () => {
  // A second Atlas starting next to the suite's own, on a busy machine: its database, devnet and index take a while.
  test.setTimeout(600_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-e2e-shards-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    // A clean environment: the test runner's own variables (its loaders among them) are not the server's.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      ATLAS_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEVNET_SEED: 'atlas-e2e-shards',
      DEVNET_BLOCK_MS: '700',
      DEVNET_ADNL_PORT: '0',
      DEVNET_SHARDS: '2',
      DEVNET_SHARD_SCHEDULE: 'cycle:6',
      DEVNET_TPS: '3',
      LITE_VERIFY: 'on',
    },
    stdio: ['ignore', fs.openSync(path.join(dataDir, 'server.log'), 'a'), fs.openSync(path.join(dataDir, 'server.log'), 'a')],
  });
  api = await playwrightRequest.newContext({ baseURL: base });
  await expect.poll(async () => (await api.get('/api/health').catch(() => undefined))?.ok() ?? false, { timeout: 400_000, intervals: [1000], message: 'the second server did not start' }).toBe(true);
  // Until the index holds a split and a merge (the schedule makes both within ~15 masterchain blocks).
  await expect
    .poll(async () => {
      const blocks = await shardBlocks();
      return blocks.some((b) => b.after_split) && blocks.some((b) => b.after_merge);
    }, { timeout: 240_000, intervals: [1000] })
    .toBe(true);
});

test.afterAll(async () => {
  await api?.dispose();
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function shardBlocks(): Promise<Block[]> {
  const res = await api.get('/api/v3/blocks', { params: { workchain: 0, limit: 200, sort: 'asc' } });
  return res.ok() ? ((await res.json()) as { blocks: Block[] }).blocks : [];
}

const label = (b: { workchain: number; shard: string; seqno: number }) => `${b.workchain}:${b.shard}:${b.seqno}`;

test('a shard block after a split shows its shard, the parent it split from, and the parent shows both halves @desktop-only', async ({ page }) => {
  const child = (await shardBlocks()).find((b) => b.after_split)!;
  await page.goto(`${base}/block/0/${child.shard}/${child.seqno}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Shard block ${label(child)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('after split');
  const card = page.locator('#shard');
  await expect(card).toContainText(`0:${child.shard}`);
  await expect(card).toContainText('Split from its parent');
  await expect(card).toContainText(/addresses starting with the bits [01]+/);
  const parent = child.prev_blocks[0]!;
  await card.getByRole('link', { name: label(parent) }).click();
  await expect(page).toHaveURL(`${base}/block/0/${parent.shard}/${parent.seqno}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('before split');
  // The parent names both halves, the block we came from among them.
  const halves = page.locator('#shard').getByRole('link', { name: new RegExp(`^0:[0-9A-F]{16}:${child.seqno}$`) });
  await expect(halves).toHaveCount(2);
  await expect(page.locator('#shard').getByRole('link', { name: label(child) })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Neighbour blocks' }).getByRole('link', { name: /^Next / })).toHaveCount(2);
});

test('a merged block names its two halves, and each half names it as what continues it @desktop-only', async ({ page }) => {
  const merged = (await shardBlocks()).find((b) => b.after_merge)!;
  await page.goto(`${base}/block/0/${merged.shard}/${merged.seqno}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('after merge');
  const card = page.locator('#shard');
  await expect(card).toContainText('Merged from its two halves');
  for (const half of merged.prev_blocks) await expect(card.getByRole('link', { name: label(half) })).toBeVisible();
  await card.getByRole('link', { name: label(merged.prev_blocks[1]!) }).click();
  await expect(page.locator('#shard')).toContainText('Merges into');
  await expect(page.locator('#shard').getByRole('link', { name: label(merged) })).toBeVisible();
});

test('a masterchain block lists every shard block it committed @desktop-only', async ({ page }) => {
  const blocks = await shardBlocks();
  const bySeqno = new Map<number, Block[]>();
  for (const b of blocks) bySeqno.set(b.seqno, [...(bySeqno.get(b.seqno) ?? []), b]);
  const [seqno, committed] = [...bySeqno].find(([, bs]) => bs.length >= 4) ?? [...bySeqno].find(([, bs]) => bs.length >= 2)!;
  await page.goto(`${base}/block/-1/8000000000000000/${seqno}`);
  const list = page.getByRole('list', { name: 'Shard blocks this masterchain block committed' });
  await expect(page.locator('#shards')).toContainText(`Shard blocks committed (${committed.length})`);
  for (const b of committed) await expect(list.getByRole('link', { name: label(b) })).toBeVisible();
  // Each of them, opened, names this masterchain block.
  await list.getByRole('link', { name: label(committed[committed.length - 1]!) }).click();
  await expect(page.locator('#shard').getByRole('link', { name: `#${seqno}` })).toBeVisible();
});

test('a trace that crossed shards says where each transaction ran @desktop-only', async ({ page }) => {
  interface Tx {
    trace_id: string | null;
    block_ref: { shard: string };
  }
  let traceId: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await api.get('/api/v3/transactions', { params: { workchain: 0, limit: 500, sort: 'desc' } });
        const txs = ((await res.json()) as { transactions: Tx[] }).transactions;
        const shards = new Map<string, Set<string>>();
        for (const t of txs) if (t.trace_id) shards.set(t.trace_id, (shards.get(t.trace_id) ?? new Set()).add(t.block_ref.shard));
        traceId = [...shards].find(([, s]) => s.size > 1)?.[0];
        if (!traceId) return false;
        const trace = await api.get('/api/v3/traces', { params: { trace_id: traceId } });
        return ((await trace.json()) as { traces: { trace_info: { trace_state: string } }[] }).traces[0]?.trace_info.trace_state === 'complete';
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(true);
  await page.goto(`${base}/trace/${traceId!.replace(/\+/g, '-').replace(/\//g, '_')}`);
  await expect(page.locator('#overview')).toContainText(/crossed between \d shards/);
  await expect(page.getByTestId('trace-node').filter({ hasText: 'from another shard' }).first()).toBeVisible();
  await expect(page.getByTestId('trace-node').first()).toContainText(/in 0:[0-9A-F]{16}:\d+ \(masterchain #\d+\)/);
});
