// Runs at `npm install`: generates the Prisma Client into lib/db/generated. `prisma generate` needs no
// engine binary, but the CLI insists one is configured; point it at any existing file so no download
// is attempted on offline machines.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
const r = spawnSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
