// Publishes what Atlas's own pipeline commits, at the finality it reached, and nothing before it is
// committed there: a pending trace once its emulation is in the pending store (lib/pending calls
// pendingStored), a confirmed one once the transactions of a shard block seen ahead of the index are
// stored there too (the indexer's shardBlockSeen), a finalized one — with the account states, jetton
// wallets and the block — once the indexer's database transaction committed (its committed hook). Work is
// done in the order it was reported, one piece at a time, so a trace's events leave in rising order.
// In the indexing process it also judges what was streamed below finalized (invalidation.ts).
import type { V3Context } from '../api/v3/context';
import type { CommittedBlock, IndexerEvents, SeenShardBlock } from '../indexer/events';
import type { Logger } from '../log';
import type { PendingEntry, PendingTraces } from '../pending';
import { committedEvents, entryEvent } from './build';
import type { EventBus } from './bus';
import { ConfirmedLinks, confirmedTraces } from './confirmed';
import type { StreamEvent, TraceEvent } from './events';
import { InvalidationTracker } from './invalidation';

export interface PublisherOptions {
  bus: EventBus;
  /** Reads for rendering (the primary database: it must see what was just committed). */
  ctx: V3Context;
  log: Logger;
  /** The pending store's owner: confirmed traces are kept there before they are published. */
  pending?: PendingTraces;
  /**
   * How long a trace streamed pending or confirmed may wait to be finalized before it is declared void
   * (in the indexing process only); default 2 minutes.
   */
  landingMs?: number;
  /** How often traces that never landed are looked for (default 5 s). */
  expiryCheckMs?: number;
}

export class StreamPublisher {
  private chain: Promise<void> = Promise.resolve();
  /** Predictions being published, by external message hash. */
  private readonly predictions = new Map<string, Promise<void>>();
  private tracker?: InvalidationTracker;
  private readonly links = new ConfirmedLinks();
  private expiry?: NodeJS.Timeout;
  private unobserve?: () => void;

  constructor(private readonly o: PublisherOptions) {}

  /**
   * PendingTraces' onStored: a prediction (or confirmed data) is in the pending store. Predictions go out
   * at once, beside the queue: the confirmed data of the same message waits for them (confirm).
   */
  readonly pendingStored = (entry: PendingEntry): void => {
    // Confirmed entries are published by the work that stored them (shardBlockSeen), in order.
    if (entry.finality === 'confirmed') return;
    const hash = entry.externalHash;
    const work = entryEvent(this.o.ctx, entry)
      .then((e) => this.publish(e))
      .catch((err: unknown) => this.o.log.warn({ component: 'stream', err: (err as Error).message, what: 'pending trace' }, 'stream: an event could not be published'));
    this.predictions.set(hash, work);
    void work.finally(() => this.predictions.get(hash) === work && this.predictions.delete(hash));
  };

  /**
   * The indexer's listener. Judging invalidations belongs to the process that indexes: it alone sees
   * every trace finalized (it learns the predictions of other processes from the bus). `confirmed`:
   * take shard blocks seen ahead of the index (STREAM_CONFIRMED).
   */
  indexerEvents(opts: { confirmed: boolean } = { confirmed: true }): IndexerEvents {
    if (!this.tracker) {
      const tracker = (this.tracker = new InvalidationTracker(this.o.landingMs ?? 120_000));
      this.unobserve = this.o.bus.subscribe((e) => e.kind === 'trace' && e.finality === 'pending' && tracker.observe(e));
      this.expiry = setInterval(() => this.enqueue('expiry', async () => this.publishAll(tracker.expired())), this.o.expiryCheckMs ?? 5_000);
      this.expiry.unref();
    }
    return {
      committed: (c: CommittedBlock) => this.enqueue('committed block', () => this.publishAll(committedEvents(this.o.ctx, c))),
      shardBlockSeen: this.o.pending && opts.confirmed ? (s: SeenShardBlock) => this.enqueue('shard block', () => this.confirm(s)) : undefined,
    };
  }

  private async confirm(s: SeenShardBlock): Promise<void> {
    for (const trace of confirmedTraces(s, this.links)) {
      // A prediction still being made goes out first: a trace's finality only rises.
      await this.o.pending!.settled(trace.externalHash);
      await this.predictions.get(trace.externalHash);
      const entry = await this.o.pending!.confirm(trace);
      await this.publish(await entryEvent(this.o.ctx, entry));
    }
  }

  private async publishAll(events: Iterable<StreamEvent> | AsyncIterable<StreamEvent>): Promise<void> {
    for await (const e of events) await this.publish(e);
  }

  private async publish(e: StreamEvent): Promise<void> {
    if (e.kind === 'trace' && this.tracker && e.finality !== 'pending') {
      const invalidated = this.tracker.judge(e);
      if (invalidated) await this.o.bus.publish(invalidated);
      this.tracker.observe(e as TraceEvent);
    }
    await this.o.bus.publish(e);
  }

  private enqueue(what: string, work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((err: unknown) => {
      this.o.log.warn({ component: 'stream', err: (err as Error).message, what }, 'stream: an event could not be published');
    });
  }

  /** Resolves once everything reported so far is published (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.predictions.values()]);
    await this.chain;
  }

  async close(): Promise<void> {
    clearInterval(this.expiry);
    this.unobserve?.();
    await this.idle();
  }
}

/** The reads a publisher renders with: the primary database, as a v3 route would see it. */
export function publisherContext(parts: Pick<V3Context, 'lite' | 'tvm'> & { db: { prisma: V3Context['prisma']; sql: V3Context['sql'] }; testnet: boolean }): V3Context {
  // No answer budget: a stream event is one trace, as whole as a /traces?trace_id= answer always is.
  return {
    prisma: parts.db.prisma,
    sql: parts.db.sql,
    lite: parts.lite,
    tvm: parts.tvm,
    testnet: parts.testnet,
    noAddressBook: false,
    noMetadata: false,
    actionsVersion: null,
    maxAnswerTransactions: Number.MAX_SAFE_INTEGER,
    checkBudget: () => {},
  };
}
