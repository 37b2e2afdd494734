// The database writes message BoCs in base64 for the answers (message-rows.ts base64Of, its line breaks then
// taken out by unwrapped): for every length around the encoder's padding and its 76-character lines, and
// for bytes of every value, the text is byte for byte what Node's encoder gives for the stored bytes, on
// the suite's engine.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Prisma } from '../../../db/generated/client';
import { migrate } from '../../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../../testing/database';
import { base64Of, unwrapped } from './message-rows';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
});
afterAll(async () => {
  await t?.drop();
});

it('base64 from the database is Node base64 of the stored bytes', async () => {
  const lengths = [1, 2, 3, 4, 55, 56, 57, 58, 59, 76, 77, 113, 114, 115, 256, 1000, 4096, 65_537];
  const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const bocs = [every, ...lengths.map((n) => randomBytes(n))];
  for (const [i, boc] of bocs.entries()) {
    await t.db.prisma.$executeRaw`INSERT INTO message_contents (hash, boc) VALUES (${Buffer.from([i])}, ${boc})`;
  }
  const rows = await t.db.prisma.$queryRaw<{ hash: Uint8Array; boc: Uint8Array; text: string }[]>(
    Prisma.sql`SELECT hash, boc, ${base64Of(Prisma.sql`boc`)} AS text FROM message_contents ORDER BY hash`,
  );
  expect(rows).toHaveLength(bocs.length);
  for (const r of rows) expect(unwrapped(r.text), `${r.boc.length} bytes`).toBe(Buffer.from(bocs[r.hash[0]!]!).toString('base64'));
});
