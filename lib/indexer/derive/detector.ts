// The contract between the derive stage (index.ts) and one detector module per interface family
// (jettons.ts; nft.ts for NFTs, sales and DNS): a detector names the interfaces it recognizes, confirms
// them on an account by running get-methods, and turns one masterchain block into rows of its tables.
// Adding a family is adding a module that implements Detector and listing it in DETECTORS (index.ts).
import type { Cell, TupleItem } from '@ton/core';
import { rawUpper } from '../../ton/address';
import { stackAddress } from '../../ton/jetton-getters';
import type { PrismaClient } from '../../db/generated/client';
import type { AccountStateRecord } from '../account-state';
import type { ParsedBlock } from '../../chain/records';
import type { TableRows } from '../sql';

/** An account touched by the block, with its state at the masterchain block and what it implements. */
export interface DerivedAccount {
  state: AccountStateRecord;
  /** The code that runs (a library cell resolved to the library's code). */
  code: Cell;
  data: Cell;
  interfaces: readonly string[];
}

/** Runs a get-method on an account's indexed state: its stack, or null when it did not exit with 0 or 1. */
export type GetterRun = (account: DerivedAccount, method: string, stack?: TupleItem[]) => Promise<TupleItem[] | null>;

export interface DeriveBlock {
  mcSeqno: number;
  /** The masterchain block and the shard blocks it registered, masterchain block first. */
  blocks: ParsedBlock[];
  /** Every account the blocks touched that has code, by raw address. */
  accounts: ReadonlyMap<string, DerivedAccount>;
  /** Message bodies by cell hash (hex). */
  contents: ReadonlyMap<string, Buffer>;
  run: GetterRun;
  /** Any indexed account (the block's own state, else the index's latest one), for get-methods on it; null when unknown. */
  account(address: string): Promise<DerivedAccount | null>;
  /** Queues off-chain content URIs for the metadata fetcher (lib/metadata). */
  enqueueMetadata(uris: string[]): Promise<void>;
}

export interface Detector {
  name: string;
  /** The interfaces this family may have, judged from the get-method ids a code declares (cheap, no run). */
  candidates(methods: ReadonlySet<number>): string[];
  /** Whether `iface` (one of candidates()) really answers on this account: runs its get-method. */
  confirm(iface: string, account: DerivedAccount, run: GetterRun): Promise<boolean>;
  /** The rows of this family's tables for one masterchain block. */
  derive(block: DeriveBlock): Promise<TableRows[]>;
  /**
   * Backfill of an index made before this family existed (backfill.ts), after its accounts were
   * derived: the rows of already-indexed transactions with lt above `afterLt`, a page at a time (every
   * transaction of the page's last lt included); lastLt null when none is left.
   */
  history?(prisma: PrismaClient, afterLt: bigint, limit: number): Promise<{ tables: TableRows[]; lastLt: bigint | null; count: number }>;
}

/**
 * Accounts a detector (and the stage, deciding interfaces) works on at once: a get-method's round trip
 * to the TVM pool (2 workers) is waited for while others run, and the pool's queue (64) never fills up
 * with the few blocks being prepared at once.
 */
export const ACCOUNTS_AT_ONCE = 4;

/** The interfaces of `declares` (name → get-method ids) whose every method a code declares: a detector's candidates(). */
export const declaredBy = (declares: Record<string, number[]>, methods: ReadonlySet<number>): string[] =>
  Object.entries(declares)
    .filter(([, ids]) => ids.every((id) => methods.has(id)))
    .map(([name]) => name);

/** ON CONFLICT clause of a table keyed by address: only a newer state of the account replaces its row. */
export const newerState = (table: string, columns: readonly string[]) =>
  `ON CONFLICT (address) DO UPDATE SET ${columns
    .filter((c) => c !== 'address')
    .map((c) => `"${c}" = EXCLUDED."${c}"`)
    .join(', ')} WHERE ${table}.last_transaction_lt < EXCLUDED.last_transaction_lt`;

/** A get-method's answer read by `read`; null when it did not run or its answer is not what `read` expects. */
export async function readGetter<T>(account: DerivedAccount, run: GetterRun, method: string, read: (stack: TupleItem[]) => T): Promise<T | null> {
  const stack = await run(account, method);
  try {
    return stack ? read(stack) : null;
  } catch {
    return null;
  }
}

/**
 * Vouching of a child contract by its parent: whether `parent`'s get-method (on its indexed state) names
 * `child` as the address it would deploy — a jetton master's get_wallet_address for a wallet, a
 * multisig's get_order_address for an order. Any contract can answer a child's get-method claiming a
 * real parent; without this its made-up rows would be listed under that parent. `key` names what was
 * vouched for (what never changes about the child); answers are remembered, so a child is asked about
 * once, and the memory is dropped wholesale when full.
 */
export class Vouching {
  private readonly vouched = new Set<string>();
  constructor(private readonly max: number) {}

  async check(block: DeriveBlock, key: string, child: string, parent: string, method: string, stack: TupleItem[]): Promise<boolean> {
    if (this.vouched.has(key)) return true;
    const account = await block.account(parent);
    if (!account) return false;
    const answer = await block.run(account, method, stack);
    let named: string | null = null;
    try {
      const a = answer ? stackAddress(answer[0]) : null;
      named = a ? rawUpper(a) : null;
    } catch {
      named = null;
    }
    if (named !== child) return false;
    if (this.vouched.size >= this.max) this.vouched.clear();
    this.vouched.add(key);
    return true;
  }
}
