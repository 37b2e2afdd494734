/**
 * The cache layer between LiteClient and an engine (the pool, or the devnet's in-process engine).
 *
 * Why here and not above LiteClient: keyed by the query's bytes it covers every LiteClient method
 * and raw `engine.query(...)` calls alike, and needs no knowledge of LiteClient's API. LiteClient
 * itself only memoizes lookupBlockByID/getBlockHeader/getAllShardsInfo/getAccountState in
 * DataLoaders keyed by (workchain, shard, seqno) without hashes, forever (LRU 1000);
 * createLiteClient gives those DataLoaders a TTL-bounded map instead (TtlLru).
 *
 * - Immutable answers (everything addressed by a full block id with hashes, transactions by
 *   lt+hash, blocks by seqno, libraries by hash) are kept `immutableTtlMs` (default 60 s) in an LRU
 *   bounded by entries and bytes. Lookups by lt or utime are not cached (the answer can change
 *   while the chain catches up), nor is getState (too large).
 * - The head (getMasterchainInfo, getMasterchainInfoExt) is kept `headTtlMs` (default 250 ms);
 *   calls with awaitSeqno bypass it (their answer refreshes it).
 * - Identical concurrent cacheable queries share one request.
 * - Errors are never cached. Every caller gets its own deep copy of the answer.
 * - Errors of foreign engines are normalized to LiteTimeoutError / LiteServerError.
 * - Every query, hit or miss, is noted in the current work's ledger of lite reads (provenance.ts):
 *   checked when the engine below verifies that function (LITE_VERIFY=on; only checked answers are cached).
 */
import { EventEmitter } from 'node:events';
import type { LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import { normalizeLiteError } from './errors';
import { countingLiteReads, noteLiteRead } from './provenance';
import { LiteFn, encodeLiteCall } from './wire';

export interface LiteCacheOptions {
  /** Lifetime of immutable answers (default 60 000 ms; 0 disables). */
  immutableTtlMs?: number;
  /** Lifetime of the head (default 250 ms; 0 disables). */
  headTtlMs?: number;
  /** Most answers kept (default 5000). */
  maxEntries?: number;
  /** Most bytes of answers kept, roughly (default 64 MiB). */
  maxBytes?: number;
}

export interface LiteCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** A Map-like LRU with a time to live and optional byte accounting; also usable as a DataLoader cacheMap. */
export class TtlLru<K, V> {
  readonly #map = new Map<K, { value: V; expires: number; size: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #sizeOf: ((v: V) => number) | undefined;
  #bytes = 0;

  constructor(opts: { ttlMs: number; maxEntries: number; maxBytes?: number; sizeOf?: (v: V) => number }) {
    this.#ttlMs = opts.ttlMs;
    this.#maxEntries = Math.max(1, opts.maxEntries);
    this.#maxBytes = opts.maxBytes ?? Infinity;
    this.#sizeOf = opts.sizeOf;
  }

  get size(): number {
    return this.#map.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: K): V | undefined {
    const e = this.#map.get(key);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.delete(key);
      return undefined;
    }
    this.#map.delete(key);
    this.#map.set(key, e);
    return e.value;
  }

  set(key: K, value: V, ttlMs = this.#ttlMs): this {
    this.delete(key);
    const size = this.#sizeOf?.(value) ?? 0;
    if (ttlMs <= 0 || size > this.#maxBytes) return this;
    this.#map.set(key, { value, expires: Date.now() + ttlMs, size });
    this.#bytes += size;
    while (this.#map.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    const e = this.#map.get(key);
    if (!e) return false;
    this.#bytes -= e.size;
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }
}

/** Deep copy of a decoded TL value (plain objects, arrays, Buffers, primitives). */
export function cloneTl<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Buffer.isBuffer(v)) return Buffer.from(v) as T;
  if (v instanceof Uint8Array) return new Uint8Array(v) as T;
  if (Array.isArray(v)) return v.map((x) => cloneTl(x) as unknown) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = cloneTl(x);
  return out as T;
}

/** Rough memory size of a decoded TL value. */
export function sizeOfTl(v: unknown): number {
  if (v === null || typeof v !== 'object') return typeof v === 'string' ? 16 + v.length * 2 : 8;
  if (v instanceof Uint8Array) return 64 + v.byteLength;
  let n = 32;
  for (const x of Array.isArray(v) ? v : Object.values(v)) n += 8 + sizeOfTl(x);
  return n;
}

type Policy = 'immutable' | 'head' | null;

const IMMUTABLE = new Set<number>([
  LiteFn.getBlock,
  LiteFn.getBlockHeader,
  LiteFn.getAccountState,
  LiteFn.getAccountStatePrunned,
  LiteFn.runSmcMethod,
  LiteFn.getShardInfo,
  LiteFn.getAllShardsInfo,
  LiteFn.getOneTransaction,
  LiteFn.getTransactions,
  LiteFn.listBlockTransactions,
  LiteFn.listBlockTransactionsExt,
  LiteFn.getBlockProof,
  LiteFn.getConfigAll,
  LiteFn.getConfigParams,
  LiteFn.getLibraries,
]);

