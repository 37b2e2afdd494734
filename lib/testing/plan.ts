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
