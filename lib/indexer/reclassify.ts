// Re-classifies stored traces whose actions an older classifier produced (classifier_version below
// CLASSIFIER_VERSION) or that were never classified. Each batch is its own database transaction and
// moves its traces to the current version, so an interrupted run resumes where it stopped.
import { CLASSIFIER_VERSION } from '../actions/model';
import type { PrismaClient } from '../db/generated/client';
import { writeTransaction } from './sql';
import { classifyTraces } from './trace-actions';

export interface ReclassifyProgress {
  done: number;
  total: number;
}

export async function reclassify(prisma: PrismaClient, o: { batch?: number; onBatch?: (p: ReclassifyProgress) => void } = {}): Promise<number> {
  const batch = o.batch ?? 500;
  const stale = { state: 'complete', isIncomplete: false, OR: [{ classifierVersion: null }, { classifierVersion: { lt: CLASSIFIER_VERSION } }] };
  const total = await prisma.trace.count({ where: stale });
  let done = 0;
  for (;;) {
    const ids = await prisma.trace.findMany({ where: stale, select: { traceId: true }, orderBy: { endLt: 'asc' }, take: batch });
    if (ids.length === 0) return done;
    await writeTransaction(prisma, (tx) => classifyTraces(tx, ids.map((r) => Buffer.from(r.traceId))));
    done += ids.length;
    o.onBatch?.({ done, total });
  }
}
