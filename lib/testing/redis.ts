// A private Redis server for tests of shared rate limits: redis-server on a free port, nothing saved to
// disk, stopped by close(). A clear error (not a skip) when redis-server is not installed.
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './private-postgres';

export interface TestRedis {
  url: string;
  /** Stops the server: clients then see Redis down. */
  close(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (err) => reject(new Error(`cannot start redis-server (install Redis: Debian package redis-server): ${err.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  failed.catch(() => {});
  const url = `redis://127.0.0.1:${port}`;
  // Ready once it answers PING.
  for (let i = 0; ; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await Promise.race([probe.connect().then(() => probe.ping()), failed]);
      break;
    } catch (err) {
      if (i > 100 || child.exitCode !== null) throw err;
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      probe.disconnect();
    }
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