function policyFor(call: Buffer): Policy {
  if (call.length < 4) return null;
  const id = call.readUInt32LE(0);
  if (id === LiteFn.getMasterchainInfo || id === LiteFn.getMasterchainInfoExt) return 'head';
  if (IMMUTABLE.has(id)) return 'immutable';
  // liteServer.lookupBlock mode:# id:tonNode.blockId ...: only by seqno (mode bit 0), not by lt/utime.
  if (id === LiteFn.lookupBlock && call.length >= 8) return (call.readInt32LE(4) & 6) === 0 ? 'immutable' : null;
  return null;
}

export interface CachedLiteEngineOptions {
  /** Per-request timeout passed down when the caller gives none (default 5000 ms). */
  timeoutMs?: number;
  /** Cache settings, or false for none (errors are still normalized). */
  cache?: LiteCacheOptions | false;
}

export class CachedLiteEngine extends EventEmitter implements LiteEngine {
  readonly inner: LiteEngine;
  readonly #timeoutMs: number;
  readonly #cache: TtlLru<string, unknown> | null;
  readonly #immutableTtlMs: number;
  readonly #headTtlMs: number;
  readonly #inflight = new Map<string, Promise<unknown>>();
  readonly #fnIds = new WeakMap<object, number>();
  /** The engine below's VerifyingLiteEngine.checks, when it is one (by shape: see errors.ts on bundle copies). */
  readonly #checks: ((fnId: number) => boolean) | undefined;
  #nextFnId = 1;
  #hits = 0;
  #misses = 0;

  constructor(inner: LiteEngine, opts: CachedLiteEngineOptions = {}) {
    super();
    this.inner = inner;
    const checks = (inner as { checks?: unknown }).checks;
    this.#checks = typeof checks === 'function' ? (checks.bind(inner) as (fnId: number) => boolean) : undefined;
    this.#timeoutMs = opts.timeoutMs ?? 5000;
    const c = opts.cache === false ? null : (opts.cache ?? {});
    this.#immutableTtlMs = c ? (c.immutableTtlMs ?? 60_000) : 0;
    this.#headTtlMs = c ? (c.headTtlMs ?? 250) : 0;
    this.#cache = c
      ? new TtlLru<string, unknown>({ ttlMs: this.#immutableTtlMs, maxEntries: c.maxEntries ?? 5000, maxBytes: c.maxBytes ?? 64 << 20, sizeOf: sizeOfTl })
      : null;
    inner.on('connect', () => this.emit('connect'));
    inner.on('ready', () => this.emit('ready'));
    inner.on('close', () => this.emit('close'));
  }

  isClosed(): boolean {
    return this.inner.isClosed();
  }

  isReady(): boolean {
    return this.inner.isReady();
  }

  close(): void {
    this.#cache?.clear();
    this.inner.close();
  }

  stats(): LiteCacheStats {
    return { hits: this.#hits, misses: this.#misses, entries: this.#cache?.size ?? 0, bytes: this.#cache?.bytes ?? 0 };
  }

  /** Drops every cached answer (e.g. after the devnet was reset). */
  clearCache(): void {
    this.#cache?.clear();
  }

  async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args?: { timeout?: number; awaitSeqno?: number }): Promise<RES> {
    const timeout = args?.timeout ?? this.#timeoutMs;
    const innerArgs = { ...args, timeout };
    const cache = this.#cache;
    const counting = countingLiteReads();
    const call = cache || counting ? encodeLiteCall(f, req) : null;
    if (counting) noteLiteRead(call!.length >= 4 && this.#checks?.(call!.readUInt32LE(0)) === true);
    const policy = call ? policyFor(call) : null;
    const ttl = policy === 'head' ? this.#headTtlMs : this.#immutableTtlMs;
    if (!cache || !call || !policy || ttl <= 0) return this.#call(f, req, innerArgs);

    // Answers decoded by different TL function objects may differ in shape: keep them apart.
    let fnId = this.#fnIds.get(f);
    if (fnId === undefined) {
      fnId = this.#nextFnId++;
      this.#fnIds.set(f, fnId);
    }
    const key = `${fnId}:${call.toString('base64')}`;
    const bypass = policy === 'head' && args?.awaitSeqno !== undefined;
    if (!bypass) {
      const hit = cache.get(key);
      if (hit !== undefined) {
        this.#hits++;
        return cloneTl(hit as RES);
      }
      const shared = this.#inflight.get(key);
      if (shared) {
        this.#hits++;
        return cloneTl((await shared) as RES);
      }
    }
    this.#misses++;
    const p = this.#call(f, req, innerArgs).then((res) => {
      cache.set(key, cloneTl(res), ttl);
      return res;
    });
    if (!bypass) {
      this.#inflight.set(key, p);
      void p.then(
        () => this.#inflight.delete(key),
        () => this.#inflight.delete(key),
      );
    }
    return cloneTl(await p);
  }

  async #call<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args: { timeout: number; awaitSeqno?: number }): Promise<RES> {
    try {
      return await this.inner.query(f, req, args);
    } catch (e) {
      throw normalizeLiteError(e, args.timeout);
    }
  }
}
