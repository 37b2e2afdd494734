// EXPLAIN for the plan tests: a route's own query (its parameters bound) planned on the suite's engine.
import type { Prisma } from '../db/generated/client';
import type { Database } from '../db/database';

export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** The plan tree of `query`. */
export async function planTree(db: Database, query: Prisma.Sql): Promise<PlanNode> {
  // A few thousand rows fit in a handful of pages, where a scan of the whole table is the cheapest plan
  // for anything; with scans priced out the planner shows which index (if any) serves the query.
  const rows = await db.session(async (s) => {
    await s.query('SET enable_seqscan = off');
    try {
      return await s.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
    } finally {
      await s.query('RESET enable_seqscan');
    }
  });
  const raw = rows[0]!['QUERY PLAN'];
  return ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[])[0]!.Plan;
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
 * whole-table query a page must never be.) An Incremental Sort (ties put in order as they come) is fine.
 */
export function indexProblems(root: PlanNode, table: string): string[] {
  const out: string[] = [];
  for (const n of planNodes(root)) {
    if (n['Relation Name'] === table && n['Node Type'] === 'Seq Scan') out.push(`a sequential scan of ${table}`);
    if (n['Node Type'] === 'Sort') {
      const scans = planNodes(n).filter((x) => (x['Relation Name'] === table && x['Node Type'] !== 'Bitmap Heap Scan') || x['Node Type'] === 'Bitmap Index Scan');
      const unbounded = scans.filter((s) => !s['Index Cond']);
      if (unbounded.length) out.push(`a sort of rows read without an index condition (${unbounded.map((s) => s['Index Name'] ?? s['Node Type']).join(', ')})`);
    }
  }
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
