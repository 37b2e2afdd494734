// Issue 25's heavy-read attack (`npm run bench -- --only heavy-reads [--seconds 30] [--rounds 60]`): a
// server process (bench/heavy-reads-server.ts: an indexed devnet behind the HTTP edge) with two edges on the
// same data, one with issue 25's guards (per-client in-flight cap, answer budget) and one without. Against
// each in turn, for --seconds: 8 anonymous connections from one address send the heavy lists back to back
// (/actions?limit=1000&include_transactions&include_accounts, /events?limit=1000, /traces?limit=1000; a 422
// naming the limit that fits is obeyed, as a client would: the attacker keeps the most it may ask), while a
// keyed client reads a light list every 200 ms and /api/health is sampled every 500 ms. Reported: the keyed
// client's p50/p99/max and its 503 and 429 answers, health's slowest answer and failures, what the attacker
// got. Acceptance (issue 25): keyed p99 ≤ 1 s, 0 × 503 for it, health always answered within 1 s.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { quantile, type BenchResult } from './support';

const ATTACKERS = 8;
const ATTACKER_IP = '203.0.113.7';
const KEYED_IP = '198.51.100.9';
const KEYED_EVERY_MS = 200;
const HEALTH_EVERY_MS = 500;
const CLIENT_TIMEOUT_MS = 15_000;
const HEAVY = ['actions?limit=1000&include_transactions=true&include_accounts=true', 'events?limit=1000', 'traces?limit=1000'];
const LIGHT = ['transactions?limit=10', 'blocks?limit=10', 'actions?limit=10'];

interface Answer {
  status: number;
  ms: number;
  bytes: number;
  text?: string;
}

async function call(url: string, headers: Record<string, string>, keepText = false): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, ms: performance.now() - t0, bytes: body.length, text: keepText || res.status === 422 ? body.toString() : undefined };
  } catch {
    return { status: 0, ms: performance.now() - t0, bytes: 0 };
  }
}

const count = (xs: Answer[], status: number) => xs.filter((a) => a.status === status).length;
const statuses = (xs: Answer[]) => Object.entries(xs.reduce<Record<number, number>>((m, a) => ((m[a.status] = (m[a.status] ?? 0) + 1), m), {})).map(([s, n]) => `${n}×${s === '0' ? 'no answer' : s}`).join(', ');

/** One attack run against `base`: the attackers, the keyed client and the health sampler together. */
async function attack(base: string, key: string, seconds: number) {
  const until = Date.now() + seconds * 1000;
  const heavy = [...HEAVY];
  const attacker: Answer[] = [];
  const keyed: Answer[] = [];
  const health: Answer[] = [];
  const attackerLoop = async (n: number) => {
    for (let i = n; Date.now() < until; i++) {
      const slot = i % heavy.length;
      const a = await call(`${base}/api/v3/${heavy[slot]}`, { 'x-forwarded-for': ATTACKER_IP });
      attacker.push(a);
      // A 422 says which limit fits: ask that from now on, as a client that reads its errors would.
      const fit = a.status === 422 ? /ask limit=(\d+)/.exec(a.text ?? '')?.[1] : undefined;
      if (fit) heavy[slot] = heavy[slot]!.replace(/limit=\d+/, `limit=${fit}`);
      if (a.status === 429) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const keyedLoop = async () => {
    for (let i = 0; Date.now() < until; i++) {
      const t = Date.now();
      keyed.push(await call(`${base}/api/v3/${LIGHT[i % LIGHT.length]}`, { 'x-forwarded-for': KEYED_IP, 'x-api-key': key }));
      await new Promise((r) => setTimeout(r, Math.max(0, KEYED_EVERY_MS - (Date.now() - t))));
    }
  };
  const healthLoop = async () => {
    while (Date.now() < until) {
      const t = Date.now();
      health.push(await call(`${base}/api/health`, {}));
      await new Promise((r) => setTimeout(r, Math.max(0, HEALTH_EVERY_MS - (Date.now() - t))));
    }
  };
  await Promise.all([...Array.from({ length: ATTACKERS }, (_, n) => attackerLoop(n)), keyedLoop(), healthLoop()]);
  return { attacker, keyed, health, heavy };
}

/**
 * Waits until the server is idle again (health answered within 300 ms three times running, at most 90 s):
 * requests of the previous run whose clients gave up may still be working, and would be measured as the
 * next run's.
 */
async function settle(base: string): Promise<void> {
  let quick = 0;
  for (const end = Date.now() + 90_000; quick < 3 && Date.now() < end; ) {
    const a = await call(`${base}/api/health`, {});
    quick = a.status === 200 && a.ms < 300 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 500));
  }
}

