// What /api/health reports: one line per subsystem ("ok…" or what is wrong), the indexer's numbers, each
// lite server (address, up or not, answering, latency, last masterchain seqno, last failure), each read
// replica's state and lag, memory, the HTTP server's load and — where the process has one — the emulator.
// `status: degraded` comes with a `reason` naming the broken subsystems. Health must stay fast when
// Atlas is overloaded (orchestrators restart what does not answer): a request waits at most 50 ms for a
// new database and chain probe, else answers with the latest finished one while the new one runs on.
import type { LiteClient } from 'ton-lite-client';
import type { ServicesSource } from './api/services';
import type { Config } from './config';
import type { Database } from './db/database';
import type { Reads, ReplicaStatus } from './db/replicas';
import { loadStatus, type LoadStatus } from './http/load';
import type { IndexerProgress } from './indexer/follower';
import type { TvmStatus } from './tvm/pool';
import type { DevnetStatus } from './devnet';
import { liteServerStatus, probeLiteServers, type LiteServerStatus } from './lite';
import type { HubStatus } from './stream/hub';
import { memoryOf, type ClusterView } from './cluster/messages';
import type { CacheStats } from './api/v3/sized-lru';

/** The side-map cache's stats: kept only while the database's change notices are heard (`listening`). */
type SideMapStats = CacheStats & { listening: boolean };

export interface HealthServices {
  config: Pick<Config, 'network'>;
  /** The primary: health's database probe reads it. */
  db: Database;
  /** The read replicas (DATABASE_REPLICA_URLS), listed with their state and lag. */
  reads?: Pick<Reads, 'replicas'>;
  lite: LiteClient;
  indexer?: { progress: IndexerProgress };
  tvm?: { status(): TvmStatus };
  /** The local chain this process runs (TON_NETWORK=devnet). */
  devnet?: { status(): DevnetStatus };
  /** The Streaming API's open streams (lib/stream). */
  stream?: { hub: { status(): HubStatus } };
  /** An API worker of an `npm start` cluster: the primary's view (its indexer and devnet, every worker). */
  cluster?: () => ClusterView | undefined;
  /** The v3 answer caches of this process (lib/runtime.ts), each absent where the process keeps none. */
  traceCache?: { stats: CacheStats };
  txCache?: { stats: CacheStats };
  sideCache?: { stats: SideMapStats };
}

export interface Health {
  status: 'ok' | 'degraded';
  /** Why it is degraded: the broken subsystems, each with its error. */
  reason?: string;
  db: string;
  chain: string;
  indexer: string;
  /** Present while an in-process indexer runs: cursor, head, rates, ETA. */
  indexer_progress?: IndexerProgress & { lag: number | null };
  /** Each lite server of a pool, probed with the database and chain (absent on the devnet's in-process engine). */
  lite_servers?: LiteServerStatus[];
  /**
   * Each read replica (present when DATABASE_REPLICA_URLS is set). A replica down or lagging does not make
   * the status degraded: its reads go to the primary, and no request fails for it.
   */
  replicas?: ReplicaStatus[];
  tvm?: TvmStatus;
  /** The devnet's block producer and emulator, where this process runs the devnet. */
  devnet?: DevnetStatus;
  /** The Streaming API: streams open now (SSE, WebSocket), consumers dropped for not reading, notifications sent. */
  streaming?: HubStatus;
  /** Bytes, as process.memoryUsage() reports them. */
  memory: { rss: number; heap_used: number; heap_total: number };
  /** The HTTP server's load (absent where no Atlas server fronts the process: next dev, tests). */
  load?: LoadStatus;
  /**
   * The answering process's v3 caches (in a cluster, the answering worker's own, as `load`): finished
   * traces, finalized transactions' contents, and the side maps (address book, metadata), kept only while
   * the database's change notices are heard. `listening: false` (connection lost, a pooler that drops
   * notices) means every answer reads its side maps: slower, never stale; not a reason to be degraded.
   */
  caches?: { traces?: CacheStats; transactions?: CacheStats; side_maps?: SideMapStats };
  /**
   * `npm start` on several cores (API_WORKERS): the primary (which runs the one indexer and devnet
   * reported above) and each API worker with its load, streams and memory. `load` above is the
   * answering worker's own; the X-Atlas-Worker header names it.
   */
  cluster?: ClusterView;
}

interface Probe {
  db: string;
  chain: string;
}

const HEAD_TIMEOUT_MS = 3000;
/** A probe result older than this starts a new probe. */
const PROBE_MAX_AGE_MS = 2000;
/** How long a request waits for that new probe before answering with the previous result. */
const PROBE_WAIT_MS = 50;

/** The health check over these services; its probes are shared by every request. */
export function createHealth(source: ServicesSource<HealthServices>, opts: { probeMaxAgeMs?: number } = {}): () => Promise<Health> {
  const maxAge = opts.probeMaxAgeMs ?? PROBE_MAX_AGE_MS;
  let latest: { at: number; probe: Probe } | undefined;
  let running: Promise<Probe> | undefined;

  const refresh = (s: HealthServices) =>
    (running ??= probe(s)
      .then((p) => {
        latest = { at: Date.now(), probe: p };
        return p;
      })
      .finally(() => (running = undefined)));

  return async () => {
    let s: HealthServices;
    try {
      s = await source();
    } catch (err) {
      const msg = `error: ${(err as Error).message}`;
      return { status: 'degraded', reason: `services: ${(err as Error).message}`, db: msg, chain: 'not started', indexer: 'not started', memory: memory(), load: loadStatus() };
    }
    let p: Probe;
    if (!latest) p = await refresh(s);
    else if (Date.now() - latest.at <= maxAge) p = latest.probe;
    else {
      // A quiet process answers with a fresh probe; a busy or stuck one with the last result, at once.
      const previous = latest.probe;
      p = await Promise.race([refresh(s), new Promise<Probe>((r) => setTimeout(() => r(previous), PROBE_WAIT_MS))]);
    }
    return assemble(s, p);
  };
}

