// The hostile-chain benchmark (issue 25's attacks on chain data): Atlas started as a user starts it (or the
// one at --url, whose --data-dir holds its devnet), hostile contracts deployed by a genesis wallet's signed
// transfer; then for --seconds 4 clients hammer get-methods that answer with 600-deep cells, 600-deep DAGs
// and 1000 nested tuples (the crash attempt), and for half as long send 511-deep and DAG externals, while
// an honest client runs a wallet's get-method every 100 ms and health is sampled every second. Reported:
// the honest client's latency (before and during each attack), what the attackers got, 5xx answers,
// emulator worker restarts, the indexer's lag, health's answers, and whether a signed transfer lands after.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Address, external, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { messageBoc, signedTransfer, type TestWallet } from '../lib/testing/devnet';
import { chainCell, dagCell, hostileContract, type HostileContract } from '../lib/testing/hostile';
import { startAtlas } from './atlas-server';
import { quantile, type BenchResult } from './support';

const ATTACKERS = 4;
const HONEST_EVERY_MS = 100;
const REQUEST_TIMEOUT_MS = 10_000;

interface Genesis {
  name: string;
  kind: string;
  address: string;
  secret_key_hex?: string;
}

interface Answer {
  status: number;
  ms: number;
  body?: Record<string, unknown>;
}

async function call(base: URL, path: string, client: string, body?: unknown): Promise<Answer> {
  const t = performance.now();
  try {
    const res = await fetch(new URL(path, base), {
      method: body === undefined ? 'GET' : 'POST',
      // Atlas runs with TRUST_PROXY=on here: each client is known by the address it names.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const json = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    return { status: res.status, ms: performance.now() - t, body: json };
  } catch {
    return { status: 0, ms: performance.now() - t };
  }
}

function wallet(accounts: Genesis[], name: string): TestWallet {
  const a = accounts.find((x) => x.name === name && x.secret_key_hex);
  if (!a) throw new Error(`genesis.json has no wallet ${name} with a key`);
  const secretKey = Buffer.from(a.secret_key_hex!, 'hex');
  const keys = { secretKey, publicKey: secretKey.subarray(32) };
  const contract = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  return { name, keys, address: Address.parse(a.address), seqno: 0, kind: 'v4', contract };
}

/**
 * A v4 wallet of the bench's own, funded from the genesis wallet `funder`: the devnet's background traffic
 * sends from every genesis wallet, and takes their seqnos under the bench (exit code 33), but never this
 * one's. Its first transfer deploys it.
 */
async function ownWallet(base: URL, funder: TestWallet): Promise<TestWallet> {
  const keys = keyPairFromSeed(randomBytes(32));
  const contract = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  const own: TestWallet = { name: 'the bench wallet', keys, address: contract.address, seqno: 0, kind: 'v4', contract };
  const balance = async () => BigInt(((await call(base, `/api/v2/getAddressBalance?address=${own.address.toString()}`, 'bench-setup')).body?.result as string | undefined) ?? 0);
  // The funder's seqno passing says little: the traffic may have taken it. The balance says it landed.
  for (let attempt = 0; attempt < 10; attempt++) {
    await sendAndLand(base, funder, [{ to: own.address, value: toNano('20'), bounce: false }], 10);
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 500))) if ((await balance()) > 0n) return own;
  }
  throw new Error(`${funder.name} could not fund the bench's wallet`);
}

async function seqnoOf(base: URL, w: TestWallet): Promise<number> {
  const r = await call(base, '/api/v2/runGetMethod', 'bench-setup', { address: w.address.toString(), method: 'seqno', stack: [] });
  const stack = (r.body?.result as { stack?: [string, string][] } | undefined)?.stack;
  if (!stack?.[0]) throw new Error(`seqno of ${w.name}: ${JSON.stringify(r.body)}`);
  return Number(BigInt(stack[0][1]));
}

/**
 * Signs `transfers` from `w` at its current seqno, sends them and waits until the seqno passes; the devnet's
 * background traffic sends from the same genesis wallets, so a seqno taken first by it is retried. Seconds
 * from the first send until it landed, or null after `attempts`.
 */
