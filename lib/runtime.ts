// Process-wide services (database now; the devnet, lite-client and indexer as they land). Next.js bundles
// instrumentation and each route handler separately, so module state is not shared between them: the
// one instance lives on globalThis and every caller goes through services().
import path from 'node:path';
import { config, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { log } from './log';

export interface Services {
  config: Config;
  db: Database;
  startedAt: Date;
}

interface RuntimeState {
  starting?: Promise<Services>;
  stopping?: Promise<void>;
  signalsHooked?: boolean;
}

const KEY = Symbol.for('atlas.runtime');
const state: RuntimeState = ((globalThis as Record<symbol, unknown>)[KEY] ??= {}) as RuntimeState;

/** Starts the services once per process and returns them; concurrent callers share one start. */
export function services(): Promise<Services> {
  if (state.stopping) return Promise.reject(new Error('Atlas is shutting down'));
  state.starting ??= start().catch((err) => {
    state.starting = undefined; // let a later call retry (e.g. PostgreSQL was briefly down)
    throw err;
  });
  return state.starting;
}

async function start(): Promise<Services> {
  const cfg = config();
  const t0 = Date.now();
  const db = await openDatabase(
    cfg.databaseUrl ? { engine: 'postgresql', url: cfg.databaseUrl } : { engine: 'pglite', dir: path.join(cfg.dataDir, 'db') },
  );
  try {
    const result = await migrate(db, { onApply: (name) => log.info({ component: 'db', migration: name }, 'applying migration') });
    log.info(
      { component: 'db', engine: db.engine, applied: result.applied.length, ms: Date.now() - t0 },
      'database ready',
    );
  } catch (err) {
    await db.close();
    throw err;
  }
  hookSignals();
  return { config: cfg, db, startedAt: new Date() };
}

/** Stops everything in reverse order of start; safe to call more than once. */
export function stopServices(): Promise<void> {
  state.stopping ??= (async () => {
    const running = await state.starting?.catch(() => undefined);
    await running?.db.close();
    log.info({ component: 'runtime' }, 'stopped');
  })();
  return state.stopping;
}

function hookSignals() {
  if (state.signalsHooked || config().isTest) return;
  state.signalsHooked = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info({ component: 'runtime', signal }, 'shutting down');
      stopServices().then(
        () => process.exit(0),
        (err) => {
          log.error({ component: 'runtime', err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
