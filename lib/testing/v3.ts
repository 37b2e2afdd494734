// Test support for v3: a real database holding the mainnet fixture blocks with the API over it, plus
// account states built from real Account cells where a test needs them.
import { Address, beginCell, Cell, storeAccount, type Account } from '@ton/core';
import { z } from 'zod';
import type { PrismaClient } from '../db/generated/client';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from './database';
import { parseBlock } from '../indexer/parse-block';
import type { ParsedBlock } from '../chain/records';
import { storeMasterchainBlock } from '../indexer/store';
import { rawUpper } from '../ton/address';
import { BLOCK_FIXTURES, fixtureBytes } from './fixtures';
import { bytes } from '../api/v3/encode';
import { testApi, type TestApi } from './api';

export const MC_SEQNO = 46991999;

export interface FixtureDatabase extends TestDatabase, TestApi {
  mc: ParsedBlock;
  shards: ParsedBlock[];
  all: ParsedBlock[];
}

/**
 * A fresh database (PGlite, or PostgreSQL under DATABASE_URL) holding the three mainnet fixture blocks,
 * stored the way the indexer stores them, and made the database of the v3 routes.
 * The shard blocks were really registered by other masterchain blocks (71398501 by 66519406); they are
 * stored under masterchain block 46991999, as lib/indexer/store.test.ts does, so one masterchain block
 * commits all three. Its shard_state (the masterchain block and the top block of each shard) is written
 * to match: the masterchain block and the two shard blocks — fabricated, as the real top blocks of
 * 46991999 are not among the fixtures. `blocks: false` leaves the tables empty (account-only suites).
 * The v3 routes over it are the result's callV3/postV3 (no chain: the live routes fail).
 */
export async function fixtureDatabase(opts: { blocks?: boolean } = {}): Promise<FixtureDatabase> {
  const t = await createTestDatabase();
  await migrate(t.db);
  const p = t.db.prisma;
  await p.indexerState.create({ data: { id: 'main', network: 'mainnet', zeroStateRootHash: new Uint8Array(32), zeroStateFileHash: new Uint8Array(32) } });
  const mc = parseBlock(fixtureBytes(BLOCK_FIXTURES.master46991999), MC_SEQNO);
  const shards = [parseBlock(fixtureBytes(BLOCK_FIXTURES.shard71398501), MC_SEQNO), parseBlock(fixtureBytes(BLOCK_FIXTURES.shard52111590), MC_SEQNO)];
  const all = [mc, ...shards];
  if (opts.blocks !== false) {
    const shardState = all.map((b) => ({ workchain: b.block.workchain, shard: b.block.shard, seqno: b.block.seqno }));
    await storeMasterchainBlock(p, all, { indexerId: 'main', mcSeqno: MC_SEQNO }, [], shardState);
  }
  return { ...t, ...testApi({ db: t.db }), mc, shards, all };
}

export interface AccountSpec {
  address: string;
  balance: bigint;
  /** active with code and data; uninit and frozen have neither. */
  status?: 'active' | 'uninit' | 'frozen';
  code?: Cell;
  data?: Cell;
  lastTransLt?: bigint;
  lastTransHash?: Buffer;
  extraCurrencies?: Record<string, string>;
}

/** A real Account cell (block.tlb) for the spec, as a liteserver would return it. */
export function accountCell(spec: AccountSpec): Cell {
  const status = spec.status ?? 'active';
  const state: Account['storage']['state'] =
    status === 'active'
      ? { type: 'active', state: { code: spec.code, data: spec.data } }
      : status === 'frozen'
        ? { type: 'frozen', stateHash: 1n }
        : { type: 'uninit' };
  const account: Account = {
    addr: Address.parseRaw(spec.address),
    storageStats: { used: { cells: 1n, bits: 100n }, storageExtra: null, lastPaid: 1745112841, duePayment: null },
    storage: { lastTransLt: spec.lastTransLt ?? 1n, balance: { coins: spec.balance }, state },
  };
  return beginCell().storeBit(1).store(storeAccount(account)).endCell(); // account$1
}

/**
 * Writes an account's newest state (latest_account_states) and the state itself (account_states), both
 * keyed by the Account cell's hash, with code and data BoCs and hashes as the indexer will store them.
 */
export async function insertAccountState(prisma: PrismaClient, spec: AccountSpec, opts: { stateHash?: Buffer; latest?: boolean } = {}): Promise<Buffer> {
  const cell = accountCell(spec);
  const hash = opts.stateHash ?? cell.hash();
  const status = spec.status ?? 'active';
  const code = status === 'active' ? (spec.code ?? null) : null;
  const data = status === 'active' ? (spec.data ?? null) : null;
  const common = {
    account: rawUpper(Address.parseRaw(spec.address)),
    balance: spec.balance.toString(),
    balanceExtraCurrencies: spec.extraCurrencies,
    accountStatus: status,
    frozenHash: status === 'frozen' ? bytes(Buffer.from((1n).toString(16).padStart(64, '0'), 'hex')) : null,
    dataHash: data ? bytes(data.hash()) : null,
    codeHash: code ? bytes(code.hash()) : null,
  };
  await prisma.accountState.create({ data: { hash: bytes(hash), mcBlockSeqno: MC_SEQNO, ...common } });
  if (opts.latest === false) return hash;
  await prisma.latestAccountState.create({
    data: {
      ...common,
      accountStateHash: bytes(hash),
      lastTransLt: spec.lastTransLt ?? 1n,
      lastTransHash: bytes(spec.lastTransHash ?? Buffer.alloc(32, 7)),
      timestamp: 1745112841,
      dataBoc: data ? bytes(data.toBoc()) : null,
      codeBoc: code ? bytes(code.toBoc()) : null,
    },
  });
  return hash;
}

/**
 * Everything wrong with a JSON value against a response model: unknown or missing keys, keys out of
 * the model's order, wrong types. [] when the value is exactly what the model describes.
 */
export function modelProblems(value: unknown, schema: z.ZodType, path = '$'): string[] {
  if (schema instanceof z.ZodOptional) return value === undefined ? [] : modelProblems(value, schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodNullable) return value === null ? [] : modelProblems(value, schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodObject) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: expected an object`];
    const shape = schema.shape as Record<string, z.ZodType>;
    const order = Object.keys(shape);
    const keys = Object.keys(value);
    const problems: string[] = [];
    for (const k of keys) if (!(k in shape)) problems.push(`${path}.${k}: not in the model`);
    const known = keys.filter((k) => k in shape);
    const expected = order.filter((k) => known.includes(k));
    if (known.join() !== expected.join()) problems.push(`${path}: key order ${known.join(',')} ≠ ${expected.join(',')}`);
    for (const k of order) {
      const v = (value as Record<string, unknown>)[k];
      if (!(k in value) && !(shape[k] instanceof z.ZodOptional)) problems.push(`${path}.${k}: missing`);
      else problems.push(...modelProblems(v, shape[k]!, `${path}.${k}`));
    }
    return problems;
  }
  if (schema instanceof z.ZodArray) {
    if (!Array.isArray(value)) return [`${path}: expected an array`];
    return value.flatMap((v, i) => modelProblems(v, schema.element as z.ZodType, `${path}[${i}]`));
  }
  if (schema instanceof z.ZodRecord) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: expected a map`];
    return Object.entries(value).flatMap(([k, v]) => modelProblems(v, schema.valueType as z.ZodType, `${path}[${k}]`));
  }
  const r = schema.safeParse(value);
  return r.success ? [] : [`${path}: ${r.error.issues[0]!.message} (${JSON.stringify(value)})`];
}
