/**
 * The devnet directory ($ATLAS_DATA_DIR/devnet) apart from the block files:
 *
 *   chain.json        identity: seed, zero state ids, global id. Written last when a devnet is
 *                     created (after its zero states and first round), so its presence means
 *                     "a devnet lives here"; without it the directory is started afresh.
 *   zerostate.boc     the two zero states (masterchain, basechain) as one two-root BoC.
 *   state.boc/.json   the newest state snapshot (the masterchain's, then every basechain shard's)
 *                     and the round it belongs to, rewritten every few hundred rounds and on
 *                     shutdown. A restart loads it and replays the blocks after it (each block's
 *                     MERKLE_UPDATE carries its changes).
 *   genesis.json      the genesis accounts (lib/devnet/genesis).
 *   global-config.json  TON global config pointing at the ADNL server.
 * Writes go to a temporary file that is then renamed, so a crash never leaves half a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Cell } from '@ton/core';
import { serializeBoc } from '../ton';
import type { ShardSchedule } from './shard-config';

export interface ZeroStateId {
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface ChainIdentity {
  /** 1: made before shards (blocks.idx records without a shard id); 2: with them. */
  format: 1 | 2;
  /** DEVNET_SHARDS it was created with (1 for format 1). */
  shards: number;
  /** DEVNET_SHARD_SCHEDULE it was created with (its ConfigParam 12 allows one more level when not off). */
  shardSchedule: ShardSchedule;
  /** The seed everything derives from (genesis keys, ADNL key, zero state). */
  seed: string;
  /** Whether the seed was given (--seed / DEVNET_SEED) rather than drawn at random. */
  seeded: boolean;
  globalId: number;
  /** gen_utime of the zero states. */
  genesisTime: number;
  zeroState: { masterchain: ZeroStateId; basechain: ZeroStateId };
  createdAt: string;
}

interface ZeroStateJson {
  root_hash: string;
  file_hash: string;
}

/** Both chains' zero-state ids, each converted by `f` (chain.json's form to ChainIdentity's, or back). */
const bothChains = <A, B>(z: { masterchain: A; basechain: A }, f: (id: A) => B) => ({ masterchain: f(z.masterchain), basechain: f(z.basechain) });

interface ChainJson {
  format: 1 | 2;
  shards?: number;
  shard_schedule?: string;
  seed: string;
  seeded: boolean;
  global_id: number;
  genesis_time: number;
  zero_state: { masterchain: ZeroStateJson; basechain: ZeroStateJson };
  created_at: string;
}

export const CHAIN_FILE = 'chain.json';
const ZEROSTATE_FILE = 'zerostate.boc';
const SNAPSHOT_FILE = 'state.boc';
const SNAPSHOT_META = 'state.json';

export function writeFileAtomic(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

const hex = (b: Buffer) => b.toString('hex');

/** A schedule as DEVNET_SHARD_SCHEDULE writes it. */
export function scheduleText(s: ShardSchedule): string {
  return s.kind === 'off' ? 'off' : `cycle:${s.rounds}`;
}

function parseSchedule(text: string): ShardSchedule {
  const m = /^cycle:(\d+)$/.exec(text);
  return m ? { kind: 'cycle', rounds: Number(m[1]) } : { kind: 'off' };
}
const unhex = (s: string) => Buffer.from(s, 'hex');

export function readIdentity(dir: string): ChainIdentity | undefined {
  const file = path.join(dir, CHAIN_FILE);
  if (!fs.existsSync(file)) return undefined;
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as ChainJson;
  if (j.format !== 1 && j.format !== 2) throw new Error(`${file}: unknown format ${String(j.format)}`);
  return {
    format: j.format,
    shards: j.shards ?? 1,
    shardSchedule: parseSchedule(j.shard_schedule ?? 'off'),
    seed: j.seed,
    seeded: j.seeded,
    globalId: j.global_id,
    genesisTime: j.genesis_time,
    zeroState: bothChains(j.zero_state, (z) => ({ rootHash: unhex(z.root_hash), fileHash: unhex(z.file_hash) })),
    createdAt: j.created_at,
  };
}

export function writeIdentity(dir: string, id: ChainIdentity): void {
  const j: ChainJson = {
    format: id.format,
    ...(id.format === 2 ? { shards: id.shards, shard_schedule: scheduleText(id.shardSchedule) } : {}),
    seed: id.seed,
    seeded: id.seeded,
    global_id: id.globalId,
    genesis_time: id.genesisTime,
    zero_state: bothChains(id.zeroState, (z) => ({ root_hash: hex(z.rootHash), file_hash: hex(z.fileHash) })),
    created_at: id.createdAt,
  };
  writeFileAtomic(path.join(dir, CHAIN_FILE), JSON.stringify(j, null, 2) + '\n');
}

export function writeZeroStates(dir: string, mc: Cell, basechain: Cell): void {
  writeFileAtomic(path.join(dir, ZEROSTATE_FILE), serializeBoc([mc, basechain]));
}

export function readZeroStates(dir: string): { mc: Cell; basechain: Cell } {
  const roots = Cell.fromBoc(fs.readFileSync(path.join(dir, ZEROSTATE_FILE)));
  if (roots.length !== 2) throw new Error(`${ZEROSTATE_FILE}: expected 2 roots, got ${roots.length}`);
  return { mc: roots[0], basechain: roots[1] };
}

export interface StateSnapshot {
  seqno: number;
  mc: Cell;
  /** Every basechain shard's state (each names its shard). */
  basechain: Cell[];
}

export function writeSnapshot(dir: string, snap: StateSnapshot): void {
  writeFileAtomic(path.join(dir, SNAPSHOT_FILE), serializeBoc([snap.mc, ...snap.basechain]));
  writeFileAtomic(
    path.join(dir, SNAPSHOT_META),
    JSON.stringify({ seqno: snap.seqno, masterchain: hex(snap.mc.hash()), basechain: snap.basechain.map((c) => hex(c.hash())) }) + '\n',
  );
}

/** The snapshot, or undefined when absent or unreadable (the chain then replays from the zero state). */
export function readSnapshot(dir: string): StateSnapshot | undefined {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, SNAPSHOT_META), 'utf8')) as { seqno: number; masterchain: string; basechain: string | string[] };
    const roots = Cell.fromBoc(fs.readFileSync(path.join(dir, SNAPSHOT_FILE)));
    // (Snapshots of devnets made before shards name their one basechain state as a string.)
    const shards = typeof meta.basechain === 'string' ? [meta.basechain] : meta.basechain;
    if (roots.length !== 1 + shards.length || hex(roots[0].hash()) !== meta.masterchain || shards.some((h, i) => hex(roots[i + 1].hash()) !== h)) return undefined;
    return { seqno: meta.seqno, mc: roots[0], basechain: roots.slice(1) };
  } catch {
    return undefined;
  }
}

/** Removes everything a devnet keeps in `dir` (a fresh start where no chain.json commits the old one). */
export function clearChainFiles(dir: string): void {
  for (const f of [CHAIN_FILE, ZEROSTATE_FILE, SNAPSHOT_FILE, SNAPSHOT_META, 'blocks.pack', 'blocks.idx']) {
    // (The data dir is only known at run time: keep Next's file tracing from including the whole project.)
    fs.rmSync(path.join(/*turbopackIgnore: true*/ dir, f), { force: true });
  }
}
