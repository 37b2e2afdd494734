// Start the process-wide services at server boot, so the first request does not pay for migrations and a
// broken database stops the process with a clear line instead of failing page views.
import { config } from './config';
import { log } from './log';
import { services } from './runtime';

export async function boot(): Promise<void> {
  if (config().isBuildPhase) return;
  try {
    await services();
  } catch (err) {
    log.fatal({ component: 'runtime', err }, 'start-up failed');
    console.error(`atlas: could not start: ${(err as Error).message}`);
    process.exit(1);
  }
}
