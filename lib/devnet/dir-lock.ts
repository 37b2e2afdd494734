/**
 * One process at a time in a devnet directory. Two devnets on the same files (`npm start` and
 * `npm run devnet`, two benchmark runs) would both append to blocks.pack and corrupt the chain, so
 * the chain takes `devnet.lock` first: created with O_EXCL, holding the owner's pid. A lock whose
 * pid is dead (a killed process) is stale and taken over; a live owner's lock refuses the open with
 * DevnetLockedError naming the process. Released by close, and at process exit for a devnet that
 * was never closed.
 *
 * Taking over a stale lock (unlink, then O_EXCL again) is safe with one contender; two processes
 * starting in the same instant after a crash could both see the dead pid. Not worth an OS lock.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'devnet.lock';

export class DevnetLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DevnetLockedError';
  }
}

interface LockInfo {
  pid: number;
  token: string;
  since: string;
  command: string;
}

const UNKNOWN_OWNER: LockInfo = { pid: 0, token: '', since: '', command: '' };

export interface DirLock {
  readonly path: string;
  /** Removes the lock file if it is still this lock's (idempotent). */
  release(): void;
}

/** lock file path → token, for the locks this process holds (and releases at exit). */
const held = new Map<string, string>();
let exitHook = false;

function releaseAllAtExit(): void {
  for (const [file, token] of held) removeIfOurs(file, token);
  held.clear();
}

function removeIfOurs(file: string, token: string): void {
  try {
    if (readLock(file)?.token === token) fs.rmSync(file, { force: true });
  } catch {
    // already gone, or unreadable: nothing of ours to remove
  }
}

function readLock(file: string): LockInfo | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.pid === 'number' && typeof v.token === 'string') return { since: '', command: '', ...v } as LockInfo;
  } catch {
    // torn or foreign content
  }
  // A lock file being written right now (created, content not yet there) or garbage: pid unknown.
  return UNKNOWN_OWNER;
}

/** Whether a process with this pid exists (EPERM: it exists, owned by another user). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the exclusive lock of `dir` (which must exist). Throws DevnetLockedError when a live
 * process holds it, including this process through another open chain.
 */
export function lockDir(dir: string): DirLock {
  // (The data dir is only known at run time: keep Next's file tracing from including the whole project.)
  const file = path.join(/*turbopackIgnore: true*/ dir, LOCK_FILE);
  const info: LockInfo = {
    pid: process.pid,
    token: randomBytes(12).toString('hex'),
    since: new Date().toISOString(),
    command: process.argv.slice(1).join(' ').slice(0, 200),
  };
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const other = readLock(file); // undefined: released in the meantime
      if ((other && !isStale(file, other)) || attempt >= 2) throw lockedError(dir, other ?? UNKNOWN_OWNER);
      if (other) fs.rmSync(file, { force: true });
      continue;
    }
    try {
      fs.writeSync(fd, JSON.stringify(info) + '\n');
    } finally {
      fs.closeSync(fd);
    }
    break;
  }
  held.set(file, info.token);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', releaseAllAtExit);
  }
  return {
    path: file,
    release: () => {
      if (held.get(file) !== info.token) return;
      held.delete(file);
      removeIfOurs(file, info.token);
    },
  };
}

function isStale(file: string, other: LockInfo): boolean {
  // No pid: being written right now, or garbage a crash left between create and write.
  if (other.pid === 0) return fileAgeMs(file) > 5000;
  // Our own pid in a lock we do not hold: left by an earlier process that had the same pid.
  if (other.pid === process.pid) return !held.has(file);
  return !alive(other.pid);
}

function fileAgeMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

function lockedError(dir: string, other: LockInfo): DevnetLockedError {
  const who =
    other.pid > 0
      ? `process ${other.pid}${other.pid === process.pid ? ' (this process, through another open devnet)' : ''}` +
        (other.command ? ` (${other.command})` : '') +
        (other.since ? `, since ${other.since}` : '')
      : 'another process';
  return new DevnetLockedError(
    `${dir} is in use by ${who}: one devnet process per data directory (two would corrupt blocks.pack). ` +
      `Stop that process, or use another ATLAS_DATA_DIR; if no such process runs, delete ${path.join(dir, LOCK_FILE)}`,
  );
}