function rows(label: string, seconds: number, r: Awaited<ReturnType<typeof attack>>): BenchResult[] {
  const okKeyed = r.keyed.map((a) => a.ms);
  const mb = r.attacker.reduce((n, a) => n + a.bytes, 0) / 1e6;
  const healthFailed = r.health.filter((a) => a.status !== 200).length;
  const name = `heavy-reads ${label}`;
  return [
    { name: `${name}: keyed client p50`, value: quantile(okKeyed, 0.5, 0), unit: 'ms', note: `${r.keyed.length} requests: ${statuses(r.keyed)}` },
    { name: `${name}: keyed client p99`, value: quantile(okKeyed, 0.99, 0), unit: 'ms', note: `max ${quantile(okKeyed, 1, 0)} ms; target ≤ 1000` },
    { name: `${name}: keyed client 503`, value: count(r.keyed, 503), unit: 'answers', note: `429: ${count(r.keyed, 429)}; no answer in ${CLIENT_TIMEOUT_MS / 1000} s: ${count(r.keyed, 0)}; target 0 × 503` },
    { name: `${name}: /api/health max`, value: quantile(r.health.map((a) => a.ms), 1, 0), unit: 'ms', note: `${r.health.length} samples, p50 ${quantile(r.health.map((a) => a.ms), 0.5, 0)} ms, ${healthFailed} not 200; target ≤ 1000` },
    {
      name: `${name}: attacker answers`,
      value: +(r.attacker.length / seconds).toFixed(2),
      unit: 'req/s',
      note: `${statuses(r.attacker)}; ${mb.toFixed(1)} MB served; 503: ${count(r.attacker, 503)}, 429: ${count(r.attacker, 429)}; finally asking ${r.heavy.map((h) => h.split('&')[0]).join(', ')}`,
    },
  ];
}

export async function benchHeavyReads(opts: { seconds: number; rounds: number }): Promise<BenchResult[]> {
  console.log(`  heavy-reads: building an indexed devnet of ${opts.rounds} rounds (a few minutes on a busy machine)…`);
  const server = spawn(process.execPath, ['--import', 'tsx', 'bench/heavy-reads-server.ts', '--rounds', String(opts.rounds)], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'error' } });
  const lines = createInterface({ input: server.stdout! })[Symbol.asyncIterator]();
  const next = async (prefix: string) => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error(`heavy-reads server exited before printing "${prefix}"`);
      if ((value as string).startsWith(prefix)) return (value as string).split(' ').slice(1);
    }
  };
  try {
    const [guarded, unguarded, key] = await next('listening');
    server.stdin!.write('stats\n');
    const [txs, traces, actions] = await next('stats');
    console.log(`  heavy-reads: ${txs} transactions, ${traces} traces, ${actions} actions indexed; ${opts.seconds} s per run`);
    const results: BenchResult[] = [];
    // The same attack on the same data, without the guards (the "before") and then with them.
    for (const [label, base] of [['without guards', unguarded!], ['with guards', guarded!]] as const) {
      await settle(base);
      console.log(`  heavy-reads: attacking the edge ${label}…`);
      results.push(...rows(label, opts.seconds, await attack(base, key!, opts.seconds)));
    }
    return results;
  } finally {
    server.stdin!.write('quit\n');
    setTimeout(() => server.kill('SIGKILL'), 20_000).unref();
  }
}
