// One SQL connection with plain query/exec, the same for PGlite and PostgreSQL. Used where Prisma is the
// wrong tool: migrations (multi-statement scripts, advisory locks) and catalog introspection.
import { createHash } from 'node:crypto';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Prisma } from './generated/client';

export interface SqlSession {
  query<T extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Run a script of several statements. */
  exec(script: string): Promise<void>;
}

/** `parsers`: result parsers by type oid, over PGlite's own. */
export function pgliteSession(db: PGlite | Transaction, parsers?: Record<number, (v: string) => unknown>): SqlSession {
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await db.query<T>(text, params, parsers && { parsers })).rows;
    },
    async exec(script) {
      await db.exec(script);
    },
  };
}

export function pgSession(client: pg.ClientBase): SqlSession {
  return {
    async query<T extends Record<string, unknown>>(text: string, params?: unknown[]) {
      return (await client.query<T>(text, params)).rows;
    },
    async exec(script) {
      await client.query(script);
    },
  };
}

/**
 * Read queries straight on the driver (pg's pool / PGlite), for the API's hot reads: Prisma's $queryRaw
 * re-encodes every parameter and row (JSON both ways, then its own result mapping), which cost more CPU
 * than the database's own work for a page of traces. Rows come typed as $queryRaw types them (int8
 * bigint, numeric Prisma.Decimal, bytea bytes, json parsed, timestamps Date), so a query moves from one
 * to the other unchanged; sql-reader.test.ts holds the two to the same rows.
 */
export interface SqlReader {
  /**
   * `prepared`: the statement's name, for a query whose text has a few spellings at most (every value a
   * parameter, no list spelled out). PostgreSQL then prepares it once per connection and may keep a
   * generic plan instead of planning each run: planning a many-part statement cost it more than running it.
   * PGlite runs it as any other.
   */
  rows<T>(query: Prisma.Sql, prepared?: string): Promise<T[]>;
}

/** pg's statement name for `text` under `name`: one per spelling (a name stands for one text per connection). */
export function statementName(name: string, text: string): string {
  return `${name}-${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
}

/** Serializes async work; PGlite is one connection, so exclusive sections need an in-process lock. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
