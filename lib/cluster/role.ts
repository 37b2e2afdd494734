// Which part of an API cluster this process is. With PostgreSQL and API_WORKERS > 1, `npm start`
// (scripts/start.ts, lib/cluster/primary.ts) makes its first process the primary — the devnet, the
// indexer and what they publish, no HTTP — and forks the workers that serve HTTP on the one port (Node
// cluster). Any other process (PGlite, API_WORKERS=1, `npm run indexer`, tests) is `single`.
import cluster from 'node:cluster';

export type ClusterRole = 'single' | 'primary' | 'worker';

const PRIMARY = Symbol.for('atlas.cluster.primary');
const slot = globalThis as Record<symbol, boolean | undefined>;

export function clusterRole(): ClusterRole {
  if (cluster.isWorker) return 'worker';
  return slot[PRIMARY] ? 'primary' : 'single';
}

/** Called by the primary before its services start, so they start as the primary's. */
export function becomePrimary(): void {
  slot[PRIMARY] = true;
}

