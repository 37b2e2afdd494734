// What the indexer tells whoever listens (the Streaming API, passed in by the process that runs it):
// each masterchain block it commits, after its database transaction committed, and each shard block it
// sees before its own index commits it — the lite server's published, hash-checked blocks, announced
// once each. The listener must not slow indexing: hooks are called and not awaited.
import type { LiteClient } from 'ton-lite-client';
import type { Logger } from '../log';
import type { FullBlockId } from './follower';
import { shardBlockName } from './parse-block';
import { shardsIntersect } from '../ton/shard';
import type { ParsedBlock } from '../chain/records';

/** A masterchain block and its shard blocks, committed. */
export interface CommittedBlock {
  mcSeqno: number;
  /** The traces its transactions joined or started. */
  traceIds: Buffer[];
  /** Each account its transactions touched, with the hash of the state it was left in. */
  states: { account: string; hash: Buffer }[];
  transactions: number;
  /** When the database transaction committed (ms since the epoch). */
  at: number;
}

/** A shard block the lite server serves that no masterchain block in the index has committed yet. */
export interface SeenShardBlock {
  id: FullBlockId;
  block: ParsedBlock;
  /** The newest masterchain block the index held when it was seen. */
  mcSeqno: number;
}

export interface IndexerEvents {
  committed?(c: CommittedBlock): void;
  shardBlockSeen?(s: SeenShardBlock): void;
}

/**
 * Whether `id` is at or below the committed top of a shard it overlaps: in the index already, not ahead
 * of it. Across a split a child's first seqno is its parent's last + 1, across a merge the merged shard's
 * is its children's highest + 1, so a lower or equal seqno in an overlapping shard is committed history.
 */
export function committedBy(tops: readonly FullBlockId[], id: { workchain: number; shard: bigint; seqno: number }): boolean {
  return tops.some((t) => t.workchain === id.workchain && shardsIntersect(t.shard, id.shard) && id.seqno <= t.seqno);
}

/** Shard blocks looked for past each shard's committed top, at most. */
const AHEAD = 4;

/**
 * Announces shard blocks ahead of the index: those the lite server already serves past the shard tops of
 * the newest indexed masterchain block (poll), and those of the masterchain block being indexed, before
 * its commit (announce). Each block once.
 */
export class ShardWatcher {
  private tops: FullBlockId[] = [];
  private mcSeqno = 0;
  /** The blocks announced and not yet committed, by shardBlockName. */
  private readonly announced = new Map<string, { workchain: number; shard: bigint; seqno: number }>();
  private polling?: Promise<void>;

  constructor(
    private readonly o: {
      client: LiteClient;
      fetch: (id: FullBlockId) => Promise<ParsedBlock>;
      onSeen: (s: SeenShardBlock) => void;
      log: Logger;
    },
  ) {}

  /** The shard tops masterchain block `mcSeqno` registered, now in the index: nothing up to them is ahead any more. */
  committed(mcSeqno: number, tops: FullBlockId[]): void {
    this.mcSeqno = mcSeqno;
    this.tops = tops;
    for (const [name, id] of this.announced) {
      const top = tops.find((t) => t.workchain === id.workchain && t.shard === id.shard);
      if (!top || id.seqno <= top.seqno) this.announced.delete(name);
    }
  }

  /**
   * A shard block about to be committed (downloaded for the masterchain block being indexed), or one a
   * poll found. A poll reads the tops when it starts and announces after a download: by then the index
   * may have committed the block (and forgotten it was announced), and its confirmed traces would follow
   * their own finalized ones on the stream, a finality going down. The tops are checked again here.
   */
  announce(id: FullBlockId, block: ParsedBlock): void {
    const name = shardBlockName(id);
    if (id.workchain === -1 || this.announced.has(name) || committedBy(this.tops, id)) return;
    this.announced.set(name, { workchain: id.workchain, shard: id.shard, seqno: id.seqno });
    this.o.onSeen({ id, block, mcSeqno: this.mcSeqno });
  }

  /**
   * Starts a poll unless one is under way, and returns at once: a lite server slow to say it has no such
   * block yet must not hold the follower up.
   */
  kick(): void {
    this.polling ??= this.poll().finally(() => (this.polling = undefined));
  }

  /** Looks for the blocks after each committed shard top that the lite server already serves. */
  async poll(): Promise<void> {
    for (const top of this.tops) {
      for (let seqno = top.seqno + 1; seqno <= top.seqno + AHEAD; seqno++) {
        const id = { workchain: top.workchain, shard: top.shard, seqno };
        if (this.announced.has(shardBlockName(id))) continue;
        let header;
        try {
          header = await this.o.client.lookupBlockByID({ workchain: top.workchain, shard: BigInt.asIntN(64, top.shard).toString(), seqno });
        } catch {
          break; // not produced yet (or not served): nothing further along either
        }
        const full = { ...id, rootHash: header.id.rootHash, fileHash: header.id.fileHash };
        try {
          this.announce(full, await this.o.fetch(full));
        } catch (err) {
          this.o.log.debug({ err: (err as Error).message, block: shardBlockName(id) }, 'shard block ahead: download failed');
          break;
        }
      }
    }
  }
}
