// Atlas started as a user starts it (`npm start`, a fresh data directory, a free port, the seeded devnet
// with 1 s blocks, as playwright.config.ts does), for the benchmarks that measure a whole server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { getJson } from '../lib/fuzz/client';

export interface RunningAtlas {
  base: URL;
  pid: number | undefined;
  /** Its ATLAS_DATA_DIR (the devnet's genesis.json is under devnet/). */
  dataDir: string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function waitUntilLive(base: URL, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    const h = await getJson<{ indexer?: string }>(base, '/api/health').catch(() => undefined);
    if (h?.indexer?.startsWith('ok: live')) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`Atlas at ${base.origin} did not become healthy with a live indexer in ${deadlineMs / 1000} s`);
}

/** Starts Atlas and waits until its indexer is live; `logFile` takes its stderr. */
export async function startAtlas(o: { name: string; seed: string; logFile: string; env?: Record<string, string> }): Promise<RunningAtlas> {
  const port = await freePort();
  fs.mkdirSync(path.dirname(o.logFile), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `atlas-${o.name}-`));
  const server = spawn('npm', ['start'], {
    detached: true, // its own process group, so the whole tree stops with it
    stdio: ['ignore', 'ignore', fs.openSync(o.logFile, 'w')],
    env: { ...process.env, PORT: String(port), ATLAS_DATA_DIR: dataDir, LOG_LEVEL: 'error', DEVNET_SEED: o.seed, DEVNET_BLOCK_MS: '1000', DEVNET_ADNL_PORT: '0', ...o.env },
  });
  const base = new URL(`http://127.0.0.1:${port}`);
  const stop = async () => {
    if (server.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 2000));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    console.log(`  ${o.name}: starting Atlas on port ${port} (builds first if the sources changed)…`);
    await waitUntilLive(base, 600_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, pid: server.pid, dataDir, stop };
}
