// The off-chain metadata queue: the indexer enqueues every URI that token content names (in the same
// transaction that stores the token), and the fetcher (METADATA_FETCH=on) works through it in the
// background: it never holds up indexing, and with the fetcher off the URIs simply stay pending, so the
// API and the pages show the URI itself.
//
//   await enqueueMetadata(prisma, ['https://example.org/jetton.json']);
//   const f = new MetadataFetcher({ prisma, policy: publicTargets(), ipfsGateway, log }); f.start(); … await f.stop();
import { Prisma, type PrismaClient } from '../db/generated/client';
import type { Logger } from '../log';
import { fetchMetadata, type FetchLimits, type FetchOutcome, type IpfsGateway } from './fetch';
import type { TargetPolicy } from './target-policy';
import { namesOfFetched } from './token-names';
import type { SqlReader } from '../db/sql';

type Db = Pick<PrismaClient, '$executeRaw' | '$queryRaw'>;

/** URIs longer than this are not fetched (nor stored): no real metadata URI is this long. */
export const MAX_URI_CHARS = 2048;

/** Adds URIs to the queue; ones already known keep their state. */
export async function enqueueMetadata(db: Db, uris: string[]): Promise<void> {
  const fresh = [...new Set(uris.map((u) => u.trim()).filter((u) => u.length > 0 && u.length <= MAX_URI_CHARS))];
  if (!fresh.length) return;
  await db.$executeRaw`INSERT INTO offchain_metadata (uri, state) SELECT u, 'pending' FROM unnest(${fresh}::text[]) AS u ON CONFLICT (uri) DO NOTHING`;
}

export interface MetadataRow {
  uri: string;
  state: 'pending' | 'ok' | 'failed';
  url: string | null;
  content: Record<string, unknown> | null;
  error: string | null;
}

/** What the queue knows about these URIs (missing ones are not in the queue). */
export async function metadataFor(sql: SqlReader, uris: string[]): Promise<Map<string, MetadataRow>> {
  if (!uris.length) return new Map();
  const rows = await sql.rows<MetadataRow>(Prisma.sql`SELECT uri, state, url, content, error FROM offchain_metadata WHERE uri = ANY(${uris}::text[])`);
  return new Map(rows.map((r) => [r.uri, r]));
}

export interface FetcherOptions {
  prisma: PrismaClient;
  policy: TargetPolicy;
  ipfsGateway: IpfsGateway;
  log?: Logger;
  limits?: Partial<FetchLimits>;
  /** Documents fetched at once. */
  concurrency?: number;
  /** A transient failure is retried this many times in all, each wait doubling from retryBaseMs. */
  maxAttempts?: number;
  retryBaseMs?: number;
  /** How long to sleep when nothing is due. */
  idleMs?: number;
}

/** Fetches due URIs until stopped; each outcome is written back to the queue. */
export class MetadataFetcher {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  readonly stats = { fetched: 0, failed: 0, retried: 0 };

  constructor(private readonly o: FetcherOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Fetches what is due now, once; the number of URIs it handled. */
  async runOnce(): Promise<number> {
    const concurrency = this.o.concurrency ?? 4;
    const due = await this.claim(concurrency * 4);
    for (let i = 0; i < due.length; i += concurrency) {
      await Promise.all(due.slice(i, i + concurrency).map((d) => this.handle(d.uri, d.attempts)));
    }
    return due.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let handled = 0;
      try {
        handled = await this.runOnce();
      } catch (err) {
        this.o.log?.warn({ err: (err as Error).message }, 'metadata fetcher: queue unavailable');
      }
      if (!handled && this.running) await new Promise<void>((r) => ((this.wake = r), setTimeout(r, this.o.idleMs ?? 5000).unref()));
    }
  }

  /** Takes due rows, moving their next attempt past this run so another process does not take them too. */
  private async claim(n: number): Promise<{ uri: string; attempts: number }[]> {
    const leaseMs = (this.o.limits?.timeoutMs ?? 10_000) * 4 + 60_000;
    return this.o.prisma.$queryRaw<{ uri: string; attempts: number }[]>`
      UPDATE offchain_metadata SET next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
      WHERE uri IN (
        SELECT uri FROM offchain_metadata WHERE state = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT ${n} FOR UPDATE SKIP LOCKED)
      RETURNING uri, attempts`;
  }

  private async handle(uri: string, attempts: number): Promise<void> {
    const outcome: FetchOutcome = await fetchMetadata(uri, { policy: this.o.policy, ipfsGateway: this.o.ipfsGateway, limits: this.o.limits });
    const tries = attempts + 1;
    if (outcome.ok) {
      this.stats.fetched++;
      await this.o.prisma.$executeRaw`UPDATE offchain_metadata SET state = 'ok', attempts = ${tries}, fetched_at = now(), url = ${outcome.url},
        content = ${JSON.stringify(outcome.content)}::jsonb, error = NULL WHERE uri = ${uri}`;
      await namesOfFetched(this.o.prisma, uri, outcome.content);
      return;
    }
    const retry = outcome.transient && tries < (this.o.maxAttempts ?? 5);
    if (retry) {
      this.stats.retried++;
      const waitMs = (this.o.retryBaseMs ?? 60_000) * 2 ** (tries - 1);
      await this.o.prisma.$executeRaw`UPDATE offchain_metadata SET attempts = ${tries}, url = ${outcome.url}, error = ${outcome.error},
        next_attempt_at = now() + ${waitMs} * interval '1 millisecond' WHERE uri = ${uri}`;
    } else {
      this.stats.failed++;
      await this.o.prisma.$executeRaw`UPDATE offchain_metadata SET state = 'failed', attempts = ${tries}, fetched_at = now(), url = ${outcome.url},
        error = ${outcome.error} WHERE uri = ${uri}`;
    }
    this.o.log?.info({ uri, error: outcome.error, retry }, 'metadata fetch failed');
  }
}
