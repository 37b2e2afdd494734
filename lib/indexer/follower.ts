// Follows the masterchain through the lite-client and indexes, for each masterchain block, the block
// itself, every shard block it registered that was not registered before (walking prev refs back to the
// previous top), and the states of the accounts those blocks touched — all in one database transaction.
import { Address } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema';
import type { PrismaClient } from '../db/generated/client';
import { isStateGone } from '../lite';
import type { Logger } from '../log';
import { parseAccountState, type AccountStateRecord } from './account-state';
import { ChainMismatchError, claimChain, type ChainIdentity } from './chain-identity';
import { BlockParser } from './block-parser';
import { mapConcurrent } from './concurrent';
import { MASTER_SHARD } from '../ton/shard';
import { registeredBy, shardBlockName, signedShard, type DownloadedBlock, type ShardBlockId } from './parse-block';
import type { ParsedBlock } from '../chain/records';
import { storeMasterchainBlock, type ShardStateEntry } from './store';
import { OpenTraces } from './open-traces';
import { databaseOf } from '../db/database';
import { PartitionKeeper, type PartitionKeeperOptions } from '../db/partitions';
import type { TableRows } from './sql';
import type { TvmPool } from '../tvm/pool';
import { Deriver, type DeriveSkips } from './derive';
import { backfillNeeded, runBackfill } from './derive/backfill';
import { runTraceBackfill, traceBackfillNeeded } from './trace-backfill';
import { ShardWatcher, type IndexerEvents } from './events';

/** A block id with its shard (unsigned). */
export type FullBlockId = ShardBlockId;

export interface FetchedBlock extends DownloadedBlock {
  id: FullBlockId;
}

export interface IndexerProgress {
  state: 'starting' | 'catching up' | 'live' | 'stopped' | 'error';
  lastIndexedSeqno: number | null;
  headSeqno: number | null;
  blocksPerSecond: number;
  transactionsPerSecond: number;
  etaSeconds: number | null;
  error?: string;
  /** Get-methods the derive stage could not use since the start (what the contract made of them: derive/getters.ts). */
  skipped?: DeriveSkips;
}

export interface IndexerOptions {
  prisma: PrismaClient;
  client: LiteClient;
  log: Logger;
  network: string;
  indexerId?: string;
  /** First masterchain seqno when the index is empty (default: 1, the first block after the zero state). */
  startSeqno?: number;
  /** How often to look for a new head once caught up. */
  pollMs?: number;
  /**
   * The TVM pool the derive stage runs get-methods in (lib/indexer/derive: token tables). Without one
   * the indexer stores blocks, transactions and states only.
   */
  tvm?: TvmPool;
  /** Partition size and how many ahead (lib/db/partitions.ts; tests use small ones). */
  partitions?: PartitionKeeperOptions;
  /**
   * Told of each masterchain block once committed, and (while live) of shard blocks seen before the
   * index commits them (events.ts): the Streaming API's finalized and confirmed events.
   */
  events?: IndexerEvents;
}

interface Prepared {
  /** The shard tops the masterchain block registered. */
  tops: FullBlockId[];
  blocks: ParsedBlock[];
  states: AccountStateRecord[];
  shardState: ShardStateEntry[];
  derived: TableRows[];
}

const toLiteId = (id: FullBlockId) => ({
  kind: 'tonNode.blockIdExt' as const,
  workchain: id.workchain,
  shard: signedShard(id.shard).toString(),
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});

