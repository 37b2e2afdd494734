// schema.prisma (what the code is typed against) and prisma/migrations (what actually runs) must describe
// the same database. Prisma's own schema parser (WASM, no engine download) gives the expected model; the
// migrated catalog gives the real one; every table, column, type, nullability and index must match. On
// PostgreSQL the big tables are partitioned parents (lib/db/partitions.ts): their own columns and indexes
// are compared (the partitions' copies are not tables of the schema), and that they are partitioned by
// the expected key is checked; on PGlite that every table is plain.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate';
import { PARTITIONED_TABLES } from './partitions';
import { createTestDatabase, type TestDatabase } from '../testing/database';

interface DmmfField { name: string; dbName: string | null; kind: string; type: string; isRequired: boolean; isList: boolean; nativeType: [string, string[]] | null }
interface DmmfModel { name: string; dbName: string | null; fields: DmmfField[] }
interface DmmfIndex { model: string; type: 'id' | 'unique' | 'normal' | 'fulltext'; dbName?: string | null; fields: { name: string; sortOrder?: 'asc' | 'desc' }[] }

const require = createRequire(import.meta.url);
const wasm = require('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };
const dmmf = JSON.parse(
  wasm.get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', fs.readFileSync('prisma/schema.prisma', 'utf8')]] })),
) as { datamodel: { models: DmmfModel[]; indexes: DmmfIndex[] } };

/** The PostgreSQL type Prisma's migration engine would create for a field, as format_type() prints it. */
function sqlType(f: DmmfField): string {
  const [native, args = []] = f.nativeType ?? [];
  switch (f.type) {
    case 'String':
      return native === 'VarChar' ? `character varying(${args[0]})` : native === 'Char' ? `character(${args[0]})` : 'text';
    case 'Int':
      return 'integer';
    case 'BigInt':
      return 'bigint';
    case 'Boolean':
      return 'boolean';
    case 'Bytes':
      return 'bytea';
    case 'Json':
      return 'jsonb';
    case 'Decimal':
      return native === 'Decimal' ? `numeric(${args[0]},${args[1]})` : 'numeric(65,30)';
    case 'DateTime':
      return native === 'Timestamptz' ? `timestamp(${args[0] ?? 3}) with time zone` : `timestamp(${args[0] ?? 3}) without time zone`;
    default:
      throw new Error(`no SQL type mapping for ${f.type}`);
  }
}

let t: TestDatabase;
const byName = (a: { column_name: string }, b: { column_name: string }) => (a.column_name < b.column_name ? -1 : a.column_name > b.column_name ? 1 : 0);
const models = dmmf.datamodel.models;
const tableOf = (modelName: string) => {
  const m = models.find((x) => x.name === modelName)!;
  return m.dbName ?? m.name;
};
const columnOf = (modelName: string, field: string) => {
  const f = models.find((x) => x.name === modelName)!.fields.find((x) => x.name === field)!;
  return f.dbName ?? f.name;
};

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
});
afterAll(() => t.drop());

describe('schema.prisma agrees with the migrated database', () => {
  it('has the same tables', async () => {
    const rows = await t.db.session((s) =>
      s.query<{ table_name: string }>(
        `SELECT c.relname AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations' ORDER BY 1`,
      ),
    );
    expect(rows.map((r) => r.table_name)).toEqual(models.map((m) => m.dbName ?? m.name).sort());
  });

  it.each(models.map((m) => [m.dbName ?? m.name, m] as const))('%s has the same columns, types and nullability', async (table, model) => {
    const rows = await t.db.session((s) =>
      s.query<{ column_name: string; type: string; not_null: boolean }>(
        `SELECT a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
           FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY a.attname`,
        [table],
      ),
    );
    const expected = model.fields
      .filter((f) => f.kind === 'scalar')
      // Scalar lists: Prisma's migration engine creates them as nullable arrays of the element type.
      .map((f) => ({ column_name: f.dbName ?? f.name, type: sqlType(f) + (f.isList ? '[]' : ''), not_null: f.isRequired && !f.isList }))
      .sort(byName);
    // Both sides sorted here: the database's collation and localeCompare disagree on '_' against digits.
    expect([...rows].sort(byName)).toEqual(expected);
  });

  it('has the same indexes (names, uniqueness, columns and order)', async () => {
    const rows = await t.db.session((s) =>
      s.query<{ index: string; table: string; unique: boolean; primary: boolean; columns: string[] }>(
        `SELECT i.relname AS index, t.relname AS table, ix.indisunique AS unique, ix.indisprimary AS primary,
                array_agg(a.attname || CASE WHEN (ix.indoption[k.ord - 1] & 1) = 1 THEN ' DESC' ELSE '' END ORDER BY k.ord) AS columns
           FROM pg_index ix
           JOIN pg_class i ON i.oid = ix.indexrelid
           JOIN pg_class t ON t.oid = ix.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
           CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
           JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
          WHERE n.nspname = current_schema() AND t.relname <> '_prisma_migrations' AND NOT t.relispartition
          GROUP BY i.relname, t.relname, ix.indisunique, ix.indisprimary
          ORDER BY 1`,
      ),
    );
    const expected = dmmf.datamodel.indexes
      .map((ix) => {
        const table = tableOf(ix.model);
        const cols = ix.fields.map((f) => columnOf(ix.model, f.name));
        const suffix = ix.type === 'id' ? 'pkey' : ix.type === 'unique' ? 'key' : 'idx';
        const defaultName = ix.type === 'id' ? `${table}_pkey` : `${table}_${cols.join('_')}_${suffix}`;
        return {
          index: ix.dbName ?? defaultName,
          table,
          unique: ix.type !== 'normal',
          primary: ix.type === 'id',
          columns: ix.fields.map((f, i) => cols[i] + (f.sortOrder === 'desc' ? ' DESC' : '')),
        };
      })
      .sort((a, b) => (a.index < b.index ? -1 : 1));
    expect(rows).toEqual(expected);
  });

  it(`partitions ${Object.keys(PARTITIONED_TABLES).join(', ')} by range on PostgreSQL, none on PGlite`, async () => {
    const rows = await t.db.session((s) =>
      s.query<{ table: string; kind: string; strategy: string | null; key: string | null; has_default: boolean }>(
        `SELECT c.relname AS table, c.relkind::text AS kind, p.partstrat::text AS strategy,
                (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = p.partattrs[0]) AS key,
                p.partdefid IS NOT NULL AND p.partdefid <> 0 AS has_default
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           LEFT JOIN pg_partitioned_table p ON p.partrelid = c.oid
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations'`,
      ),
    );
    const partitioned = rows.filter((r) => r.kind === 'p').sort((a, b) => (a.table < b.table ? -1 : 1));
    if (t.db.engine === 'pglite') {
      expect(partitioned).toEqual([]);
      return;
    }
    const expected = Object.entries(PARTITIONED_TABLES)
      .map(([table, key]) => ({ table, kind: 'p', strategy: 'r', key, has_default: true }))
      .sort((a, b) => (a.table < b.table ? -1 : 1));
    expect(partitioned).toEqual(expected);
  });
});
