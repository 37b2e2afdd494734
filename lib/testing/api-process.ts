// A light Atlas API process for tests that need several processes: the real /api/v2 and /api/v3 handlers
// behind a real HTTP server, with the access service the runtime builds (keys in DATABASE_URL's
// database, limits in REDIS_URL's Redis) and its reads (DATABASE_REPLICA_URLS), and the Streaming API's
// endpoints on its own hub and bus (Redis pub/sub with REDIS_URL), but no chain and no indexer. Prints
// `listening <url>` and serves until it is sent SIGTERM. Started by startApiProcess() below.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ApiProcess {
  url: string;
  close(): Promise<void>;
}

/** Spawns this file as a child process with `env` added to the environment. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'api-process.ts')], {
    env: { ...process.env, ...env, ATLAS_API_PROCESS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the API process exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /^listening (\S+)$/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

async function main() {
  const { createAccess } = await import('../auth/access');
  const { redisLimiter, memoryLimiter } = await import('../auth/limiter');
  const { parseConfig } = await import('../config');
  const { configuredTarget, openDatabase } = await import('../db/database');
  const { openReads } = await import('../db/replicas');
  const { log } = await import('../log');
  const { testApi } = await import('./api');
  const { processStream } = await import('../cluster/stream');
  const { streamGateway } = await import('../stream/gateway');
  const { installFastTonCore } = await import('../ton/fast-core');
  installFastTonCore(); // an API process's entry point, as lib/boot.ts is Next's
  const config = parseConfig(process.env);
  const db = await openDatabase(configuredTarget(config));
  const reads = await openReads(db, config, log);
  const limiter = config.redisUrl ? redisLimiter(config.redisUrl, { log }) : memoryLimiter();
  const access = createAccess({ prisma: db.prisma, limiter, anonRps: config.rateLimitAnonRps });
  const stream = processStream(config, log);
  await stream.bus.ready();
  const streams = streamGateway({ hub: stream.hub, config, access: async () => access, log });
  const server = await testApi({ db, reads, config, access }).serve(streams);
  console.log(`listening ${server.url}`);
  process.once('SIGTERM', () => {
    void stream
      .close()
      .then(() => Promise.all([server.close(), limiter.close(), reads.close().then(() => db.close())]))
      .finally(() => process.exit(0));
  });
}

if (process.env.ATLAS_API_PROCESS === '1' && process.argv[1] === path.join(import.meta.dirname, 'api-process.ts')) await main();
