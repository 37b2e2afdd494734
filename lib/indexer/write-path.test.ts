/**
 * The indexer writes through the database driver (lib/db/database.ts transaction(), lib/indexer/sql.ts),
 * not through Prisma, writes a block's tables in a few statements (sql.ts insertTables, store.ts), and
 * classifies the traces a block holds whole from its records before inserting them, and those an earlier
 * block began from the records it held of them (open-traces.ts), for speed.
 * Equivalence: the same devnet chain, with the derive stage, traces and actions, indexed once that way
 * and once with one statement per table run in a Prisma interactive transaction (the write path Atlas
 * had before) and every trace then classified again from its stored rows (reclassify, loadTraces, the
 * UPDATE of the trace rows), gives the same rows in every table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import type { PrismaClient } from '../db/generated/client';
import { migrate } from '../db/migrate';
import { log } from '../log';
import { startTestChain, type TestChain } from '../testing/chain';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { TvmPool } from '../tvm/pool';
import { Indexer } from './follower';
import { reclassify } from './reclassify';
import { writeMode } from './sql';

let chain: TestChain;
let viaPrisma: TestDatabase;
const tvm = new TvmPool();

/** The write path before the driver one: every statement in one Prisma interactive transaction. */
const prismaTransaction =
  (prisma: PrismaClient): Database['transaction'] =>
  (fn) =>
    prisma.$transaction(
      (tx) =>
        fn({
          query: <T>(text: string, params: unknown[] = []) => tx.$queryRawUnsafe<T[]>(text, ...params),
          exec: async (script: string) => void (await tx.$executeRawUnsafe(script)),
        }),
      { timeout: 120_000, maxWait: 60_000 },
    ) as ReturnType<typeof fn>;

beforeAll(async () => {
  // Four shards: messages between shards arrive a masterchain block later, so many traces are completed
  // by a later block than the one that began them (classified from the records the indexer held of them,
  // open-traces.ts).
  chain = await startTestChain({ seed: 'write-path', rounds: 4, tps: 15, index: true, derive: true, shards: 4 });
  viaPrisma = await createTestDatabase();
  await migrate(viaPrisma.db);
  // The registered Database (databaseOf) is this object: its transactions now run through Prisma.
  viaPrisma.db.transaction = prismaTransaction(viaPrisma.db.prisma);
  const indexer = new Indexer({ prisma: viaPrisma.db.prisma, client: chain.lite, log, network: 'devnet', tvm });
  await indexer.claim();
  writeMode.statementPerTable = true;
  try {
    await indexer.indexRange(1, chain.devnet.chain.lastSeqno);
  } finally {
    writeMode.statementPerTable = false;
  }
  await indexer.stop();
  await viaPrisma.db.prisma.$executeRaw`UPDATE traces SET classifier_version = NULL`;
  expect(await reclassify(viaPrisma.db.prisma)).toBeGreaterThan(10);
}, 300_000);

afterAll(async () => {
  await viaPrisma?.drop();
  await tvm.close();
  await chain?.close();
});

/** Every row of every table as sorted JSON text; columns of time of writing (timestamps) left out. */
async function contents(db: Database): Promise<Record<string, string[]>> {
  const columns = await db.prisma.$queryRaw<{ table_name: string; column_name: string }[]>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND data_type NOT LIKE 'timestamp%' AND table_name NOT LIKE '\\_%'
    ORDER BY table_name, ordinal_position`;
  const tables = new Map<string, string[]>();
  for (const c of columns) tables.set(c.table_name, [...(tables.get(c.table_name) ?? []), c.column_name]);
  const out: Record<string, string[]> = {};
  for (const [table, cols] of tables) {
    // Names come from the catalog, not from input.
    const rows = await db.prisma.$queryRawUnsafe<{ r: string }[]>(`SELECT json_build_array(${cols.map((c) => `"${c}"`).join(', ')})::text AS r FROM "${table}"`);
    out[table] = rows.map((x) => x.r).sort();
  }
  return out;
}

describe('the driver write path', () => {
  it('stores exactly the rows the Prisma write path and classification from stored rows give: blocks, transactions, traces, actions, token tables', async () => {
    const [driver, prisma] = await Promise.all([contents(chain.db!.db), contents(viaPrisma.db)]);
    expect(driver.transactions!.length).toBeGreaterThan(50);
    expect(driver.actions!.length).toBeGreaterThan(10);
    expect(driver.jetton_wallets!.length).toBeGreaterThan(0);
    const [{ late }] = await chain.db!.db.prisma.$queryRaw<{ late: number }[]>`
      SELECT count(*)::int AS late FROM traces WHERE mc_seqno_end > mc_seqno_start AND classification_state = 'ok'`;
    expect(late).toBeGreaterThan(5);
    expect(Object.keys(driver).sort()).toEqual(Object.keys(prisma).sort());
    for (const table of Object.keys(driver)) expect(driver[table], table).toEqual(prisma[table]);
  });
});
