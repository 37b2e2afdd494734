// `npm start`: validate configuration, build the app if the sources changed since the last build, then
// serve explorer + APIs on PORT. Services (database, devnet and indexer) start in Next's
// instrumentation hook inside this same process and stop on SIGINT/SIGTERM (lib/runtime.ts).
// On PostgreSQL with API_WORKERS > 1 (the default on a multi-core machine) this process becomes a cluster
// primary instead (lib/cluster): it runs the services itself and forks the API workers that serve PORT;
// each worker runs this file again and takes the serving path.
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { installFastTonCore } from '../lib/ton/fast-core';
import { loadConfigOrExit } from './cli';

const cfg = loadConfigOrExit();
const root = process.cwd();
const fingerprintFile = path.join(root, '.next', 'atlas-source-fingerprint');

// Sources that shape the build; a change to any of them means the old build is stale.
const SOURCE_ROOTS = ['app', 'components', 'lib', 'public', 'instrumentation.ts', 'proxy.ts', 'next.config.ts', 'postcss.config.mjs', 'package-lock.json', 'tsconfig.json'];

function sourceFingerprint(): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) if (!name.startsWith('.') && name !== 'node_modules') walk(path.join(p, name));
    } else if (!/\.test\.tsx?$/.test(p)) {
      h.update(`${path.relative(root, p)}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  for (const r of SOURCE_ROOTS) walk(path.join(root, r));
  return h.digest('hex');
}

function ensureBuild() {
  const fingerprint = sourceFingerprint();
  const built = fs.existsSync(path.join(root, '.next', 'BUILD_ID')) && fs.existsSync(fingerprintFile)
    ? fs.readFileSync(fingerprintFile, 'utf8') === fingerprint
    : false;
  if (built) return;
  console.log('atlas: building the app (first start or sources changed); this takes a minute…');
  const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const r = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) {
    console.error('atlas: the build failed (see above)');
    process.exit(1);
  }
  fs.writeFileSync(fingerprintFile, fingerprint);
}

async function main() {
  // Before Next loads any route: the whole process (primary or worker) parses cells with them (lib/boot.ts logs which are active).
  installFastTonCore();
  if (cluster.isWorker) return serve();
  ensureBuild();
  if (cfg.apiWorkers > 1) return runPrimary();
  return serve();
}

/** Next behind the Atlas HTTP edge on PORT: the whole of a single-process start, or one API worker. */
async function serve() {
  const { default: next } = await import('next');
  // Imported after the configuration is known to be valid: lib/log reads it on import.
  const [{ createAtlasServer }, { createPageCache }, { createPageGuard }, { memoryLimiter, redisLimiter }, { log }, { processStream }, { streamGateway }, { beforeStop, services }, { apiRoutes }, { directApi }] = await Promise.all([
    import('../lib/server/server'),
    import('../lib/http/page-cache'),
    import('../lib/server/page-guard'),
    import('../lib/auth/limiter'),
    import('../lib/log'),
    import('../lib/cluster/stream'),
    import('../lib/stream/gateway'),
    import('../lib/runtime'),
    import('../lib/api/dispatch'),
    import('../lib/server/direct-api'),
  ]);
  const app = next({ dev: false, dir: root, port: cfg.port, hostname: '0.0.0.0' });
  await app.prepare();
  // The APIs' route handlers answer from the edge; pages, documents and built files go through Next.
  const handle = directApi(apiRoutes(services, services), app.getRequestHandler());
  const pages = cfg.http.pageCache ? createPageCache() : undefined;
  // Page budgets count like the API's: in Redis when several processes share one (prefixed apart), else here.
  const limiter = cfg.redisUrl ? redisLimiter(cfg.redisUrl, { log, prefix: 'atlas:rl-pages:' }) : memoryLimiter();
  // Its Redis connection closes when the services stop, like the API's limiter (lib/runtime.ts).
  beforeStop(() => limiter.close());
  const pageGuard = createPageGuard({ limiter, rps: cfg.pages.rateLimitRps, exemptLoopback: cfg.rateLimitExemptLoopback, maxRenders: cfg.pages.maxRenders });
  // The Streaming API's connections arrive here; the runtime (started by Next's instrumentation, in the
  // same process) publishes to the same hub (lib/cluster/stream.ts) and owns the API keys.
  const streams = streamGateway({ hub: processStream(cfg, log).hub, config: cfg, access: () => services().then((s) => s.access), log: log.child({ component: 'stream' }) });
  const { server } = createAtlasServer({ config: cfg, handle, log: log.child({ component: 'http' }), pages, pageGuard, streams });
  server.on('error', (err: NodeJS.ErrnoException) => {
    console.error(err.code === 'EADDRINUSE' ? `atlas: port ${cfg.port} is in use (set PORT)` : `atlas: ${err.message}`);
    process.exit(1);
  });
  const worker = cluster.worker;
  if (worker) {
    // Which worker answered: a client (and the tests) can tell the workers apart.
    server.prependListener('request', (_req, res) => res.setHeader('X-Atlas-Worker', String(worker.id)));
    const { startWorkerReports } = await import('../lib/cluster/worker');
    server.listen(cfg.port, () => startWorkerReports(() => processStream(cfg, log).hub.status()));
  } else {
    server.listen(cfg.port, () => void announce(cfg.databaseUrl ? 'PostgreSQL, one API process (API_WORKERS=1)' : 'embedded PGlite: one process serves the API, as PGlite is one process\'s database; API_WORKERS applies with DATABASE_URL'));
  }
}

/** The cluster primary: the services (devnet, indexer, migrations) first, then the API workers on PORT. */
async function runPrimary() {
  const [{ becomePrimary }, { startPrimary, stopOnSignals }, { beforeStop, services, SHUTDOWN_BUDGET_MS }, { log }] = await Promise.all([
    import('../lib/cluster/role'),
    import('../lib/cluster/primary'),
    import('../lib/runtime'),
    import('../lib/log'),
  ]);
  becomePrimary();
  const s = await services();
  const primary = startPrimary({ workers: cfg.apiWorkers, log, status: () => ({ indexer: s.indexer?.progress, devnet: s.devnet?.status(), tvm: s.tvm.status() }) });
  stopOnSignals(() => primary.halt());
  // The workers stop first (they stop serving), within half the shutdown budget; then the indexer and the rest.
  beforeStop(() => primary.stop(SHUTDOWN_BUDGET_MS / 2));
  await primary.listening;
  const once = [s.devnet && 'the devnet', s.indexer && 'the indexer'].filter(Boolean).join(' and ');
  await announce(`PostgreSQL, ${cfg.apiWorkers} API workers` + (once ? `; ${once} run once, in process ${process.pid}` : ''));
}

// Services start inside Next (instrumentation); one health request waits for them before saying "ready".
async function announce(how: string) {
  const url = `http://localhost:${cfg.port}`;
  const res = await fetch(`${url}/api/health`).catch(() => undefined);
  const health = (await res?.json().catch(() => undefined)) as { db?: string } | undefined;
  console.log(`atlas: ready at ${url} (database ${health?.db ?? 'unknown'}: ${how})`);
}

main().catch((err) => {
  console.error(`atlas: ${(err as Error).message}`);
  process.exit(1);
});
