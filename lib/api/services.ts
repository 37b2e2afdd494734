// What the API routes use besides the request: handed to them by whoever builds the handlers (the app's
// route files pass the process's runtime services; tests pass their own chain and database), never
// looked up through a global.
import type { LiteClient } from 'ton-lite-client';
import type { Access } from '../auth/access';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { Reads } from '../db/replicas';
import type { PendingTraces } from '../pending';
import type { TvmPool } from '../tvm/pool';
import type { SideCache } from './v3/side-cache';
import type { TraceCache } from './v3/trace-cache';
import type { SharedReads } from './v3/shared-reads';
import type { TransactionCache } from './v3/transaction-cache';

/** What a /api/v2 handler needs. */
export interface V2Services {
  config: Config;
  /** The one lite client that reads the chain. */
  lite: LiteClient;
  /** The emulator's worker pool that runs get-methods and fee estimates. */
  tvm: TvmPool;
  /** API keys and rate limits: every request is checked before it runs. */
  access: Access;
  /** Emulates what the sent external messages will do (lib/pending); none: sends are not emulated. */
  pending?: PendingTraces;
  /** The index: v2's history methods answer from it what the lite servers pruned (lib/api/v2/history.ts). */
  db?: Database;
}

/** What a /api/v3 handler needs: the v2 services (its v2-style routes answer live) and the index. */
export interface V3Services extends V2Services {
  /** The primary: the POST routes (sends, emulation) read the index here. */
  db: Database;
  /** Where the GET routes read the index: a read replica in turn, or the primary (lib/db/replicas.ts). */
  reads: Reads;
  /** Finished traces this process built (lib/api/v3/trace-cache.ts); absent: none kept. */
  traceCache?: TraceCache;
  /** Finalized transactions' messages and descriptions this process mapped (lib/api/v3/transaction-cache.ts); absent: none kept. */
  txCache?: TransactionCache;
  /** The address_book and metadata rows this process keeps while it hears their changes (lib/api/v3/side-cache.ts); absent: all are read. */
  sideCache?: SideCache;
  /** Identical GETs in flight share one read (lib/api/v3/shared-reads.ts); absent: each reads alone. */
  sharedReads?: SharedReads;
}

/**
 * Resolves the services when a request needs them. Lazy on purpose: the process's services start once, in
 * the background, and a request that needs none (packAddress, openapi.json) must not wait for them.
 */
export type ServicesSource<S> = () => Promise<S>;
