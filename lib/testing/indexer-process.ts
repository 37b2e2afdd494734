/**
 * The real `npm run indexer` process (scripts/indexer.ts) for crash tests: spawned on a devnet's data
 * directory, logging at debug level so the test sees where its cursor is (its JSON log lines), and
 * the database it writes opened while no child runs (PGlite admits one process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { openDatabase, type Database } from '../db/database';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** One JSON log line of the child: its message and its fields. */
export interface IndexerLogLine {
  msg?: string;
  seqno?: number;
  from?: number;
  [field: string]: unknown;
}

export interface IndexerChild {
  proc: ChildProcess;
  /** Every JSON line it has logged so far, in order. */
  lines: () => readonly IndexerLogLine[];
  /** What it has written to stderr so far (why it exited, when it did). */
  stderr: () => string;
  /** Resolves when the indexer has claimed the chain and starts indexing (or rejects if it exits first). */
  indexing: Promise<void>;
  /** Where its cursor was when it was killed, from its own logs (-1: it never started indexing). */
  position: () => number;
  /** How often it logged a failed block (and retried from its cursor). */
  failures: () => number;
  /** Resolves once its cursor has passed `seqno` (rejects if it exits first). */
  passed: (seqno: number) => Promise<void>;
  /** Resolves once it has logged `msg` `count` times (rejects if it exits first). */
  logged: (msg: string, count: number) => Promise<void>;
}

/**
 * The indexer of the devnet in `dataDir`, writing to `databaseUrl` (PostgreSQL), or else to the PGlite
 * database in the data directory.
 */
export function spawnIndexer(dataDir: string, args: string[] = [], databaseUrl?: string): IndexerChild {
  // The child is not a test (no VITEST, NODE_ENV=production): it must log.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'VITEST' && k !== 'NODE_ENV' && k !== 'DATABASE_URL'));
  const env = { ...inherited, TON_NETWORK: 'devnet', ATLAS_DATA_DIR: dataDir, LOG_LEVEL: 'debug', NODE_ENV: 'production' as const, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/indexer.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let position = -1;
  let failures = 0;
  const lines: IndexerLogLine[] = [];
  let stderr = '';
  const waiting = new Set<() => void>();
  let started!: () => void;
  let failed!: (e: Error) => void;
  const indexing = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
  indexing.catch(() => undefined); // a child killed during start-up never gets there
  let buffered = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  proc.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as IndexerLogLine;
      lines.push(entry);
      if (entry.msg === 'indexing' && entry.from) {
        position = entry.from - 1;
        started();
      }
      if (entry.msg === 'indexed' && entry.seqno) position = entry.seqno;
      if (entry.msg?.startsWith('indexing failed')) failures++;
      for (const check of waiting) check();
    }
  });
  proc.once('exit', (code) => failed(new Error(`indexer exited with ${code} before indexing`)));
  /** Resolves once `reached()` holds after a log line; rejects with `missed()` if the child exits first. */
  const until = (reached: () => boolean, missed: (code: number | null) => string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!reached()) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      proc.once('exit', (code) => reject(new Error(missed(code))));
      check();
    });
  const passed = (seqno: number) => until(() => position >= seqno, (code) => `indexer exited with ${code} at ${position} before passing ${seqno}`);
  const count = (msg: string) => lines.filter((l) => l.msg === msg).length;
  const logged = (msg: string, n: number) => until(() => count(msg) >= n, (code) => `indexer exited with ${code} after logging "${msg}" ${count(msg)} times: ${stderr}`);
  return { proc, lines: () => lines, stderr: () => stderr, indexing, position: () => position, failures: () => failures, passed, logged };
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null || child.signalCode ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

/** The child's database, opened here while no child runs (PGlite admits one process): `pg` when the test has one, else the data directory's PGlite. */
export async function withIndexDatabase<T>(dataDir: string, pg: Database | undefined, fn: (db: Database) => Promise<T>): Promise<T> {
  if (pg) return fn(pg);
  const db = await openDatabase({ engine: 'pglite', dir: path.join(dataDir, 'db') });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