export class Indexer {
  readonly progress: IndexerProgress = {
    state: 'starting',
    lastIndexedSeqno: null,
    headSeqno: null,
    blocksPerSecond: 0,
    transactionsPerSecond: 0,
    etaSeconds: null,
  };
  private readonly indexerId: string;
  /** Masterchain blocks by seqno, downloaded once for their own index and their successor's (shard tops). */
  private readonly mcBlocks = new Map<number, Promise<FetchedBlock>>();
  private stopped = false;
  private running?: Promise<void>;
  private wake?: () => void;
  /** The newest masterchain block whose state the liteserver said it no longer keeps (0: none yet). */
  private statesGoneUpTo = 0;
  /** Masterchain blocks being prepared ahead of the one being written (at most LOOKAHEAD). */
  private readonly ahead = new Map<number, Promise<Prepared>>();
  /** States at the head read for blocks whose own states are gone (see readAtHead). */
  private headStates?: { head: string; states: Map<string, Promise<AccountStateRecord>> };
  private readonly parser: BlockParser;
  /** The derive stage, when the indexer was given a TVM pool. */
  readonly deriver?: Deriver;
  /** The backfills run() started because the index predates the derive stage or trace assembly (resolves when they end). */
  backfill?: Promise<void>;
  private backfillChecked = false;
  private readonly partitions: PartitionKeeper;
  /** Announces shard blocks ahead of the index, when someone listens for them. */
  readonly watcher?: ShardWatcher;
  /**
   * Shard blocks the watcher downloaded ahead of the masterchain block that registers them, by blockKey:
   * collect takes them from here instead of downloading and parsing them again (at most SEEN_AHEAD_MAX).
   */
  private readonly seenAhead = new Map<string, Promise<FetchedBlock>>();
  // The records of traces still in flight after the blocks this process stored (open-traces.ts).
  private readonly openTraces = new OpenTraces(OPEN_TRACES_MAX_TRANSACTIONS);

  constructor(private readonly o: IndexerOptions) {
    this.indexerId = o.indexerId ?? 'main';
    this.parser = new BlockParser(o.log);
    this.partitions = new PartitionKeeper(databaseOf(o.prisma), o.partitions);
    if (o.tvm) {
      this.deriver = new Deriver({ prisma: o.prisma, lite: o.client, tvm: o.tvm, log: o.log });
      this.progress.skipped = this.deriver.skips;
    }
    const seen = o.events?.shardBlockSeen?.bind(o.events);
    if (seen) {
      this.watcher = new ShardWatcher({
        client: o.client,
        fetch: async (id) => (await this.fetchAhead(id)).parsed,
        onSeen: (b) => hook(o.log, 'shardBlockSeen', () => seen(b)),
        log: o.log,
      });
    }
  }

  /** The chain's identity from the liteserver; registers or checks it against the database. */
  async claim(): Promise<number | null> {
    const info = await this.o.client.getMasterchainInfo();
    const chain: ChainIdentity = { network: this.o.network, zeroStateRootHash: info.init.rootHash, zeroStateFileHash: info.init.fileHash };
    const last = await claimChain(this.o.prisma, this.indexerId, chain);
    this.progress.lastIndexedSeqno = last;
    this.progress.headSeqno = info.last.seqno;
    return last;
  }

  /** Indexes masterchain blocks [from, to] in order, then returns. */
  async indexRange(from: number, to: number): Promise<void> {
    for (let seqno = from; seqno <= to && !this.stopped; seqno++) await this.indexMasterchainBlock(seqno);
  }

  /**
   * Runs until stop(): catches up from the cursor, then follows the head (or, with `untilLive`, returns
   * once caught up). Failures of the chain or the database are retried with backoff from the stored
   * cursor; only another chain in the database (ChainMismatchError) ends the run.
   */
  run(opts: { untilLive?: boolean } = {}): Promise<void> {
    this.running ??= this.loop(opts.untilLive ?? false);
    return this.running;
  }

  private async loop(untilLive: boolean): Promise<void> {
    let backoffMs = 0;
    const window = new RateWindow();
    while (!this.stopped) {
      try {
        const last = await this.claim();
        if (!this.backfillChecked) await this.startBackfill();
        // An empty index starts at startSeqno, or 100 blocks behind the head (INDEXER_START_SEQNO).
        let next = last !== null ? last + 1 : (this.o.startSeqno ?? Math.max(1, (this.progress.headSeqno ?? 1) - 100));
        this.o.log.info({ from: next, head: this.progress.headSeqno }, 'indexing');
        while (!this.stopped) {
          const head = (await this.o.client.getMasterchainInfo()).last.seqno;
          this.progress.headSeqno = head;
          if (next > head) {
            this.progress.state = 'live';
            if (untilLive) return;
            this.watcher?.kick();
            await this.sleep(this.o.pollMs ?? 500);
            continue;
          }
          this.progress.state = head - next > 2 ? 'catching up' : 'live';
          const txs = await this.indexMasterchainBlock(next);
          this.o.log.debug({ seqno: next, transactions: txs }, 'indexed');
          backoffMs = 0;
          this.progress.error = undefined;
          window.add(txs);
          this.progress.lastIndexedSeqno = next;
          this.progress.blocksPerSecond = window.blocksPerSecond();
          this.progress.transactionsPerSecond = window.transactionsPerSecond();
          this.progress.etaSeconds = this.progress.blocksPerSecond > 0 ? Math.round((head - next) / this.progress.blocksPerSecond) : null;
          if (this.progress.state === 'catching up' && window.shouldReport()) {
            this.o.log.info({ seqno: next, head, lag: head - next, ...rounded(this.progress) }, 'catching up');
          }
          next++;
        }
      } catch (err) {
        if (this.stopped) break;
        this.progress.state = 'error';
        this.progress.error = (err as Error).message;
        if (err instanceof ChainMismatchError) throw err;
        backoffMs = Math.min(30_000, Math.max(500, backoffMs * 2));
        this.o.log.warn({ err: (err as Error).message, retryInMs: backoffMs }, 'indexing failed; retrying from the cursor');
        await this.sleep(backoffMs);
      }
    }
    this.progress.state = 'stopped';
  }

