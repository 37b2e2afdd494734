// `npm run keys -- create --name N [--rps R] [--apis v2,v3] [--expires 30d|2027-01-01] | list | revoke <id>`: API keys in the
// configured database (lib/auth/keys-cli.ts). On PGlite the database is one process's: stop Atlas first.
import { KeyError } from '../lib/auth/keys';
import { runKeysCommand } from '../lib/auth/keys-cli';
import { configuredTarget, openDatabase } from '../lib/db/database';
import { migrate } from '../lib/db/migrate';
import { loadConfigOrExit } from './cli';

const cfg = loadConfigOrExit();
const db = await openDatabase(configuredTarget(cfg));
try {
  await migrate(db);
  for (const line of await runKeysCommand(db.prisma, process.argv.slice(2))) console.log(line);
} catch (err) {
  console.error(`atlas: ${err instanceof KeyError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? (err as Error).message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
