// Start the process-wide services at server boot, so the first request does not pay for migrations and a
// broken database stops the process with a clear line instead of failing page views.
import { config } from './config';
import { log } from './log';
import { services } from './runtime';
import { installFastTonCore } from './ton/fast-core';

export async function boot(): Promise<void> {
  if (config().isBuildPhase) return;
  // The Next server's entry point (npm start's scripts/start.ts installed them already; again is a no-op):
  // the APIs, the devnet and the indexer parse cells with @ton/core's fast paths (lib/ton/fast-core.ts).
  log.info({ fastTonCore: installFastTonCore() }, '@ton/core fast paths');
  try {
    await services();
  } catch (err) {
    log.fatal({ component: 'runtime', err }, 'start-up failed');
    console.error(`atlas: could not start: ${(err as Error).message}`);
    process.exit(1);
  }
}
