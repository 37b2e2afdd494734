/**
 * The devnet directory lock, with real processes: a chain held by another process refuses the open
 * (naming that process); one killed without closing leaves a stale lock that is taken over; a
 * process that exits without closing releases it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DevnetChain } from './chain';
import { DevnetLockedError, LOCK_FILE } from './dir-lock';
import { rmDir, tempDir } from '../testing/devnet';

const dirs: string[] = [];
const newDir = () => {
  const d = tempDir('atlas-devnet-lock-');
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach(rmDir));

const CHAIN_MODULE = fileURLToPath(new URL('./chain.ts', import.meta.url));

/** A node process that opens the chain in `dir`, says "open", then waits (or exits without closing). */
async function holder(dir: string, then: 'wait' | 'exit'): Promise<ChildProcess> {
  const script = path.join(newDir(), 'holder.mts');
  fs.writeFileSync(
    script,
    `import { DevnetChain } from ${JSON.stringify(CHAIN_MODULE)};\n` +
      `await DevnetChain.open({ dir: ${JSON.stringify(dir)}, seed: 'lock' });\n` +
      `process.stdout.write('open\\n');\n` +
      (then === 'exit' ? `process.exit(0);\n` : `setInterval(() => {}, 1000);\n`),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('open')) resolve();
    });
    child.on('close', (code) => reject(new Error(`the holder process ended (${code}) before opening the chain`)));
  });
  return child;
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  return r.pid!;
}

describe('devnet directory lock', () => {
  it('refuses a second process, names the holder, and opens once the holder is gone', async () => {
    const dir = newDir();
    const child = await holder(dir, 'wait');
    try {
      expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(child.pid);
      const refused = DevnetChain.open({ dir, seed: 'lock' });
      await expect(refused).rejects.toThrow(DevnetLockedError);
      await expect(DevnetChain.open({ dir, seed: 'lock' })).rejects.toThrow(new RegExp(`in use by process ${child.pid}\\b`));
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    // killed without closing: its lock names a dead pid and is taken over
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(true);
    const chain = await DevnetChain.open({ dir, seed: 'lock' });
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await chain.close();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('is released when the process exits without closing', async () => {
    const dir = newDir();
    const child = await holder(dir, 'exit');
    if (child.exitCode === null) await once(child, 'exit');
    expect(child.exitCode).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('refuses a second open in the same process until the first closes', async () => {
    const dir = newDir();
    const first = await DevnetChain.open({ dir, seed: 'lock' });
    await expect(DevnetChain.open({ dir, seed: 'lock' })).rejects.toThrow(/this process, through another open devnet/);
    await first.close();
    const second = await DevnetChain.open({ dir, seed: 'lock' });
    await second.close();
  });

  it('takes over a stale lock file whose pid is dead, or one this pid left from an earlier life', async () => {
    for (const pid of [deadPid(), process.pid]) {
      const dir = newDir();
      fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid, token: 'old', since: '', command: 'gone' }));
      const chain = await DevnetChain.open({ dir, seed: 'lock' });
      expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).token).not.toBe('old');
      await chain.close();
    }
  });
});