  /**
   * The backfills, in the background next to indexing, when the index holds data a stage never saw
   * (decided before the first block is indexed, so a fresh index never needs them): the derive backfill
   * (token tables), then the trace backfill (traces and actions of transactions indexed before trace
   * assembly), which classifies with the token tables the first one filled. A failure is logged; the
   * job resumes at the next start.
   */
  private async startBackfill(): Promise<void> {
    const deriver = this.deriver;
    const deriveNeeded = !!deriver && (await backfillNeeded(this.o.prisma));
    const tracesNeeded = await traceBackfillNeeded(this.o.prisma);
    this.backfillChecked = true;
    if (!deriveNeeded && !tracesNeeded) return;
    const log = this.o.log;
    const shouldStop = () => this.stopped;
    this.backfill = (async () => {
      if (deriver && deriveNeeded) {
        await runBackfill({ prisma: this.o.prisma, deriver, log, shouldStop }).catch((err: unknown) =>
          log.warn({ err: (err as Error).message }, 'derive backfill failed; it resumes at the next start'),
        );
      }
      if (tracesNeeded && !this.stopped) {
        await runTraceBackfill({ prisma: this.o.prisma, log, shouldStop }).catch((err: unknown) =>
          log.warn({ err: (err as Error).message }, 'trace backfill failed; it resumes at the next start'),
        );
      }
    })();
  }

  /** Stops after the block in progress; resolves once the loop has exited. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running?.catch(() => undefined);
    await this.backfill;
    await Promise.all([...this.ahead.values()].map((w) => w.catch(() => undefined)));
    await this.parser.close();
  }

  /**
   * Indexes one masterchain block with its new shard blocks; returns the number of transactions.
   * `aheadUntil`: the last block worth preparing ahead (default the head); `advance: false` leaves the
   * follower's cursor alone (a range backfill).
   */
  async indexMasterchainBlock(seqno: number, opts: { aheadUntil?: number; advance?: boolean } = {}): Promise<number> {
    const ready = this.ahead.get(seqno) ?? this.prepare(seqno);
    for (const s of this.ahead.keys()) if (s <= seqno || s > seqno + LOOKAHEAD) this.ahead.delete(s);
    // While catching up, download and parse the next blocks while this one is written: the database
    // and the parse workers work in parallel. LOOKAHEAD blocks ahead at most keeps memory bounded.
    const head = opts.aheadUntil ?? this.progress.headSeqno;
    for (let next = seqno + 1; head !== null && next <= Math.min(head, seqno + LOOKAHEAD) && !this.stopped; next++) {
      if (this.ahead.has(next)) continue;
      const work = this.prepare(next);
      work.catch(() => undefined); // its error, if any, is reported when that block is indexed
      this.ahead.set(next, work);
    }
    const { tops, blocks, states, shardState, derived } = await ready;
    await this.ensurePartitions(seqno);
    const { traceIds, latest } = await storeMasterchainBlock(this.o.prisma, blocks, { indexerId: this.indexerId, mcSeqno: seqno, advance: opts.advance }, states, shardState, derived, this.openTraces);
    const transactions = blocks.reduce((n, p) => n + p.transactions.length, 0);
    if (opts.advance !== false) {
      this.watcher?.committed(seqno, tops);
      const committed = this.o.events?.committed?.bind(this.o.events);
      if (committed) hook(this.o.log, 'committed', () => committed({ mcSeqno: seqno, traceIds, states: latest.map(({ account, hash }) => ({ account, hash })), transactions, at: Date.now() }));
    }
    return transactions;
  }

