// `npm run db:migrate`: apply pending migrations to the configured database and exit.
import { configuredTarget, openDatabase } from '../lib/db/database';
import { migrate } from '../lib/db/migrate';
import { loadConfigOrExit } from './cli';

const cfg = loadConfigOrExit();
const db = await openDatabase(configuredTarget(cfg));
try {
  const r = await migrate(db, { onApply: (name) => console.log(`applying ${name}`) });
  console.log(`${db.engine}: ${r.applied.length} applied, ${r.alreadyApplied} already applied`);
} catch (err) {
  console.error(`atlas: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
