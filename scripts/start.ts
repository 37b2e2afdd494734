// `npm start`: validate configuration, build the app if the sources changed since the last build, then
// serve explorer + APIs on PORT. Services (database, later devnet and indexer) start in Next's
// instrumentation hook inside this same process and stop on SIGINT/SIGTERM (lib/runtime.ts).
import { spawnSync } from 'node:child_process';
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
  ensureBuild();
  // Before Next loads any route: the whole process parses cells with them (lib/boot.ts logs which are active).
  installFastTonCore();
  const { default: next } = await import('next');
  // Imported after the configuration is known to be valid: lib/log reads it on import.
  const [{ createAtlasServer }, { createPageCache }, { log }, { processStream }, { streamGateway }, { services }] = await Promise.all([
    import('../lib/server/server'),
    import('../lib/http/page-cache'),
    import('../lib/log'),
    import('../lib/stream/process'),
    import('../lib/stream/gateway'),
    import('../lib/runtime'),
  ]);
  const app = next({ dev: false, dir: root, port: cfg.port, hostname: '0.0.0.0' });
  await app.prepare();
  const handle = app.getRequestHandler();
  const pages = cfg.http.pageCache ? createPageCache() : undefined;
  // The Streaming API's connections arrive here; the runtime (started by Next's instrumentation, in the
  // same process) publishes to the same hub (lib/stream/process.ts) and owns the API keys.
  const streams = streamGateway({ hub: processStream(cfg, log).hub, config: cfg, access: () => services().then((s) => s.access), log: log.child({ component: 'stream' }) });
  const { server } = createAtlasServer({ config: cfg, handle, log: log.child({ component: 'http' }), pages, streams });
  server.on('error', (err: NodeJS.ErrnoException) => {
    console.error(err.code === 'EADDRINUSE' ? `atlas: port ${cfg.port} is in use (set PORT)` : `atlas: ${err.message}`);
    process.exit(1);
  });
  server.listen(cfg.port, () => void announce());
}

// Services start inside Next (instrumentation); one health request waits for them before saying "ready".
async function announce() {
  const url = `http://localhost:${cfg.port}`;
  const res = await fetch(`${url}/api/health`).catch(() => undefined);
  const health = (await res?.json().catch(() => undefined)) as { db?: string } | undefined;
  console.log(`atlas: ready at ${url} (database ${health?.db ?? 'unknown'}: ${cfg.databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`);
}

main().catch((err) => {
  console.error(`atlas: ${(err as Error).message}`);
  process.exit(1);
});
