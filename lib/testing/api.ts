/**
 * The API under test: the real route handlers of /api/v2 and /api/v3, built with the services a test
 * gives them (its own chain, its own database), called in-process or through a real HTTP server.
 *
 *   const api = testApi({ lite: chain.lite, db: chain.db?.db });
 *   const r = await api.callV2('post', 'runGetMethod', { address, method: 'seqno', stack: [] });
 */
import type { LiteClient } from 'ton-lite-client';
import { unlimitedAccess, type Access } from '../auth/access';
import { apiDispatcher, apiRoutes, type RouteFinder } from '../api/dispatch';
import type { V2Services, V3Services } from '../api/services';
import { TraceCache } from '../api/v3/trace-cache';
import { SharedReads } from '../api/v3/shared-reads';
import { TransactionCache } from '../api/v3/transaction-cache';
import type { SideCache } from '../api/v3/side-cache';
import { config as processConfig, type Config } from '../config';
import type { Database } from '../db/database';
import { primaryReads, type Reads } from '../db/replicas';
import { log } from '../log';
import { PendingTraces, type PendingEntry } from '../pending';
import { memoryPendingStore } from '../pending/store';
import { TvmPool } from '../tvm/pool';
import type { StreamEndpoints } from '../stream/gateway';
import { startHttpTestServer, type HttpTestServer } from './http-server';

export type Mode = 'get' | 'post' | 'rpc';
export const MODES: Mode[] = ['get', 'post', 'rpc'];

export interface V2Answer {
  status: number;
  headers: Headers;
  body: { ok: boolean; result?: unknown; error?: string; code?: number; jsonrpc?: string; id?: unknown };
}

export interface V3Answer<T = unknown> {
  status: number;
  headers: Headers;
  /** The body exactly as sent. */
  text: string;
  body: T;
}

type QueryValue = string | number | boolean | bigint | (string | number | bigint)[];

export interface TestApi {
  /** A v2 method in one of the three call modes; GET takes string values (arrays repeat the key), POST and JSON-RPC send JSON. */
  callV2(mode: Mode, method: string, params?: Record<string, unknown>, rawBody?: string): Promise<V2Answer>;
  /** GET /api/v3/<path>; query values that are arrays repeat the key; a string query is used as is. */
  callV3<T = Record<string, unknown>>(
    path: string,
    query?: Record<string, QueryValue | undefined> | string,
    init?: { headers?: Record<string, string>; method?: string; body?: string },
  ): Promise<V3Answer<T>>;
  /** The same request as callV3, its Response unread (a benchmark reads the bytes without parsing them). */
  fetchV3(path: string, query?: Record<string, QueryValue | undefined> | string, init?: { headers?: Record<string, string>; method?: string; body?: string }): Promise<Response>;
  /** POST /api/v3/<path> with a JSON body. */
  postV3<T = Record<string, unknown>>(path: string, body: unknown, headers?: Record<string, string>): Promise<V3Answer<T>>;
  /** Any request to /api/v2 or /api/v3, dispatched to its handler as the app's router does. */
  fetch(req: Request): Promise<Response>;
  /** The handler for a path and method, as the HTTP edge finds it (lib/server/direct-api.ts); undefined where Next answers. */
  routes: RouteFinder;
  /** A real HTTP server on 127.0.0.1 in front of the same handlers (for unmodified HTTP clients), and `streams` when given. */
  serve(streams?: StreamEndpoints): Promise<HttpTestServer>;
  /** The TVM pool the routes run get-methods and fee estimates in (its own unless given). */
  tvm: TvmPool;
  /** The pending-trace emulator sends go through (in memory unless given; none without a chain). */
  pending?: PendingTraces;
  /** Ends the TVM pool's workers (idle workers never keep a test process alive). */
  close(): Promise<void>;
}

const ORIGIN = 'http://atlas.test';

/** Stands in for a service a test API was not given: any use of it fails the test, saying so. */
const missing = <T extends object>(what: string): T =>
  new Proxy({} as T, {
    get() {
      throw new Error(`this test API has no ${what}: pass it to testApi`);
    },
  });
const noChain = missing<LiteClient>('chain (lite)');
const noDatabase = missing<Database>('database (db)');

/**
 * `config`: the test process's configuration unless given (e.g. parseConfig({CORS_ORIGINS: ...})).
 * `access`: keys and limits (lib/auth createAccess); none checked unless given.
 * `reads`: where the GET routes read the index (lib/db/replicas.ts); the primary `db` unless given.
 */
