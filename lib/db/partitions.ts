// Range partitions of the big tables by masterchain seqno, on PostgreSQL (migration 20261128100000_partitions
// made them partitioned parents with a DEFAULT partition; PGlite keeps plain tables and this is a no-op).
// The indexer calls ensure(seqno) before it writes a masterchain block: the partition of that seqno and
// the next `ahead` ones exist before any row needs them, so new rows never land in the DEFAULT partition.
// DEFAULT is the safety net for rows written by anything else (a bulk copy, a seqno far outside the
// indexer's range, a failed ensure): they are stored, not refused, and move into their range partition
// when it is created (atlas_create_partition, created by the migration, moves them in the same transaction).
import type { Database } from './database';
import type { SqlSession } from './sql';

/**
 * Masterchain seqnos per partition. A lookup by hash without the seqno (a transaction or message by
 * hash) probes every partition's index, so partitions must stay few: mainnet's masterchain is at about
 * 50M blocks (one every 1–3 s, about a month per million), so a million seqnos makes about 50 partitions
 * of the whole history and one new partition a month. The migration splits existing rows by the same
 * number; changing it later only affects partitions created after the change.
 */
export const PARTITION_SIZE = 1_000_000;
/** Partitions created past the one the head is in: the head meets a partition made weeks earlier. */
export const PARTITIONS_AHEAD = 2;

/** The partitioned tables (on PostgreSQL) and their partition key columns. */
export const PARTITIONED_TABLES = {
  transactions: 'mc_block_seqno',
  messages: 'mc_block_seqno',
  account_states: 'mc_block_seqno',
  actions: 'trace_mc_seqno_end',
} as const;
export type PartitionedTable = keyof typeof PARTITIONED_TABLES;
const TABLES = Object.keys(PARTITIONED_TABLES) as PartitionedTable[];

// A reader blocked behind the ATTACH waits at most this long; a timed-out ensure is retried at the next
// block (the partitions it makes are needed only weeks later).
const LOCK_TIMEOUT = '2s';
// Serializes creators (the follower and a range backfill may ensure the same partition at once).
const LOCK_KEY = '4706372165316233032';

export interface PartitionRange {
  table: PartitionedTable;
  name: string;
  /** inclusive */
  from: number;
  /** exclusive */
  to: number;
}

/** The range partitions of the partitioned tables (none on PGlite), by table then bound. */
export async function listPartitions(s: Pick<SqlSession, 'query'>): Promise<PartitionRange[]> {
  const rows = await s.query<{ parent: string; name: string; bound: string }>(
    `SELECT p.relname AS parent, c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
      WHERE n.nspname = current_schema() AND p.relkind = 'p' AND p.relname = ANY($1::text[])`,
    [TABLES],
  );
  const out: PartitionRange[] = [];
  for (const r of rows) {
    // "FOR VALUES FROM (0) TO (1000000)"; the DEFAULT partition has no range.
    const m = /^FOR VALUES FROM \((-?\d+)\) TO \((-?\d+)\)$/.exec(r.bound);
    if (m) out.push({ table: r.parent as PartitionedTable, name: r.name, from: Number(m[1]), to: Number(m[2]) });
  }
  return out.sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : a.from - b.from));
}

export interface PartitionKeeperOptions {
  size?: number;
  ahead?: number;
}

/** Keeps the range partitions of every partitioned table ahead of the seqnos being written. */
export class PartitionKeeper {
  private readonly size: number;
  private readonly ahead: number;
  /** Ranges known to exist, by table (only ever grows: partitions are not dropped by Atlas). */
  private known?: Map<PartitionedTable, PartitionRange[]>;

  constructor(
    private readonly db: Database,
    opts: PartitionKeeperOptions = {},
  ) {
    this.size = opts.size ?? PARTITION_SIZE;
    this.ahead = opts.ahead ?? PARTITIONS_AHEAD;
    if (!Number.isSafeInteger(this.size) || this.size < 1) throw new Error(`partition size must be a positive integer, got ${this.size}`);
  }

  /**
   * Makes sure the partition of `seqno` and the next `ahead` ones exist in every partitioned table;
   * returns the partitions it created. Without a database round trip when they are known to exist.
   */
  async ensure(seqno: number): Promise<PartitionRange[]> {
    if (this.db.engine !== 'postgresql') return [];
    // The seqno itself, then the start of each of the next `ahead` aligned ranges.
    const wanted = [seqno, ...Array.from({ length: this.ahead }, (_, i) => (Math.floor(seqno / this.size) + i + 1) * this.size)];
    if (this.known && TABLES.every((t) => wanted.every((s) => covers(this.known!.get(t) ?? [], s)))) return [];
    const created = await this.db.session(async (s) => {
      await s.exec('BEGIN');
      try {
        await s.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        await s.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
        const existing = await listPartitions(s);
        const made: PartitionRange[] = [];
        for (const table of TABLES) {
          const ranges = existing.filter((r) => r.table === table);
          for (const start of wanted) {
            if (covers(ranges, start)) continue;
            const { from, to } = rangeFor(ranges, start, this.size);
            const [row] = await s.query<{ name: string }>('SELECT atlas_create_partition($1, $2, $3) AS name', [table, from, to]);
            const range = { table, name: row!.name, from, to };
            ranges.push(range);
            made.push(range);
          }
        }
        await s.exec('COMMIT');
        this.known = groupByTable([...existing, ...made]);
        return made;
      } catch (err) {
        await s.exec('ROLLBACK');
        throw err;
      }
    });
    return created;
  }
}

const covers = (ranges: PartitionRange[], seqno: number) => ranges.some((r) => r.from <= seqno && seqno < r.to);

/**
 * The partition to create for an uncovered `seqno`: its aligned range [k·size, (k+1)·size), clipped to
 * the gap between the existing partitions around it, so that partitions made with another size (an
 * older PARTITION_SIZE, a test's) are never overlapped, which PostgreSQL would refuse.
 */
function rangeFor(ranges: PartitionRange[], seqno: number, size: number): { from: number; to: number } {
  const start = Math.floor(seqno / size) * size;
  return {
    from: Math.max(start, ...ranges.filter((r) => r.to <= seqno).map((r) => r.to)),
    to: Math.min(start + size, ...ranges.filter((r) => r.from > seqno).map((r) => r.from)),
  };
}

function groupByTable(ranges: PartitionRange[]): Map<PartitionedTable, PartitionRange[]> {
  const out = new Map<PartitionedTable, PartitionRange[]>();
  for (const r of ranges) out.set(r.table, [...(out.get(r.table) ?? []), r]);
  return out;
}
