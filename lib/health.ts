// What /api/health reports: one line per subsystem, "ok…" or what is wrong, plus the indexer's numbers.
import type { IndexerProgress } from './indexer/follower';
import { services } from './runtime';

export interface Health {
  status: 'ok' | 'degraded';
  db: string;
  chain: string;
  indexer: string;
  /** Present while an in-process indexer runs: cursor, head, rates, ETA. */
  indexer_progress?: IndexerProgress & { lag: number | null };
}

const HEAD_TIMEOUT_MS = 3000;

export async function health(): Promise<Health> {
  let s;
  try {
    s = await services();
  } catch (err) {
    const msg = `error: ${(err as Error).message}`;
    return { status: 'degraded', db: msg, chain: 'not started', indexer: 'not started' };
  }
  const [db, chain] = await Promise.all([
    s.db.prisma.$queryRaw`SELECT 1`.then(
      () => 'ok',
      (err: Error) => `error: ${err.message}`,
    ),
    withTimeout(s.lite.getMasterchainInfo(), HEAD_TIMEOUT_MS).then(
      (info) => `ok: ${s.config.network}, masterchain seqno ${info.last.seqno}`,
      (err: Error) => `error: ${s.config.network}: ${err.message}`,
    ),
  ]);
  const p = s.indexer?.progress;
  const lag = p && p.headSeqno !== null && p.lastIndexedSeqno !== null ? p.headSeqno - p.lastIndexedSeqno : null;
  const indexer = !p ? 'off (INDEXER=off: a separate process indexes)' : describeIndexer(p, lag);
  const ok = db === 'ok' && chain.startsWith('ok') && !indexer.startsWith('error');
  return { status: ok ? 'ok' : 'degraded', db, chain, indexer, ...(p && { indexer_progress: { ...p, lag } }) };
}

function describeIndexer(p: IndexerProgress, lag: number | null): string {
  const at = p.lastIndexedSeqno === null ? 'nothing indexed yet' : `seqno ${p.lastIndexedSeqno}`;
  switch (p.state) {
    case 'error':
      return `error: ${p.error}`;
    case 'catching up':
      return `catching up: ${at} of ${p.headSeqno}, ${p.blocksPerSecond.toFixed(1)} blocks/s, ${p.transactionsPerSecond.toFixed(1)} tx/s` + (p.etaSeconds !== null ? `, ETA ${p.etaSeconds} s` : '');
    case 'live':
      return `ok: live at ${at}` + (lag ? ` (lag ${lag})` : '');
    default:
      return `${p.state}: ${at}`;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}