export function testApi(parts: {
  lite?: LiteClient;
  db?: Database;
  reads?: Reads;
  config?: Config;
  tvm?: TvmPool;
  access?: Access;
  pending?: PendingTraces;
  /** The v3 trace cache: a fresh one by default, none with null. */
  traceCache?: TraceCache | null;
  /** The v3 transaction cache: a fresh one by default, none with null. */
  txCache?: TransactionCache | null;
  /**
   * The side-map cache (listening on `db`: the caller does db.listen). None by default: a test that writes
   * rows and reads them back at once would race the change notice on PostgreSQL.
   */
  sideCache?: SideCache;
  /** Identical GETs in flight share one read: a fresh SharedReads by default, none with null. */
  sharedReads?: SharedReads | null;
  /** Told of each entry the pending store keeps (the Streaming API's publisher), when no `pending` is given. */
  onPendingStored?: (entry: PendingEntry) => void;
}): TestApi {
  const config = parts.config ?? processConfig();
  const tvm = parts.tvm ?? new TvmPool();
  const access = parts.access ?? unlimitedAccess;
  const pending =
    parts.pending ??
    (parts.lite
      ? new PendingTraces({ lite: parts.lite, tvm, store: memoryPendingStore(), prisma: parts.db?.prisma, log: log.child({ component: 'pending' }), onStored: parts.onPendingStored })
      : undefined);
  const v2 = async (): Promise<V2Services> => ({ config, lite: parts.lite ?? noChain, tvm, access, pending, db: parts.db });
  const db = parts.db ?? noDatabase;
  const reads = parts.reads ?? primaryReads(db);
  // As a process keeps one (lib/runtime.ts), unless the test asks for none.
  const traceCache = parts.traceCache === null ? undefined : (parts.traceCache ?? new TraceCache(config.traceCacheBytes));
  const txCache = parts.txCache === null ? undefined : (parts.txCache ?? new TransactionCache(config.txCacheBytes));
  const sharedReads = parts.sharedReads === null ? undefined : (parts.sharedReads ?? new SharedReads());
  const v3 = async (): Promise<V3Services> => ({ config, lite: parts.lite ?? noChain, tvm, db, reads, access, pending, traceCache, txCache, sideCache: parts.sideCache, sharedReads });
  const routes = apiRoutes(v2, v3);
  const fetch = apiDispatcher(routes);

  const api: TestApi = {
    async callV2(mode, method, params = {}, rawBody) {
      const json = { 'content-type': 'application/json' };
      let req: Request;
      if (mode === 'get') {
        const q = new URLSearchParams();
        for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, String(x));
        req = new Request(`${ORIGIN}/api/v2/${method}?${q}`);
      } else if (mode === 'post') {
        req = new Request(`${ORIGIN}/api/v2/${method}`, { method: 'POST', body: rawBody ?? JSON.stringify(params), headers: json });
      } else {
        const body = rawBody ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
        req = new Request(`${ORIGIN}/api/v2/jsonRPC`, { method: 'POST', body, headers: json });
      }
      const res = await fetch(req);
      return { status: res.status, headers: res.headers, body: await res.json() };
    },
    async callV3(path, query = {}, init = {}) {
      const res = await api.fetchV3(path, query, init);
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
    },
    fetchV3(path, query = {}, init = {}) {
      let qs: string;
      if (typeof query === 'string') qs = query;
      else {
        const q = new URLSearchParams();
        for (const [k, v] of Object.entries(query)) {
          if (v === undefined) continue;
          for (const x of Array.isArray(v) ? v : [v]) q.append(k, String(x));
        }
        qs = q.toString();
      }
      return fetch(new Request(`${ORIGIN}/api/v3/${path}${qs ? `?${qs}` : ''}`, { method: init.method ?? 'GET', headers: init.headers, body: init.body }));
    },
    postV3(path, body, headers = { 'content-type': 'application/json' }) {
      return api.callV3(path, {}, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
    },
    fetch,
    routes,
    serve: (streams) => startHttpTestServer(fetch, streams),
    tvm,
    pending,
    async close() {
      // Emulations still running use the pool: they finish (or fail) first.
      await pending?.close();
      await tvm.close();
    },
  };
  return api;
}
