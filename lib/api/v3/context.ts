// What a v3 route handler may use besides its parameters: the index, the chain (for the v2-style routes
// answered live) and the per-request settings of api-v3.md §1.1 (X-No-Address-Book, X-No-Metadata), plus
// the network (user-friendly testnet flag).
import type { LiteClient } from 'ton-lite-client';
import type { PrismaClient } from '../../db/generated/client';
import type { SqlReader } from '../../db/sql';
import type { PendingTraces } from '../../pending';
import type { TvmPool } from '../../tvm/pool';
import type { SideCache } from './side-cache';
import type { TraceCache } from './trace-cache';
import type { TransactionCache } from './transaction-cache';

export interface V3Context {
  /**
   * The index, the one client a route reads it through: for a GET route a read replica or the primary
   * (one of them for the whole request, lib/db/replicas.ts), for a POST route the primary.
   */
  prisma: PrismaClient;
  /** The same database's reads on the driver (lib/db/sql.ts): the hot query modules' reads. */
  sql: SqlReader;
  /** The lite client, for the routes answered live (account, wallet, message, runGetMethod, estimateFee). */
  lite: LiteClient;
  /** The TVM pool, for the live runGetMethod and estimateFee. */
  tvm: TvmPool;
  /** The pending-trace emulator and its store (POST /message, pendingTraces…); absent: those answer 500. */
  pending?: PendingTraces;
  /** User-friendly addresses carry the testnet flag. */
  testnet: boolean;
  /** X-No-Address-Book: address_book becomes {}. */
  noAddressBook: boolean;
  /** X-No-Metadata: metadata becomes {}. */
  noMetadata: boolean;
  /** Finished traces already built by this process (trace-cache.ts); absent: every trace is built. */
  traceCache?: TraceCache;
  /** Finalized transactions' parts already mapped by this process (transaction-cache.ts); absent: all are mapped. */
  txCache?: TransactionCache;
  /** The address_book and metadata rows this process keeps while it hears their changes (side-cache.ts); absent: all are read. */
  sideCache?: SideCache;
  /** X-Actions-Version: replaces supported_action_types with this one name (api-v3.md §4.4); null when absent. */
  actionsVersion: string | null;
  /** Transactions one answer may carry in full (API_MAX_ANSWER_TRANSACTIONS, answer-budget.ts). */
  maxAnswerTransactions: number;
  /**
   * Throws the request's 504 once its time budget (X-Timeout, capped by DB_STATEMENT_TIMEOUT_MS) is spent.
   * Heavy routes call it between their stages: their reads and mapping keep the one thread busy, so no
   * timer can interrupt them, and work past the budget would be thrown away anyway.
   */
  checkBudget(): void;
}
