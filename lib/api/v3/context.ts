// What a v3 route handler may use besides its parameters: the database and the per-request settings of
// api-v3.md §1.1 (X-No-Address-Book, X-No-Metadata), plus the network (user-friendly testnet flag).
import { config } from '../../config';
import type { Database } from '../../db/database';
import type { PrismaClient } from '../../db/generated/client';
import { services } from '../../runtime';

export interface V3Context {
  db: Database;
  prisma: PrismaClient;
  /** User-friendly addresses carry the testnet flag. */
  testnet: boolean;
  /** X-No-Address-Book: address_book becomes {}. */
  noAddressBook: boolean;
  /** X-No-Metadata: metadata becomes {}. */
  noMetadata: boolean;
}

// Tests point the routes at their own database (lib/api/v3/testing.ts); the server uses the process's.
let testDatabase: Database | undefined;

export function setTestDatabase(db: Database | undefined): void {
  testDatabase = db;
}

export async function v3Database(): Promise<Database> {
  return testDatabase ?? (await services()).db;
}

export function isTestnet(): boolean {
  return config().network === 'testnet';
}
