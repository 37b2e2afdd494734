// The Streaming API under 1,000 subscribers (issue 30's targets: delivery from commit to client p50 ≤ 50 ms,
// p99 ≤ 250 ms; RSS per idle connection ≤ 50 KB). The server (bench/stream-server.ts: an indexed devnet
// publishing to the streams, behind the HTTP edge) runs in a process of its own, so its RSS is its own;
// this process holds the 1,000 WebSocket clients (the ws package), each subscribed to the sending wallet's
// transactions, so every finalized trace goes to all of them. Latency: from the moment the indexer's
// database transaction committed to the moment a client's socket delivered the notification (one clock:
// the same machine).
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';
import type { BenchResult } from './support';

const CLIENTS = 1000;
const ROUNDS = 10;
const PER_ROUND = 5;

interface Server {
  url: string;
  account: string;
  send(line: string): void;
  /** The next line starting with `prefix` (others are passed to `onLine`). */
  next(prefix: string): Promise<string>;
  committed: Map<string, { at: number; published: number }>;
  close(): Promise<void>;
}

async function startServer(lean = false): Promise<Server> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(import.meta.dirname, 'stream-server.ts'), ...(lean ? ['--lean'] : [])], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const committed = new Map<string, { at: number; published: number }>();
  const waiting: { prefix: string; resolve: (l: string) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const m = /^committed (\S+) (\d+) (\d+)$/.exec(line);
    if (m) committed.set(m[1]!, { at: Number(m[2]), published: Number(m[3]) });
    const i = waiting.findIndex((w) => line.startsWith(w.prefix));
    if (i !== -1) waiting.splice(i, 1)[0]!.resolve(line);
  });
  const next = (prefix: string) => new Promise<string>((resolve) => waiting.push({ prefix, resolve }));
  const [, url, account] = (await next('listening ')).split(' ');
  return {
    url: url!,
    account: account!,
    send: (line) => child.stdin!.write(`${line}\n`),
    next,
    committed,
    close: async () => {
      child.stdin!.write('quit\n');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function rss(server: Server): Promise<number> {
  server.send('rss');
  return Number((await server.next('rss ')).split(' ')[1]);
}

/** An idle SSE subscriber: a plain HTTP request whose stream is left open. */
function sseClient(url: string, account: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/streaming/v2/sse`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } });
    req.on('response', (res) => (res.statusCode === 200 ? res.once('data', () => resolve(req)) : reject(new Error(`SSE answered ${res.statusCode}`))));
    req.on('error', reject);
    req.end(JSON.stringify({ types: ['transactions'], addresses: [account] }));
  });
}

/**
 * What idle streams cost the process that holds them (the lean server: no chain, no embedded database
 * moving its RSS by tens of megabytes): its RSS settled before and after opening CLIENTS of them, per
 * stream — each transport in a fresh process, so one's garbage is not the other's baseline.
 */
async function idleCost(account: string, open: (url: string) => Promise<{ close(): void }>): Promise<{ perStream: number; note: string }> {
  const lean = await startServer(true);
  try {
    const before = await rss(lean);
    const streams: { close(): void }[] = [];
    for (let i = 0; i < CLIENTS; i += 50) streams.push(...(await Promise.all(Array.from({ length: 50 }, () => open(lean.url)))));
    const after = await rss(lean);
    for (const x of streams) x.close();
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
    return { perStream: (after - before) / CLIENTS, note: `stream-holding process RSS ${mb(before)} → ${mb(after)} with ${CLIENTS} of them` };
  } finally {
    await lean.close();
  }
}

/** A subscribed client that keeps each notification's arrival time (its bytes are read later). */
async function client(url: string, account: string, arrivals: { at: number; data: Buffer }[]): Promise<WebSocket> {
  // The clients check no UTF-8: this process plays a thousand clients, and its own work counts in the latency.
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/streaming/v2/ws`, { perMessageDeflate: false, skipUTF8Validation: true });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify({ id: 's', operation: 'subscribe', types: ['transactions'], addresses: [account] })));
    ws.once('message', () => resolve());
    ws.once('error', reject);
  });
  ws.on('message', (data: Buffer) => arrivals.push({ at: Date.now(), data }));
  return ws;
}

export async function benchStream(): Promise<BenchResult[]> {
  const server = await startServer();
  try {
    const ws = await idleCost(server.account, async (url) => {
      const socket = await client(url, server.account, []);
      return { close: () => socket.terminate() };
    });
    const sse = await idleCost(server.account, async (url) => {
      const req = await sseClient(url, server.account);
      return { close: () => req.destroy() };
    });
    const arrivals: { at: number; data: Buffer }[] = [];
    const clients: WebSocket[] = [];
    // Connected in batches, as clients arrive in life.
    for (let i = 0; i < CLIENTS; i += 50) clients.push(...(await Promise.all(Array.from({ length: 50 }, () => client(server.url, server.account, arrivals)))));

    for (let r = 0; r < ROUNDS; r++) {
      server.send(`round ${PER_ROUND}`);
      await server.next('done');
    }
    // Every client gets every finalized trace.
    const expected = CLIENTS * ROUNDS * PER_ROUND;
    for (let waited = 0; waited < 30_000; waited += 100) {
      if (arrivals.length >= expected) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const total: number[] = [];
    const fanOut: number[] = [];
    for (const { at, data } of arrivals) {
      const n = JSON.parse(data.toString()) as { finality?: string; trace_external_hash_norm?: string };
      const c = n.finality === 'finalized' ? server.committed.get(n.trace_external_hash_norm ?? '') : undefined;
      if (!c) continue;
      total.push(at - c.at);
      fanOut.push(at - c.published);
    }
    const build = [...server.committed.values()].map((c) => c.published - c.at);
    const q = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))]!;
    for (const ws of clients) ws.terminate();
    const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
    const note = `${CLIENTS} WebSocket subscribers on one process (${engine}), ${ROUNDS * PER_ROUND} finalized traces each (${total.length} of ${expected} deliveries)`;
    return [
      { name: 'stream delivery commit → client p50', value: q(total, 0.5), unit: 'ms', note: `${note}; target ≤ 50 ms` },
      { name: 'stream delivery commit → client p99', value: q(total, 0.99), unit: 'ms', note: 'target ≤ 250 ms' },
      { name: 'stream commit → published p50', value: q(build, 0.5), unit: 'ms', note: `p99 ${q(build, 0.99)} ms: rendering the events (v3 renderers, side maps) after the commit` },
      { name: 'stream published → client p50', value: q(fanOut, 0.5), unit: 'ms', note: `p99 ${q(fanOut, 0.99)} ms: matching, serializing and writing to ${CLIENTS} sockets, and their delivery` },
      { name: 'stream RSS per idle WebSocket', value: +(ws.perStream / 1024).toFixed(1), unit: 'KB', note: `${ws.note}; target ≤ 50 KB` },
      { name: 'stream RSS per idle SSE stream', value: +(sse.perStream / 1024).toFixed(1), unit: 'KB', note: `${sse.note}; target ≤ 50 KB` },
    ];
  } finally {
    await server.close();
  }
}