  /**
   * The partitions of the block's seqno and the next ones, before its rows are written (PostgreSQL). If
   * that fails (a lock not granted in time), the rows go to the DEFAULT partition and are moved out when
   * a later block's ensure creates their partition: logged, never a reason to stop indexing.
   */
  private async ensurePartitions(seqno: number): Promise<void> {
    try {
      const created = await this.partitions.ensure(seqno);
      for (const p of created) this.o.log.info({ table: p.table, partition: p.name, from: p.from, to: p.to }, 'indexer: partition created');
    } catch (err) {
      this.o.log.warn({ err: (err as Error).message, seqno }, 'indexer: creating partitions failed; retried at the next block');
    }
  }

  /** Everything a masterchain block's rows are made of, before anything is written. */
  private async prepare(seqno: number): Promise<Prepared> {
    const { blocks, mc, shardState } = await this.collect(seqno);
    // Following the head, its shard blocks are news before the block is committed: confirmed, not yet finalized.
    if (this.watcher && this.progress.state === 'live') for (const b of blocks.slice(1)) this.watcher.announce(blockIdOf(b), b);
    const states = await this.accountStates(blocks, mc);
    // Get-methods run here, while earlier blocks are written, never inside the database transaction.
    const header = mc.parsed.block;
    const derived = this.deriver
      ? await this.deriver.derive({ mcSeqno: seqno, blocks, states, at: { id: toLiteId(mc.id), utime: mc.genUtime, keySeqno: header.keyBlock ? seqno : header.prevKeyBlockSeqno } })
      : [];
    return { tops: mc.shardTops, blocks, shardState, states, derived };
  }

  /**
   * Downloads and parses one masterchain block and every shard block it registered that the previous
   * masterchain block had not: from each of its shard tops back along prev refs (its shard's previous
   * block; the parent after a split; both halves after a merge) to the blocks the previous masterchain
   * block named as tops (or the zero state). Masterchain block first, then the shard blocks oldest
   * first: each after the blocks it follows.
   */
  async collect(seqno: number): Promise<{ blocks: ParsedBlock[]; mc: FetchedBlock; shardState: ShardStateEntry[] }> {
    const mc = await this.masterchainBlock(seqno);
    const prevTops = new Set(seqno > 1 ? (await this.masterchainBlock(seqno - 1)).shardTops.map(blockKey) : []);
    const found = new Map<string, FetchedBlock>();
    // A level at a time: the tops, then what they follow, ... each level's blocks downloaded together.
    let level: FullBlockId[] = mc.shardTops;
    while (level.length > 0) {
      const fresh = [...new Map(level.filter((id) => id.seqno > 0 && !prevTops.has(blockKey(id)) && !found.has(blockKey(id))).map((id) => [blockKey(id), id])).values()];
      if (found.size + fresh.length > MAX_NEW_SHARD_BLOCKS) {
        throw new Error(`masterchain block ${seqno}: walking back from its shard tops found over ${MAX_NEW_SHARD_BLOCKS} blocks without reaching masterchain block ${seqno - 1}'s`);
      }
      const blocks = await Promise.all(fresh.map((id) => this.takeSeenAhead(id, seqno) ?? this.fetchBlock(id, seqno)));
      blocks.forEach((b) => found.set(blockKey(b.id), b));
      level = blocks.flatMap((b) => b.prevs);
    }
    const shardBlocks = [...found.values()].sort((a, b) => a.id.seqno - b.id.seqno || a.id.workchain - b.id.workchain || (a.id.shard < b.id.shard ? -1 : a.id.shard > b.id.shard ? 1 : 0));
    const blocks = [mc, ...shardBlocks].map((b) => b.parsed);
    const shardState = [mc.id, ...mc.shardTops].map((id) => ({ workchain: id.workchain, shard: signedShard(id.shard), seqno: id.seqno }));
    return { blocks, mc, shardState };
  }

  /** A masterchain block, downloaded once while it or its successor is being prepared. */
  private masterchainBlock(seqno: number): Promise<FetchedBlock> {
    let block = this.mcBlocks.get(seqno);
    if (!block) {
      block = this.fetchMasterchainBlock(seqno);
      this.mcBlocks.set(seqno, block);
      const mine = block;
      mine.catch(() => this.mcBlocks.get(seqno) === mine && this.mcBlocks.delete(seqno)); // a failed download is tried again
      // Bounded: the blocks being prepared and their predecessors.
      for (const s of this.mcBlocks.keys()) if (s < seqno - LOOKAHEAD - 1 || s > seqno + LOOKAHEAD + 1) this.mcBlocks.delete(s);
    }
    return block;
  }

