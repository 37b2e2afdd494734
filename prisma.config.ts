// For the Prisma CLI only (online machines: `prisma migrate deploy`, `prisma studio`). Atlas itself applies
// prisma/migrations at start-up (lib/db/migrate.ts) and never needs the CLI's engines.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/atlas' },
});
