// What the index already holds of pending traces (api-v3.md §4.3): the inbound messages it has indexed,
// with the state of the trace each belongs to. A pending item disappears once its real counterpart is
// indexed: the whole trace once it is complete (pendingTransactions) or complete and classified
// (pendingTraces, pendingActions), a single transaction once its inbound message is indexed.
import { Prisma, type PrismaClient } from '../../../db/generated/client';
import { bytes, hex } from '../encode';

export interface IndexedInbound {
  complete: boolean;
  classified: boolean;
}

/** Indexed inbound messages among `hashes` (base64), by hex hash. */
export async function indexedInbound(prisma: PrismaClient, hashes: string[]): Promise<Map<string, IndexedInbound>> {
  const out = new Map<string, IndexedInbound>();
  const unique = [...new Set(hashes)].map((h) => bytes(Buffer.from(h, 'base64')));
  if (!unique.length) return out;
  const rows = await prisma.$queryRaw<{ msg_hash: Uint8Array; state: string | null; classification_state: string | null }[]>(Prisma.sql`
    SELECT m.msg_hash, t.state, t.classification_state
    FROM messages m LEFT JOIN traces t ON t.trace_id = m.trace_id
    WHERE m.direction = 'in' AND m.msg_hash = ANY(${unique}::bytea[])`);
  for (const r of rows) {
    out.set(hex(r.msg_hash), { complete: r.state === 'complete', classified: r.state === 'complete' && r.classification_state !== null && r.classification_state !== 'unclassified' });
  }
  return out;
}