  private async fetchMasterchainBlock(seqno: number): Promise<FetchedBlock> {
    const header = await this.o.client.lookupBlockByID({ workchain: -1, shard: MASTER_SHARD.toString(), seqno });
    const id = header.id;
    const full = { workchain: id.workchain, shard: BigInt.asUintN(64, BigInt(id.shard)), seqno: id.seqno, rootHash: id.rootHash, fileHash: id.fileHash };
    return this.fetchBlock(full, seqno);
  }

  /** A shard block downloaded for the watcher, before the masterchain block registering it is known, kept for collect. */
  private fetchAhead(id: FullBlockId): Promise<FetchedBlock> {
    const key = blockKey(id);
    const block = this.fetchBlock(id, 0);
    this.seenAhead.set(key, block);
    block.catch(() => this.seenAhead.get(key) === block && this.seenAhead.delete(key)); // downloaded again by collect
    // Oldest first out: a block collect downloaded itself before the watcher's copy came does not stay.
    for (const k of this.seenAhead.keys()) if (this.seenAhead.size > SEEN_AHEAD_MAX) this.seenAhead.delete(k);
    return block;
  }

  /** The block the watcher downloaded, as registered by masterchain block mcBlockSeqno (taken: used once). */
  private takeSeenAhead(id: FullBlockId, mcBlockSeqno: number): Promise<FetchedBlock> | undefined {
    const key = blockKey(id);
    const block = this.seenAhead.get(key);
    if (!block) return undefined;
    this.seenAhead.delete(key);
    return block.then((b) => ({ ...b, id, parsed: registeredBy(b.parsed, mcBlockSeqno) }));
  }

  /** Downloads a block and parses it (on the parse worker) as registered by masterchain block mcBlockSeqno. */
  private async fetchBlock(id: FullBlockId, mcBlockSeqno: number): Promise<FetchedBlock> {
    const res = await this.o.client.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: toLiteId(id) }, { timeout: 15_000 });
    try {
      // The parser refuses bytes whose root hash is not the block we asked for.
      return { id, ...(await this.parser.parse(res.data, id, mcBlockSeqno)) };
    } catch (err) {
      throw new Error(`block ${shardBlockName(id)}: ${(err as Error).message}`);
    }
  }

  /**
   * The state of every account these blocks touched, as of the masterchain block, read a few accounts at
   * a time (real liteservers answer in parallel). A liteserver that no longer keeps that block's state
   * (non-archival nodes, a devnet reopened from disk) gets asked for the state at its head instead: a
   * real, newer state of the account, which latest_account_states' newer-only rule keeps correct.
   */
  private async accountStates(blocks: ParsedBlock[], mc: FetchedBlock): Promise<AccountStateRecord[]> {
    const accounts = [...new Set(blocks.flatMap((b) => b.transactions.map((t) => t.account)))];
    const at = { id: toLiteId(mc.id), utime: mc.genUtime };
    let head: Promise<{ id: ReturnType<typeof toLiteId>; utime: number }> | undefined;
    const headState = () =>
      (head ??= this.o.client.getMasterchainInfoExt().then((info) => ({ id: { ...info.last, kind: 'tonNode.blockIdExt' as const }, utime: info.lastUtime })));
    const read = async (account: string, where: { id: ReturnType<typeof toLiteId>; utime: number }) => {
      const st = await this.o.client.getAccountState(Address.parseRaw(account), where.id);
      const lastTx = st.lastTx ? { lt: st.lastTx.lt, hash: Buffer.from(st.lastTx.hash.toString(16).padStart(64, '0'), 'hex') } : null;
      return parseAccountState(account, st.raw, lastTx, where.utime);
    };
    return mapConcurrent(accounts, ACCOUNT_STATE_CONCURRENCY, async (account) => {
      // Once a block's state is gone, so are the states of every older block: no need to ask again.
      if (mc.id.seqno <= this.statesGoneUpTo) return this.readAtHead(account, await headState(), read);
      try {
        return await read(account, at);
      } catch (err) {
        if (!isStateGone(err)) throw err;
        const first = this.statesGoneUpTo === 0;
        this.statesGoneUpTo = Math.max(this.statesGoneUpTo, mc.id.seqno);
        if (first) {
          this.o.log.warn(
            { seqno: mc.id.seqno, err: (err as Error).message },
            'the liteserver no longer keeps the states of old blocks; indexing their accounts with the states at the head',
          );
        }
        return this.readAtHead(account, await headState(), read);
      }
    });
  }

  /**
   * An account's state at the head, read once per head: while catching up old blocks, the same
   * accounts come back block after block, and their state at an unchanged head is the same record.
   */
  private readAtHead<H extends { id: { rootHash: Buffer }; utime: number }>(
    account: string,
    head: H,
    read: (account: string, where: H) => Promise<AccountStateRecord>,
  ): Promise<AccountStateRecord> {
    const key = head.id.rootHash.toString('hex');
    if (this.headStates?.head !== key || this.headStates.states.size >= HEAD_STATES_MAX) this.headStates = { head: key, states: new Map() };
    const states = this.headStates.states;
    let state = states.get(account);
    if (!state) {
      state = read(account, head);
      states.set(account, state);
      state.catch(() => states.delete(account)); // a failed read is asked again, not remembered
    }
    return state;
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }
}

