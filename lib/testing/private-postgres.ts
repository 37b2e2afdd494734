// A private PostgreSQL server for tests that must stop and start the server itself (the crash-safety
// test restarts it under the indexer; the replica test stops a streaming replica of it): initdb into a
// temporary directory, pg_ctl on a free port, its socket in that directory. The binaries come from /usr/lib/postgresql/<version>/bin (Debian's layout);
// PostgreSQL refuses to run as root, so as root every command runs as the `postgres` OS user, who is
// given the directory.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const BIN_ROOT = '/usr/lib/postgresql';

/** The newest installed server's bin directory; a clear error (not a skip) when there is none. */
export function postgresBinDir(): string {
  const versions = fs.existsSync(BIN_ROOT) ? fs.readdirSync(BIN_ROOT).filter((v) => fs.existsSync(path.join(BIN_ROOT, v, 'bin', 'pg_ctl'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest || !fs.existsSync(path.join(BIN_ROOT, newest, 'bin', 'initdb'))) {
    throw new Error(`no PostgreSQL server binaries (initdb, pg_ctl) under ${BIN_ROOT}/*/bin: install the server package (Debian: postgresql)`);
  }
  return path.join(BIN_ROOT, newest, 'bin');
}

/** A TCP port on 127.0.0.1 nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PrivatePostgres {
  port: number;
  /** Connection URL of a database on this server (superuser postgres, trust auth). */
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** pg_ctl stop: `fast` disconnects clients and checkpoints; `immediate` aborts (crash recovery at start). */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /**
   * A hot standby of this server streaming its WAL (pg_basebackup -R into a directory of its own, started
   * on another free port): every database of this one, read-only, a moment behind. Destroy it before this.
   */
  startReplica(): Promise<PrivatePostgres>;
  /** Stops the server (if running) and deletes its directory; safe to call twice. */
  destroy(): Promise<void>;
}

type Tool = (name: string, args: string[]) => Promise<unknown>;

/** A temporary directory the server may own, and the way to run its binaries there. */
async function serverDir(): Promise<{ dir: string; tool: Tool }> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-pg-'));
  if (process.getuid?.() !== 0) return { dir, tool: (name, args) => run(path.join(bin, name), args) };
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  return { dir, tool: (name, args) => run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) };
}

/** The server whose data directory is `dir`/data, listening on `port` (not started). */
function serverAt(dir: string, tool: Tool, port: number): PrivatePostgres {
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  let running = false;
  const pgCtl = async (args: string[]) => {
    try {
      await tool('pg_ctl', ['-D', data, '-w', '-t', '60', ...args]);
    } catch (err) {
      const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`pg_ctl ${args[0]} failed: ${(err as Error).message}\n${log}`);
    }
  };
  const server: PrivatePostgres = {
    port,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      const c = new pg.Client({ connectionString: server.url('postgres') });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await c.end();
      }
      return server.url(name);
    },
    async start() {
      await pgCtl(['start', '-l', logFile, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`]);
      running = true;
    },
    async stop(mode) {
      await pgCtl(['stop', '-m', mode]);
      running = false;
    },
    async startReplica() {
      const { dir: replicaDir, tool: replicaTool } = await serverDir();
      const replica = serverAt(replicaDir, replicaTool, await freePort());
      try {
        // -R writes standby.signal and primary_conninfo; -X stream copies the WAL written meanwhile;
        // a fast checkpoint starts the copy at once. initdb's pg_hba trusts replication from 127.0.0.1.
        await replicaTool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-D', path.join(replicaDir, 'data'), '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
        await replica.start();
      } catch (err) {
        await replica.destroy();
        throw err;
      }
      return replica;
    },
    async destroy() {
      if (running) await server.stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A new server: initdb (wal_level replica and WAL senders are PostgreSQL's defaults, so it can have replicas). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const { dir, tool } = await serverDir();
  const server = serverAt(dir, tool, await freePort());
  try {
    await tool('initdb', ['-D', path.join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await server.start();
  } catch (err) {
    await server.destroy();
    throw err;
  }
  return server;
}
