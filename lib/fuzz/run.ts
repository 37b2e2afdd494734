// A fuzz run against a running Atlas: learn the routes (its OpenAPI documents) and real values (its
// chain), send the generated cases with C in flight, and report status counts per route class, latency,
// hangs, the server's memory and whether the indexer kept up. `failures` lists what makes the run fail.
import fs from 'node:fs';
import path from 'node:path';
import { getJson, getPatiently, sendRaw, type RawAnswer } from './client';
import { learnCorpus } from './corpus';
import { generateCase, type FuzzCase } from './generate';
import { pidListeningOn, treeRss } from './proc';
import { seededRng } from './rng';
import { fuzzRoutes, onlyRoutes, type OpenApiDoc } from './routes';
import { errorText, FAILING, verdict, type Verdict } from './verdict';

export interface FuzzOptions {
  url: string;
  requests: number;
  seed: string;
  concurrency: number;
  apiKey?: string;
  /** Only the route classes (`v2 rpc getTransactions`, `v3 get blocks`) this matches. */
  routes?: RegExp;
  /** The server's pid for RSS; found from the URL's port when the server runs on this machine. */
  pid?: number;
  /** A request slower than this is a hang (default 5 s). */
  hangMs?: number;
  /** The run fails when the server's RSS goes above this many MB (default: reported only). */
  maxRssMb?: number;
  /** How long the indexer may take to move after the run before it counts as stalled (default 20 s). */
  indexerGraceMs?: number;
  progress?: (line: string) => void;
}

export interface Offender {
  verdict: Verdict;
  route: string;
  note: string;
  status: number;
  ms: number;
  error: string;
  /** How many requests gave this same answer. */
  count: number;
  /** Route classes it was seen on (the first few). */
  routes: string[];
  /** Number of the first request that gave it (1-based): a failure that breaks later requests shows first. */
  first: number;
  request: Pick<FuzzCase, 'method' | 'target' | 'headers' | 'body'>;
}

interface IndexerProgress {
  lastIndexedSeqno: number | null;
  headSeqno: number | null;
}
interface Health {
  status?: string;
  memory?: { rss?: number };
  indexer_progress?: IndexerProgress;
}

export interface FuzzReport {
  requests: number;
  seconds: number;
  verdicts: Record<string, number>;
  statuses: Record<string, number>;
  /** Per route class (`v2 rpc getTransactions`): counts by verdict. */
  routes: Record<string, Record<string, number>>;
  latencyMs: { p50: number; p99: number; max: number };
  /** Error answers whose body is not an error envelope (the APIs promise one on every error), by status, with an example. */
  nonJsonErrors: Record<string, { count: number; example: string }>;
  rss?: { source: string; beforeMb: number; afterMb: number; maxMb: number };
  indexer?: { before: number | null; after: number | null; advanced: boolean };
  healthAfter?: string;
  offenders: Offender[];
  failures: string[];
}

/** /api/health, also when it answers 503 (degraded), waiting out rate limiting (client.ts). */
const readHealth = (base: URL, headers: Record<string, string>, tries = 5) => getJson<Health>(base, '/api/health', headers, { tries, acceptUnavailable: true });

/** The API's OpenAPI document; a clear error when there is none (no Atlas there, or it failed). */
async function openApi(base: URL, api: string, headers: Record<string, string>): Promise<OpenApiDoc> {
  const target = `/api/${api}/openapi.json`;
  const a = await getPatiently(base, target, headers);
  try {
    if (a.status === 200) return JSON.parse(a.body) as OpenApiDoc;
  } catch {
    // reported below
  }
  throw new Error(`no OpenAPI document at ${base.origin}${target} (${a.status ? `${a.status}: ${a.body.slice(0, 200)}` : a.error}): is Atlas running there?`);
}

const mb = (b: number | undefined) => +((b ?? 0) / 2 ** 20).toFixed(1);