// Masterchain blocks prepared ahead of the one being written while catching up.
const LOOKAHEAD = 2;
// Account states read at once: enough to hide a real liteserver's round trips, few enough not to flood it.
const ACCOUNT_STATE_CONCURRENCY = 8;
// Head states remembered at most (each holds the account's code and data BoCs): bounded memory.
const HEAD_STATES_MAX = 20_000;

// Transactions of traces in flight held in memory at most (each with its messages and bodies: about
// 2–3 KB, so ~150 MB): a busy chain's traces rarely stay open over a few masterchain blocks.
const OPEN_TRACES_MAX_TRANSACTIONS = 50_000;

// Shard blocks kept from the watcher's downloads (each with its rows in memory): it looks 4 blocks past
// each shard top, and the next masterchain block or two take them; room for a poll of 16 shards.
const SEEN_AHEAD_MAX = 64;

// Shard blocks one masterchain block may register: mainnet's collator registers at most 8 per shard
// (a chain of unregistered blocks), a split or merge a few more; far past that the walk has gone wrong.
const MAX_NEW_SHARD_BLOCKS = 1024;

/** A block's identity (hashes included): prev refs and shard tops name the same block the same way. */
const blockKey = (id: FullBlockId) => `${shardBlockName(id)}:${id.rootHash.toString('hex')}`;

const blockIdOf = ({ block: b }: ParsedBlock): FullBlockId => ({ workchain: b.workchain, shard: BigInt.asUintN(64, b.shard), seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash });

/** Calls a listener's hook; whatever it does wrong is logged, never the indexer's failure. */
function hook(log: Logger, name: string, call: () => void) {
  try {
    call();
  } catch (err) {
    log.error({ err: (err as Error).message, hook: name }, 'indexer: an event listener failed');
  }
}

/** Rates over the last ~10 s, for progress logs and /api/health (and the range backfill's). */
export class RateWindow {
  private samples: { at: number; txs: number }[] = [];
  private lastReport = 0;
  add(txs: number) {
    const now = Date.now();
    this.samples.push({ at: now, txs });
    while (this.samples.length > 1 && now - this.samples[0]!.at > 10_000) this.samples.shift();
  }
  private span() {
    return this.samples.length > 1 ? (this.samples.at(-1)!.at - this.samples[0]!.at) / 1000 : 0;
  }
  blocksPerSecond() {
    const s = this.span();
    return s > 0 ? (this.samples.length - 1) / s : 0;
  }
  transactionsPerSecond() {
    const s = this.span();
    return s > 0 ? this.samples.slice(1).reduce((n, x) => n + x.txs, 0) / s : 0;
  }
  /** True at most once per `everyMs` (the first call included). */
  shouldReport(everyMs = 5_000) {
    const now = Date.now();
    if (now - this.lastReport < everyMs) return false;
    this.lastReport = now;
    return true;
  }
}

const rounded = (p: IndexerProgress) => ({
  blocksPerSecond: +p.blocksPerSecond.toFixed(1),
  transactionsPerSecond: +p.transactionsPerSecond.toFixed(1),
  etaSeconds: p.etaSeconds,
});
