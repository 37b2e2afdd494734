// EXPLAIN for the plan tests: a route's own query (its parameters bound) planned on the suite's engine.
import type { Prisma } from '../db/generated/client';
import type { Database } from '../db/database';
import { PartitionKeeper } from '../db/partitions';

export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
  /** Set on a scan of a partition that holds no rows (see underParentNames). */
  'Empty Partition'?: boolean;
}

/** The plan tree of `query`. */
export async function planTree(db: Database, query: Prisma.Sql): Promise<PlanNode> {
  const [root] = await explainAll(db, [query]);
  return root!;
}

/** The plan trees of `queries`, EXPLAINed in one transaction on a pooled connection. */
async function explainAll(db: Database, queries: Prisma.Sql[]): Promise<PlanNode[]> {
  await partitionsOf(db); // read before the session: PGlite runs one session at a time
  // A few thousand rows fit in a handful of pages, where a scan of the whole table is the cheapest plan
  // for anything; with scans priced out the planner shows which index (if any) serves the query. SET
  // LOCAL holds for this transaction only, on one of the pool's connections: a session of its own per
  // EXPLAIN was a new PostgreSQL connection each time, most of a plan suite's time there.
  const roots = await db.transaction(async (s) => {
    await s.query('SET LOCAL enable_seqscan = off');
    const out: PlanNode[] = [];
    for (const query of queries) {
      const rows = await s.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
      const raw = rows[0]!['QUERY PLAN'];
      out.push(((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[])[0]!.Plan);
    }
    return out;
  });
  return Promise.all(roots.map((root) => underParentNames(db, root)));
}

/**
 * The plan with each partition (PostgreSQL's partitioned tables, lib/db/partitions.ts) and partition
 * index named as its parent table and index: a scan of transactions_p46000000 by its lt index reads as a
 * scan of transactions by transactions_lt_idx, so one assertion holds on both engines. The per-partition
 * scans stay separate nodes (under an Append or Merge Append). A scan of a partition that holds no rows
 * (by its statistics: the suites ANALYZE after seeding) is marked 'Empty Partition': the DEFAULT partition
 * is empty while the indexer keeps partitions ahead, and whichever way the planner reads an empty table
 * it reads nothing, so indexProblems does not count it.
 */
async function underParentNames(db: Database, root: PlanNode): Promise<PlanNode> {
  const rows = await partitionsOf(db);
  if (rows.length === 0) return root;
  const parentOf = new Map(rows.map((r) => [r.child, r.parent]));
  const empty = new Set(rows.filter((r) => r.empty).map((r) => r.child));
  const rename = (n: PlanNode): PlanNode => ({
    ...n,
    ...(n['Relation Name'] && empty.has(n['Relation Name']) && { 'Empty Partition': true }),
    ...(n['Relation Name'] && { 'Relation Name': parentOf.get(n['Relation Name']) ?? n['Relation Name'] }),
    ...(n['Index Name'] && { 'Index Name': parentOf.get(n['Index Name']) ?? n['Index Name'] }),
    ...(n.Plans && { Plans: n.Plans.map(rename) }),
  });
  return rename(root);
}

// Read once per database: the suites seed (partitions, rows, ANALYZE) before their first plan.
const partitionCache = new WeakMap<Database, Promise<{ child: string; parent: string; empty: boolean }[]>>();
function partitionsOf(db: Database) {
  let found = partitionCache.get(db);
  if (!found) {
    found = db.session((s) =>
      s.query<{ child: string; parent: string; empty: boolean }>(
        `SELECT c.relname AS child, p.relname AS parent, c.relkind = 'r' AND c.reltuples = 0 AS empty
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent`,
      ),
    );
    partitionCache.set(db, found);
  }
  return found;
}

/** Creates the range partitions (PostgreSQL; PGlite has none) covering masterchain seqnos [from, to] in steps of `size`. */
export async function partitionSeqnos(db: Database, from: number, to: number, size: number): Promise<void> {
  const keeper = new PartitionKeeper(db, { size, ahead: 0 });
  for (let s = from; s <= to; s += size) await keeper.ensure(s);
  await keeper.ensure(to);
}

/** Every node of a plan tree, depth first. */
export function planNodes(root: PlanNode): PlanNode[] {
  const out: PlanNode[] = [];
  const walk = (n: PlanNode) => {
    out.push(n);
    n.Plans?.forEach(walk);
  };
  walk(root);
  return out;
}

/** The plan of `query`, flattened. */
export const plan = async (db: Database, query: Prisma.Sql): Promise<PlanNode[]> => planNodes(await planTree(db, query));

/**
 * What keeps a plan from reading a page off an index, if anything: a sequential scan of `table`, or a
 * sort of `table` rows read without an index condition. (A sort of the rows an index condition found —
 * one account's, one block's, some hashes' — is bounded by that filter; a sort of everything is the
 * whole-table query a page must never be.) An Incremental Sort (ties put in order as they come) is fine,
 * and so is a sort of rows a LIMIT below it bounds (the merge of two sides' own pages, pageOfEither).
 * Several tables: the problems with any of them (a query that reads traces through transactions).
 */
export function indexProblems(root: PlanNode, table: string | string[]): string[] {
  if (Array.isArray(table)) return table.flatMap((t) => indexProblems(root, t));
  const out: string[] = [];
  for (const n of planNodes(root)) {
    if (n['Relation Name'] === table && n['Node Type'] === 'Seq Scan' && !n['Empty Partition']) out.push(`a sequential scan of ${table}`);
    if (n['Node Type'] === 'Sort') {
      const scans = unlimitedBelow(n).filter((x) => !x['Empty Partition']).filter((x) => (x['Relation Name'] === table && x['Node Type'] !== 'Bitmap Heap Scan') || x['Node Type'] === 'Bitmap Index Scan');
      const unbounded = scans.filter((s) => !s['Index Cond']);
      if (unbounded.length) out.push(`a sort of ${table} rows read without an index condition (${unbounded.map((s) => s['Index Name'] ?? s['Node Type']).join(', ')})`);
    }
  }
  return out;
}

/**
 * The scans of `tables` in a plan that do not look their rows up by an index condition (a sequential
 * scan, or an index walked whole with a filter): for lookups of a few keys in big tables (the side maps,
 * search candidates), where no scan may read a table whole.
 */
export function unkeyedScans(root: PlanNode, tables: string[]): string[] {
  // A Bitmap Heap Scan is keyed by its Bitmap Index Scans (a LIKE prefix's index range shows only there).
  const keyed = (n: PlanNode) =>
    !!n['Index Cond'] || (n['Node Type'] === 'Bitmap Heap Scan' && planNodes(n).some((c) => c['Node Type'] === 'Bitmap Index Scan' && c['Index Cond']));
  return planNodes(root)
    .filter((n) => n['Relation Name'] && tables.includes(n['Relation Name']) && !keyed(n))
    .map((n) => `${n['Node Type']} on ${n['Relation Name']}`);
}

/** The nodes under `sort` whose rows reach it without passing a Limit. */
function unlimitedBelow(sort: PlanNode): PlanNode[] {
  const out: PlanNode[] = [];
  const walk = (n: PlanNode) => {
    out.push(n);
    for (const c of n.Plans ?? []) if (c['Node Type'] !== 'Limit') walk(c);
  };
  walk(sort);
  return out;
}

/** Every subset of the named filters (the empty one first), each as one name and one merged filter. */
export function subsets<F>(filters: Record<string, Partial<F>>): [string, Partial<F>][] {
  const names = Object.keys(filters);
  const out: [string, Partial<F>][] = [];
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const chosen = names.filter((_, i) => mask & (1 << i));
    out.push([chosen.join('+'), Object.assign({}, ...chosen.map((n) => filters[n]))]);
  }
  return out;
}

