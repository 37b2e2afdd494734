// What /api/health reports: one line per subsystem, "ok" or what is wrong.
import { services } from './runtime';

export interface Health {
  status: 'ok' | 'degraded';
  db: string;
  chain: string;
  indexer: string;
}

export async function health(): Promise<Health> {
  let db: string;
  try {
    const { db: database } = await services();
    await database.prisma.$queryRaw`SELECT 1`;
    db = 'ok';
  } catch (err) {
    db = `error: ${(err as Error).message}`;
  }
  return { status: db === 'ok' ? 'ok' : 'degraded', db, chain: 'not configured', indexer: 'not configured' };
}