async function probe(s: HealthServices): Promise<Probe> {
  const [, db, chain] = await Promise.all([
    // Each lite server asked for its head, so lite_servers says which answer, how fast and how far along.
    probeLiteServers(s.lite).then(() => undefined),
    s.db.prisma.$queryRaw`SELECT 1`.then(
      () => 'ok',
      (err: Error) => `error: ${err.message}`,
    ),
    withTimeout(s.lite.getMasterchainInfo(), HEAD_TIMEOUT_MS).then(
      (info) => `ok: ${s.config.network}, masterchain seqno ${info.last.seqno}`,
      (err: Error) => `error: ${s.config.network}: ${err.message}`,
    ),
  ]);
  return { db, chain };
}

function assemble(s: HealthServices, { db, chain }: Probe): Health {
  const cluster = s.cluster?.();
  // A cluster's worker reports the primary's indexer and devnet: they run there, once.
  const p = s.indexer?.progress ?? (s.cluster && (cluster?.primary.indexer ?? { state: 'starting', lastIndexedSeqno: null, headSeqno: null, blocksPerSecond: 0, transactionsPerSecond: 0, etaSeconds: null }));
  const lag = p && p.headSeqno !== null && p.lastIndexedSeqno !== null ? p.headSeqno - p.lastIndexedSeqno : null;
  const indexer = !p ? 'off (INDEXER=off: a separate process indexes)' : describeIndexer(p, lag) + describeSkips(p);
  const servers = liteServerStatus(s.lite);
  const replicas = s.reads?.replicas();
  const tvm = s.tvm?.status();
  const devnet = s.devnet?.status() ?? cluster?.primary.devnet;

  const reasons: string[] = [];
  if (db !== 'ok') reasons.push(`database ${db}`);
  if (!chain.startsWith('ok')) {
    const down = servers?.filter((x) => x.state !== 'ready').map((x) => `${x.server} ${x.state}${x.lastFailure ?? x.lastError ? ` (${x.lastFailure ?? x.lastError})` : ''}`);
    reasons.push(`chain ${chain}` + (down?.length ? `; lite servers down: ${down.join(', ')}` : ''));
  }
  if (indexer.startsWith('error')) reasons.push(`indexer ${indexer}`);
  if (tvm?.state === 'degraded') reasons.push(`emulator degraded: ${tvm.lastFailure?.reason ?? 'unknown failure'} (${tvm.restarts} restarts)`);
  if (devnet?.state === 'degraded') reasons.push(`devnet ${devnet.reason}`);
  const clusterProblem = cluster && describeClusterProblem(cluster);
  const kept = caches(s);
  if (clusterProblem) reasons.push(clusterProblem);

  return {
    status: reasons.length ? 'degraded' : 'ok',
    ...(reasons.length && { reason: reasons.join('; ') }),
    db,
    chain,
    indexer,
    ...(p && { indexer_progress: { ...p, lag } }),
    ...(servers && { lite_servers: servers }),
    ...(replicas?.length && { replicas }),
    ...(tvm && { tvm }),
    ...(devnet && { devnet }),
    ...(s.stream && { streaming: s.stream.hub.status() }),
    memory: memory(),
    load: loadStatus(),
    ...(kept && { caches: kept }),
    ...(cluster && { cluster }),
  };
}

function caches(s: HealthServices): Health['caches'] {
  if (!s.traceCache && !s.txCache && !s.sideCache) return undefined;
  return {
    ...(s.traceCache && { traces: s.traceCache.stats }),
    ...(s.txCache && { transactions: s.txCache.stats }),
    ...(s.sideCache && { side_maps: s.sideCache.stats }),
  };
}

/** Fewer API workers up than API_WORKERS asks for (one died and is being replaced, or hangs). */
function describeClusterProblem(c: ClusterView): string | undefined {
  const down = c.workers.filter((w) => w.state !== 'up');
  const up = c.workers.length - down.length;
  if (up >= c.api_workers) return undefined;
  return `cluster: ${up} of ${c.api_workers} API workers up` + (down.length ? ` (${down.map((w) => `worker ${w.id} ${w.state}`).join(', ')})` : '');
}

function memory(): Health['memory'] {
  const m = process.memoryUsage();
  return { ...memoryOf(m), heap_total: m.heapTotal };
}

function describeIndexer(p: IndexerProgress, lag: number | null): string {
  const at = p.lastIndexedSeqno === null ? 'nothing indexed yet' : `seqno ${p.lastIndexedSeqno}`;
  switch (p.state) {
    case 'error':
      return `error: ${p.error}`;
    case 'catching up':
      return `catching up: ${at} of ${p.headSeqno}, ${p.blocksPerSecond.toFixed(1)} blocks/s, ${p.transactionsPerSecond.toFixed(1)} tx/s` + (p.etaSeconds !== null ? `, ETA ${p.etaSeconds} s` : '');
    case 'live':
      return `ok: live at ${at}` + (lag ? ` (lag ${lag})` : '');
    default:
      return `${p.state}: ${at}`;
  }
}

/** The get-methods the derive stage skipped (interface unknown for the reason given): not a failure. */
function describeSkips(p: IndexerProgress): string {
  const s = p.skipped;
  if (!s?.count || !s.last) return '';
  return `; ${s.count} get-method run${s.count === 1 ? '' : 's'} skipped, interface unknown (last: ${s.last.method} of ${s.last.address}: ${s.last.reason})`;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}