async function sendAndLand(base: URL, w: TestWallet, transfers: Parameters<typeof signedTransfer>[1], attempts = 5): Promise<number | null> {
  const t = performance.now();
  for (let attempt = 0; attempt < attempts; attempt++) {
    // A wallet not deployed yet (the bench's own, before its first message) has no seqno to read: it is 0,
    // and its first message carries its code and data.
    const seqno = await seqnoOf(base, w).catch((err: Error) => (w.seqno === 0 ? 0 : (console.log(`  hostile: ${err.message}`), null)));
    if (seqno === null) continue;
    w.seqno = seqno;
    const message = await signedTransfer(w, transfers);
    const boc = messageBoc(seqno === 0 ? external({ to: w.address, body: message.body, init: w.contract.init }) : message);
    const sent = await call(base, '/api/v2/sendBoc', 'bench-setup', { boc: boc.toString('base64') });
    if (sent.status !== 200) {
      console.log(`  hostile: a transfer from ${w.name} was refused (${JSON.stringify(sent.body)}); again`);
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    for (const until = performance.now() + 15_000; performance.now() < until; ) {
      if ((await seqnoOf(base, w).catch(() => -1)) >= w.seqno) return +((performance.now() - t) / 1000).toFixed(1);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return null;
}

interface Tally {
  statuses: Map<string, number>;
  /** The first error text of each kind and status. */
  errors: Map<string, string>;
  add(kind: string, status: number, body?: Record<string, unknown>): void;
  count(pred: (kind: string, status: number) => boolean): number;
  text(): string;
}

function tally(): Tally {
  const statuses = new Map<string, number>();
  const errors = new Map<string, string>();
  return {
    statuses,
    errors,
    add: (kind, status, body) => {
      const key = `${kind} ${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (status !== 200 && !errors.has(key)) errors.set(key, String(body?.error ?? '').slice(0, 200));
    },
    count: (pred) => [...statuses].filter(([k]) => pred(k.split(' ')[0]!, Number(k.split(' ')[1]))).reduce((n, [, v]) => n + v, 0),
    text: () => [...statuses].sort().map(([k, v]) => `${k}: ${v}`).join(', '),
  };
}

/** One attacker until `until`: get-methods with hostile results one after another, or hostile externals. */
async function attack(base: URL, client: string, c: HostileContract, victim: Address, until: number, t: Tally, what: 'get' | 'send'): Promise<void> {
  const deepExternal = messageBoc(external({ to: victim, body: chainCell(511) })).toString('base64');
  const dagExternal = messageBoc(external({ to: victim, body: dagCell(500, 4) })).toString('base64');
  for (let i = 0; Date.now() < until; i++) {
    let r: Answer;
    if (what === 'send') r = await call(base, '/api/v2/sendBoc', client, { boc: i % 2 ? dagExternal : deepExternal });
    else if (i % 3 === 0) r = await call(base, '/api/v2/runGetMethod', client, { address: c.address.toString(), method: 'deep_cell', stack: [['num', '600']] });
    else if (i % 3 === 1) r = await call(base, '/api/v3/runGetMethod', client, { address: c.address.toRawString(), method: 'dag_cell', stack: [{ type: 'num', value: '600' }] });
    else r = await call(base, '/api/v2/runGetMethod', client, { address: c.address.toString(), method: 'nested_tuple', stack: [['num', '1000']] });
    t.add(what, r.status, r.body);
  }
}

/** `seconds` of `what` by ATTACKERS clients, with the honest client and health sampled all along. */
async function phase(base: URL, contracts: HostileContract[], honestWallet: TestWallet, seconds: number, what: 'get' | 'send') {
  const until = Date.now() + seconds * 1000;
  const attackers = tally();
  const honestTally = tally();
  const [latency, health] = await Promise.all([
    honest(base, honestWallet, until, honestTally),
    sampleHealth(base, until),
    ...contracts.map((c, i) => attack(base, `10.66.0.${i + 1}`, c, honestWallet.address, until, attackers, what)),
  ]);
  for (const [key, error] of [...attackers.errors, ...honestTally.errors]) console.log(`  hostile ${what}: first ${key}: ${error}`);
  return { attackers, honestTally, latency, health };
}

/** The honest client: a wallet's get-method every HONEST_EVERY_MS (an argument of its own each time, so no answer comes from a cache). */
async function honest(base: URL, w: TestWallet, until: number, t: Tally): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; Date.now() < until; i++) {
    const started = Date.now();
    const r = await call(base, '/api/v2/runGetMethod', '10.77.0.1', { address: w.address.toString(), method: 'seqno', stack: [['num', String(Date.now() * 1000 + i)]] });
    t.add('honest', r.status, r.body);
    if (r.status === 200) ms.push(r.ms);
    await new Promise((res) => setTimeout(res, Math.max(0, HONEST_EVERY_MS - (Date.now() - started))));
  }
  return ms;
}

interface HealthSample {
  status: number;
  ms: number;
  lag?: number;
  restarts?: number;
  degraded: boolean;
}

async function sampleHealth(base: URL, until: number): Promise<HealthSample[]> {
  const out: HealthSample[] = [];
  while (Date.now() < until) {
    const started = Date.now();
    const r = await call(base, '/api/health', '10.88.0.1');
    const b = r.body as { status?: string; indexer_progress?: { lag?: number }; tvm?: { restarts?: number } } | undefined;
    out.push({ status: r.status, ms: r.ms, lag: b?.indexer_progress?.lag ?? undefined, restarts: b?.tvm?.restarts, degraded: b?.status !== 'ok' });
    await new Promise((res) => setTimeout(res, Math.max(0, 1000 - (Date.now() - started))));
  }
  return out;
}

const tvmRestarts = async (base: URL) => ((await call(base, '/api/health', 'bench-setup')).body as { tvm?: { restarts?: number } } | undefined)?.tvm?.restarts ?? 0;

export async function benchHostile(o: { seconds: number; url?: string; dataDir?: string }): Promise<BenchResult[]> {
  const atlas = o.url
    ? { base: new URL(o.url), dataDir: o.dataDir ?? '', stop: async () => {} }
    : await startAtlas({ name: 'hostile', seed: 'atlas-hostile', logFile: '.reports/hostile-server.log', env: { TRUST_PROXY: 'on', RATE_LIMIT_ANON_RPS: '1000000' } });
  if (!atlas.dataDir) throw new Error('--data-dir (the ATLAS_DATA_DIR of the Atlas at --url) is needed to read its devnet wallets');
  const base = atlas.base;
  try {
    const accounts = JSON.parse(fs.readFileSync(path.join(atlas.dataDir, 'devnet', 'genesis.json'), 'utf8')) as Genesis[];
    const deployer = await ownWallet(base, wallet(accounts, 'alice'));
    const victim = wallet(accounts, 'bob');
    const contracts = await Promise.all(Array.from({ length: ATTACKERS }, (_, i) => hostileContract(1000 + i)));
    const deploys = contracts.map((c) => ({ to: c.address, value: toNano('1'), bounce: false, init: { code: c.code, data: c.data } }));
    if ((await sendAndLand(base, deployer, deploys)) === null) throw new Error('the hostile contracts were not deployed');
    console.log(`  hostile: ${ATTACKERS} contracts deployed; honest baseline for 10 s`);
    const baselineTally = tally();
    const baseline = await honest(base, victim, Date.now() + 10_000, baselineTally);

    const before = await tvmRestarts(base);
    console.log(`  hostile: ${ATTACKERS} clients run hostile get-methods for ${o.seconds} s`);
    const gets = await phase(base, contracts, victim, o.seconds, 'get');
    const afterGets = await tvmRestarts(base);
    const sendSeconds = Math.ceil(o.seconds / 2);
    console.log(`  hostile: ${ATTACKERS} clients send 511-deep and DAG externals for ${sendSeconds} s`);
    const sends = await phase(base, contracts, victim, sendSeconds, 'send');
    const landed = await sendAndLand(base, deployer, [{ to: victim.address, value: toNano('0.01') }]);
    const restarts = (await tvmRestarts(base)) - before;
    const lags = [...gets.health, ...sends.health].map((h) => h.lag).filter((l): l is number => l !== undefined);
    const health = [...gets.health, ...sends.health];
    const fivexx = (t: Tally) => t.count((_, s) => s >= 500);
    const honestRows = (name: string, p: typeof gets): BenchResult[] => [
      { name: `hostile honest get-method p50, ${name}`, value: quantile(p.latency, 0.5), unit: 'ms', note: `${quantile(baseline, 0.5)} ms before the attacks` },
      {
        name: `hostile honest get-method p99, ${name}`,
        value: quantile(p.latency, 0.99),
        unit: 'ms',
        note: `max ${quantile(p.latency, 1)} ms; ${quantile(baseline, 0.99)} ms before the attacks; ${p.honestTally.count((_, s) => s === 200)} of ${p.honestTally.count(() => true)} answered 200`,
      },
    ];
    return [
      ...honestRows('get-method crash attempt', gets),
      { name: 'hostile get-method attack 5xx', value: fivexx(gets.attackers) + fivexx(gets.honestTally), unit: 'answers', note: gets.attackers.text() },
      { name: 'hostile worker restarts', value: afterGets - before, unit: 'restarts', note: `${restarts} over both attacks` },
      ...honestRows('deep externals', sends),
      { name: 'hostile sendBoc 5xx', value: fivexx(sends.attackers), unit: 'answers', note: `${sends.attackers.text()}: 500 LITE_SERVER_UNKNOWN is toncenter's answer for a message the chain refuses` },
      { name: 'hostile indexer lag max', value: lags.length ? Math.max(...lags) : -1, unit: 'blocks', note: `${lags.length} health samples (target ≤ 5)` },
      {
        name: 'hostile health degraded',
        value: health.filter((h) => h.degraded).length,
        unit: 'samples',
        note: `of ${health.length}; ${health.filter((h) => h.status === 0).length} unanswered; p99 ${quantile(health.map((h) => h.ms), 0.99)} ms`,
      },
      { name: 'hostile signed transfer after', value: landed ?? -1, unit: 's', note: landed === null ? 'did not land in 5 tries' : 'sent right after the attacks, until its seqno shows (a seqno the background traffic took first is tried again)' },
    ];
  } finally {
    await atlas.stop();
  }
}
