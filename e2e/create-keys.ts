// Run by playwright.config.ts's webServer before `npm start`, against the same data directory: the API
// keys e2e tests use (PGlite is one process's database, so they cannot be created while Atlas runs).
// Written to <ATLAS_DATA_DIR>/e2e-keys.json, which the specs read.
import fs from 'node:fs';
import { createKey } from '../lib/auth/keys';
import { config } from '../lib/config';
import { configuredTarget, openDatabase } from '../lib/db/database';
import { migrate } from '../lib/db/migrate';
import { keysFile, type E2eKeys } from './keys';

const cfg = config();
fs.mkdirSync(cfg.dataDir, { recursive: true });
const db = await openDatabase(configuredTarget(cfg));
try {
  await migrate(db);
  const keys: E2eKeys = {
    full: (await createKey(db.prisma, { name: 'e2e full', rps: 1000 })).key,
    v3Slow: (await createKey(db.prisma, { name: 'e2e v3 slow', rps: 2, apis: ['v3'] })).key,
    load: (await createKey(db.prisma, { name: 'e2e load', rps: 100_000 })).key,
  };
  fs.writeFileSync(keysFile(cfg.dataDir), JSON.stringify(keys));
} finally {
  await db.close();
}