/**
 * What makes two failing answers the same finding. An error that says what went wrong is one finding
 * wherever it happens (numbers, hex and log references aside): `workchain 5 does not exist` on ten
 * routes is one bug. An error that says nothing (a bare `internal server error (ref …)`, a plain-text
 * 500) is told apart by the change made to the request and, unless that change was to the HTTP request
 * itself (a TRACE that fails on every route), by the route.
 */
export function findingKey(c: Pick<FuzzCase, 'route' | 'note' | 'transport'>, status: number, error: string): string {
  const normal = error.replace(/\(ref [^)]*\)/, '').replace(/[0-9a-f]{16,}/gi, 'H').replace(/\d+/g, 'N');
  const says = !/^internal server error\b/i.test(error) && !/^Internal Server Error$|^$/.test(error.trim());
  if (says) return [status, normal].join('|').slice(0, 300);
  return [c.transport ? 'any route' : c.route, c.note.replace(/\d+/g, 'N'), status, normal].join('|').slice(0, 300);
}

export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const base = new URL(o.url);
  const hangMs = o.hangMs ?? 5000;
  const log = o.progress ?? (() => {});
  const auth: Record<string, string> = o.apiKey ? { 'x-api-key': o.apiKey } : {};
  const [v2, v3] = await Promise.all(['v2', 'v3'].map((api) => openApi(base, api, auth)));
  const routes = o.routes ? onlyRoutes(fuzzRoutes({ v2, v3 }), o.routes) : fuzzRoutes({ v2, v3 });
  if (!routes.length) throw new Error(`no route class matches ${o.routes}`);
  const corpus = await learnCorpus(base, auth);
  log(`fuzz: ${routes.length} routes, corpus of ${corpus.addresses.length} addresses, ${corpus.txs.length} transactions, ${corpus.blocks.length} blocks`);

  const healthBefore = await readHealth(base, auth);
  // The server's memory: as /api/health reports it (memory.rss, bytes) when it does, else from /proc.
  const pid = o.pid ?? (['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname) ? pidListeningOn(Number(base.port || 80)) : undefined);
  const fromHealth = typeof healthBefore?.memory?.rss === 'number';
  const source = fromHealth ? '/api/health' : pid ? `pid ${pid} and children` : undefined;
  const readRss = async (): Promise<number | undefined> =>
    fromHealth ? (await readHealth(base, auth, 1))?.memory?.rss : pid ? treeRss(pid) : undefined;
  const rssBefore = await readRss();
  let rssMax = rssBefore ?? 0;
  const rssTimer = source ? setInterval(() => void readRss().then((v) => (rssMax = Math.max(rssMax, v ?? 0))), fromHealth ? 2000 : 500) : undefined;

  const rng = seededRng(o.seed);
  const times = new Float64Array(o.requests);
  const verdicts: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  const perRoute: Record<string, Record<string, number>> = {};
  const findings = new Map<string, Offender>();
  const nonJsonErrors: FuzzReport['nonJsonErrors'] = {};
  /** Where and how the server stopped serving (refused connections, or nothing but deadlines); the run stops there. */
  let down: { at: number; how: string } | undefined;
  // A server that accepts connections and answers nothing would otherwise cost the deadline per request.
  let deadlinesInARow = 0;
  const maxDeadlinesInARow = Math.max(8, 2 * o.concurrency);
  let next = 0;
  let done = 0;
  const started = performance.now();

  const record = (c: FuzzCase, a: RawAnswer, i: number) => {
    times[i] = a.ms;
    const v = verdict(a, hangMs);
    verdicts[v] = (verdicts[v] ?? 0) + 1;
    const s = a.status === 0 ? (a.error ?? 'none') : String(a.status);
    statuses[s] = (statuses[s] ?? 0) + 1;
    const r = (perRoute[c.route] ??= {});
    r[v] = (r[v] ?? 0) + 1;
    if (a.error?.includes('ECONNREFUSED')) {
      if (!down || i + 1 < down.at) down = { at: i + 1, how: 'stopped accepting connections' };
      return;
    }
    deadlinesInARow = a.error === 'deadline' ? deadlinesInARow + 1 : 0;
    if (deadlinesInARow >= maxDeadlinesInARow && !down) down = { at: i + 1, how: `answered none of ${deadlinesInARow} requests in a row` };
    const error = errorText(a.body);
    if (a.status >= 400 && error === undefined && c.method !== 'HEAD') {
      const n = (nonJsonErrors[a.status] ??= { count: 0, example: `${c.method} ${c.target.slice(0, 120)}` });
      n.count++;
    }
    if (FAILING.has(v) || v === 'no answer') {
      const text = error ?? (a.error ? `(${a.error})` : a.body.slice(0, 200));
      const key = v === 'hang' ? `hang|${c.route}|${c.note}` : findingKey(c, a.status, text);
      const f = findings.get(key);
      if (f) {
        f.count++;
        f.first = Math.min(f.first, i + 1);
        if (f.routes.length < 5 && !f.routes.includes(c.route)) f.routes.push(c.route);
        if (a.ms > f.ms) Object.assign(f, { ms: a.ms, request: c });
      } else {
        findings.set(key, { verdict: v, route: c.route, note: c.note, status: a.status, ms: a.ms, error: text, count: 1, routes: [c.route], first: i + 1, request: c });
      }
    }
  };

  const worker = async () => {
    while (next < o.requests && !down) {
      const i = next++;
      const c = generateCase(rng, routes, corpus, { apiKey: o.apiKey });
      // Past the hang threshold the answer no longer matters; give it a little longer to see what it was.
      let a = await sendRaw(base, c, hangMs * 3);
      // A HEAD answer has no body to tell a documented 5xx from another: read the same request's GET body.
      if (c.method === 'HEAD' && a.status >= 500) {
        const g = await sendRaw(base, { ...c, method: 'GET' }, hangMs * 3);
        if (g.status === a.status) a = { ...a, body: g.body };
      }
      record(c, a, i);
      if (++done % Math.max(1, Math.floor(o.requests / 10)) === 0) log(`fuzz: ${done}/${o.requests} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  const seconds = (performance.now() - started) / 1000;
  if (rssTimer) clearInterval(rssTimer);
  const rssAfter = await readRss();

  // The indexer follows a chain that keeps producing blocks: it must have moved past where it was.
  const before = healthBefore?.indexer_progress?.lastIndexedSeqno ?? null;
  let healthAfter = await readHealth(base, auth);
  const deadline = Date.now() + (o.indexerGraceMs ?? 20_000);
  const advanced = () => (healthAfter?.indexer_progress?.lastIndexedSeqno ?? -1) > (before ?? -1);
  while (healthBefore?.indexer_progress && !advanced() && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    healthAfter = await readHealth(base, auth);
  }

  const sorted = Array.from(times.subarray(0, next)).sort((a, b) => a - b);
  const at = (q: number) => +(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  // Hangs slowest first; other findings in the order they first happened, since one failure can break
  // the requests after it (a crashed emulator fails every later get-method).
  const offenders = [...findings.values()].sort((a, b) => rank(a) - rank(b) || (a.verdict === 'hang' ? b.ms - a.ms : a.first - b.first));
  const report: FuzzReport = {
    requests: done,
    seconds: +seconds.toFixed(1),
    verdicts,
    statuses,
    routes: perRoute,
    latencyMs: { p50: at(0.5), p99: at(0.99), max: at(1) },
    nonJsonErrors,
    ...(source ? { rss: { source, beforeMb: mb(rssBefore), afterMb: mb(rssAfter), maxMb: mb(rssMax) } } : {}),
    ...(healthBefore?.indexer_progress && { indexer: { before, after: healthAfter?.indexer_progress?.lastIndexedSeqno ?? null, advanced: advanced() } }),
    healthAfter: healthAfter?.status ?? 'no answer',
    offenders,
    failures: [],
  };
  if (verdicts['unexpected 5xx']) report.failures.push(`${verdicts['unexpected 5xx']} unexpected 5xx answers`);
  if (verdicts.hang) report.failures.push(`${verdicts.hang} requests took over ${hangMs} ms`);
  if (report.indexer && !report.indexer.advanced) report.failures.push(`the indexer stalled at seqno ${before}`);
  // A crashed server answers nothing at all, which no other check would call a failure.
  if (down) report.failures.push(`Atlas ${down.how} at request #${down.at}: the run stopped there; the requests just before it (the hangs) are the suspects`);
  if (!healthAfter) report.failures.push('/api/health did not answer after the run');
  if (o.maxRssMb !== undefined && report.rss && report.rss.maxMb > o.maxRssMb) report.failures.push(`the server's RSS reached ${report.rss.maxMb} MB (limit ${o.maxRssMb} MB)`);
  return report;
}

const rank = (o: Offender) => (o.verdict === 'hang' ? 0 : o.verdict === 'unexpected 5xx' ? 1 : 2);

/** The whole report, every finding with its request, as JSON (for `.reports/fuzz.json`). */
export function saveReport(r: FuzzReport, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(r, null, 1));
}

/** A shell command that sends the request again. */
export function replayCommand(base: string, r: Offender['request'], maxBody = 2000): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -sS -i', '-X', r.method, q(new URL(r.target, base).origin + r.target)];
  for (const [k, v] of Object.entries(r.headers)) if (k !== 'content-length') parts.push('-H', q(`${k}: ${v}`));
  if (r.body !== undefined) {
    parts.push('--data-binary', q(r.body.length > maxBody ? `${r.body.slice(0, maxBody)}…` : r.body));
    if (r.body.length > maxBody) parts.push(`# body cut: ${r.body.length} bytes in full (same --seed reproduces it)`);
  }
  return parts.join(' ');
}

/** The report as the lines `npm run fuzz` prints. */
export function formatReport(r: FuzzReport, base: string, worst = 10): string[] {
  const lines = [
    `fuzz: ${r.requests} requests in ${r.seconds} s (${(r.requests / Math.max(r.seconds, 0.001)).toFixed(0)} req/s)`,
    `verdicts: ${JSON.stringify(r.verdicts)}`,
    `statuses: ${JSON.stringify(r.statuses)}`,
    `latency: p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`,
    `error answers without an error envelope: ${Object.entries(r.nonJsonErrors).map(([s, n]) => `${s} ×${n.count} (e.g. ${n.example})`).join(', ') || 'none'}`,
    r.rss ? `server RSS (${r.rss.source}): ${r.rss.beforeMb} MB before, ${r.rss.maxMb} MB max, ${r.rss.afterMb} MB after` : 'server RSS: unknown (give --pid)',
    r.indexer ? `indexer: seqno ${r.indexer.before} before, ${r.indexer.after} after (${r.indexer.advanced ? 'advancing' : 'STALLED'})` : 'indexer: not reported by /api/health',
    `health after: ${r.healthAfter}`,
    '',
    'per route class (verdict counts):',
  ];
  for (const [route, counts] of Object.entries(r.routes).sort()) lines.push(`  ${route.padEnd(44)} ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (r.offenders.length) {
    lines.push('', `worst offenders (${r.offenders.length} distinct; ${Math.min(worst, r.offenders.length)} shown):`);
    for (const o of r.offenders.slice(0, worst)) {
      const where = o.routes.length > 1 ? `${o.routes.join(', ')}${o.routes.length === 5 ? ', …' : ''}` : o.route;
      lines.push(`  [${o.verdict}] ${where} (${o.note}) → ${o.status || 'no status'} in ${o.ms.toFixed(0)} ms, ×${o.count} from request #${o.first}: ${o.error.slice(0, 200)}`);
      lines.push(`    ${replayCommand(base, o.request)}`);
    }
  }
  lines.push('', r.failures.length ? `FAIL: ${r.failures.join('; ')}` : 'PASS: no unexpected 5xx, no hangs, indexer advancing');
  return lines;
}