/** Every way to take one entry of each set (an entry named '' is the filter left out), each as one name and one merged filter. */
export function product<F>(...sets: Record<string, Partial<F>>[]): [string, Partial<F>][] {
  let out: [string, Partial<F>][] = [['', {}]];
  for (const set of sets)
    out = out.flatMap(([name, f]) => Object.entries(set).map(([n, g]): [string, Partial<F>] => [[name, n].filter(Boolean).join(' '), { ...f, ...g }]));
  return out;
}

/** Plans each named query; what indexProblems finds on any of `tables`, as `name: problem; …` lines. */
export async function badPlans(db: Database, queries: [string, Prisma.Sql][], tables: string[]): Promise<{ planned: number; bad: string[] }> {
  const roots = await explainAll(db, queries.map(([, q]) => q));
  const bad = queries.flatMap(([name], i) => {
    const found = tables.flatMap((t) => indexProblems(roots[i]!, t));
    return found.length ? [`${name}: ${found.join('; ')}`] : [];
  });
  return { planned: roots.length, bad };
}

/** Test account n: `0:` and n as 64 upper-case hex digits. */
export const testAccount = (n: number) => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;

/** testAccount in SQL, of an integer expression (seeding with generate_series). */
export const sqlTestAccount = (n: string) => `'0:' || upper(lpad(to_hex(${n}), 64, '0'))`;

/** A list filter left out, with one value, or with several (one value is an equality: another plan). */
export const listFilter = <F>(key: keyof F, one: string, other: string): Record<string, Partial<F>> => ({
  '': {},
  [`${String(key)}=1`]: { [key]: [one] } as Partial<F>,
  [`${String(key)}=2`]: { [key]: [one, other] } as Partial<F>,
});
