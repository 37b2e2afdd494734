/**
 * A ton-lite-client LiteEngine over several lite servers (one LiteConnection each).
 *
 * - Connects eagerly to every server at construction; each connection reconnects on its own with
 *   backoff (connection.ts). A query waits for the first ready connection within its budget.
 * - Routing: round robin over ready connections, skipping those that are down.
 * - Budget: one per request (`args.timeout` or `timeoutMs`, default 5 s) covering waiting for a
 *   connection, every attempt and retries. When it runs out the query rejects with
 *   LiteTimeoutError, never later (attempt timers and waits are capped by the deadline).
 * - Reads are retried on another server when a connection is down or lost mid-query, and after an
 *   attempt times out. While another untried ready server exists, an attempt gets half of the
 *   remaining budget so a stuck server cannot eat all of it (not for awaitSeqno queries, whose
 *   server-side wait is the full budget). A server whose query timed out is pinged and dropped
 *   if it does not answer.
 * - A server that let an attempt time out is used only as a last resort for `slowServerPenaltyMs`.
 * - liteServer.error answers are final (LiteServerError with code and message), except 651
 *   (notready: a lagging server, a block it does not have yet), which is tried on one other
 *   ready server.
 * - sendMessage is never sent twice: it is retried only while it has not been written to any
 *   socket; a timeout or a connection loss after writing rejects with LiteTimeoutError (the
 *   message may or may not have reached the network).
 * - Diagnostics: status() per server (by its index in the config): up or not, whether it answered
 *   last, its recent latency, the last masterchain seqno it reported and its last failure; a
 *   LiteTimeoutError lists every server and why it gave no answer. probe() asks each server for
 *   its head so status() is current (health and the v2 root call it).
 */
import { EventEmitter } from 'node:events';
import type { LiteEngine } from 'ton-lite-client';
import type { TLFunction } from 'ton-tl';
import {
  AttemptTimeoutError,
  ConnectionLostError,
  LiteConnection,
  type LiteConnectionOptions,
  type LiteConnectionState,
  type LiteLogger,
  type LiteServerEndpoint,
} from './connection';
import { LiteErrorCodes, LiteServerError, LiteTimeoutError, type LiteServerOutcome } from './errors';
import { LiteFn, decodeLiteAnswer, decodeLiteErrorAnswer, encodeLiteCall, headSeqnoOf, masterchainInfoCall, waitMasterchainSeqnoPrefix } from './wire';

export const DEFAULT_LITE_TIMEOUT_MS = 5000;

export interface LitePoolOptions extends LiteConnectionOptions {
  /** Per-request budget when the caller passes no `timeout` (default 5000 ms). */
  timeoutMs?: number;
  logger?: LiteLogger;
  /** After an attempt timed out on a server, prefer the others for this long (default 5000 ms). */
  slowServerPenaltyMs?: number;
}

export interface LiteServerStatus {
  /** Position in the pool's server list (the global config's liteservers). */
  index: number;
  /** host:port */
  server: string;
  state: LiteConnectionState;
  /** Connected, and its last query or probe got an answer. */
  answering: boolean;
  /** Mean time of its last few answers (ms), or null before the first. */
  latencyMs: number | null;
  /** The newest masterchain seqno it reported (getMasterchainInfo answers and probes), and when. */
  lastSeqno: number | null;
  lastSeqnoAt: string | null;
  /** Successful handshakes so far (1 = connected once, never lost). */
  connects: number;
  /** Why the connection was last lost or could not be made (null while it never failed or since it reconnected). */
  lastError: string | null;
  /** When this server last answered a query (ISO time), or null. */
  lastSuccessAt: string | null;
  /** When a query on this server or the connection to it last failed (ISO time), and why. */
  lastFailureAt: string | null;
  lastFailure: string | null;
}

/** A server's history as the pool saw it, for status(). */
interface ServerHistory {
  okAt?: number;
  failAt?: number;
  failure?: string;
  /** Whether the last query or probe on it was answered. */
  answered?: boolean;
  /** Durations of its last LATENCY_SAMPLES answers (ms). */
  latencies?: number[];
  seqno?: number;
  seqnoAt?: number;
}

const LATENCY_SAMPLES = 8;
/** A probe within this long of the previous one answers with that one's results. */
const PROBE_EVERY_MS = 1000;

export class LitePool extends EventEmitter implements LiteEngine {
  readonly #connections: LiteConnection[];
  readonly #timeoutMs: number;
  readonly #log: LiteLogger | undefined;
  readonly #readyWaiters = new Set<() => void>();
  readonly #penaltyMs: number;
  /** Connection id → time until which it is picked only when nothing else is ready. */
  readonly #slowUntil = new Map<number, number>();
  /** Connection id → last answer and last failure. */
  readonly #history = new Map<number, ServerHistory>();
  #next = 0;
  #closed = false;
  #probing: Promise<void> | undefined;
  #probedAt = 0;

  constructor(servers: readonly LiteServerEndpoint[], opts: LitePoolOptions = {}) {
    super();
    if (servers.length === 0) throw new TypeError('LitePool needs at least one lite server');
    this.#timeoutMs = opts.timeoutMs ?? DEFAULT_LITE_TIMEOUT_MS;
    this.#log = opts.logger;
    this.#penaltyMs = opts.slowServerPenaltyMs ?? 5000;
    this.#connections = servers.map((s) => new LiteConnection(s, opts, opts.logger));
    for (const c of this.#connections) {
      c.on('down', (reason: string) => this.#failed(c, reason));
      c.on('ready', () => {
        for (const w of [...this.#readyWaiters]) w();
        this.emit('ready');
      });
      c.start();
    }
  }

  isClosed(): boolean {
    return this.#closed;
  }

  /** True while at least one server is connected. */
  isReady(): boolean {
    return !this.#closed && this.#connections.some((c) => c.isReady());
  }

  status(): LiteServerStatus[] {
    const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());
    return this.#connections.map((c, index) => {
      const h = this.#history.get(c.id) ?? {};
      const l = h.latencies ?? [];
      return {
        index,
        server: c.label,
        state: c.state,
        answering: c.isReady() && h.answered === true,
        latencyMs: l.length ? Math.round((l.reduce((a, b) => a + b, 0) / l.length) * 10) / 10 : null,
        lastSeqno: h.seqno ?? null,
        lastSeqnoAt: iso(h.seqnoAt),
        connects: c.generation,
        lastError: c.lastError,
        lastSuccessAt: iso(h.okAt),
        lastFailureAt: iso(h.failAt),
        lastFailure: h.failure ?? null,
      };
    });
  }

  /**
   * Asks every connected server for its head at once (within `timeoutMs`, default the smaller of the
   * budget and 2 s), so status() says which answer, how fast and how far they are; servers that are
   * down are woken to reconnect. Calls within a second of the last probe share it.
   */
  probe(timeoutMs = Math.min(this.#timeoutMs, 2000)): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#probing) return this.#probing;
    if (Date.now() - this.#probedAt < PROBE_EVERY_MS) return Promise.resolve();
    const call = masterchainInfoCall();
    const one = async (c: LiteConnection) => {
      if (!c.isReady()) return c.wake();
      const t0 = performance.now();
      try {
        const answer = await c.query(call, timeoutMs);
        const err = decodeLiteErrorAnswer(answer);
        if (err) this.#failed(c, `liteServer.error ${err.code}: ${err.message}`);
        else this.#answered(c, call, answer, performance.now() - t0);
      } catch (e) {
        this.#failed(c, reasonOf(c, e));
      }
    };
    this.#probing = Promise.all(this.#connections.map(one)).then(
      () => void (this.#probedAt = Date.now()),
      () => undefined,
    );
    void this.#probing.finally(() => (this.#probing = undefined));
    return this.#probing;
  }

  #failed(c: LiteConnection, reason: string): void {
    const h = this.#history.get(c.id) ?? {};
    this.#history.set(c.id, { ...h, failAt: Date.now(), failure: reason, answered: false });
  }

  /** `c` answered `data` (any answer, liteServer.error included: the server is reachable and serving). */
  #answered(c: LiteConnection, data: Buffer, answer: Buffer, ms: number): void {
    const h = this.#history.get(c.id) ?? {};
    const seqno = headSeqnoOf(data, answer);
    this.#history.set(c.id, {
      ...h,
      okAt: Date.now(),
      answered: true,
      latencies: [...(h.latencies ?? []), ms].slice(-LATENCY_SAMPLES),
      ...(seqno !== undefined && seqno >= (h.seqno ?? 0) && { seqno, seqnoAt: Date.now() }),
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const c of this.#connections) c.close();
    for (const w of [...this.#readyWaiters]) w();
    this.emit('close');
  }

  async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args?: { timeout?: number; awaitSeqno?: number }): Promise<RES> {
    if (this.#closed) throw new Error('Engine is closed');
    const timeoutMs = args?.timeout ?? this.#timeoutMs;
    const call = encodeLiteCall(f, req);
    const awaitSeqno = args?.awaitSeqno;
    const data = awaitSeqno === undefined ? call : Buffer.concat([waitMasterchainSeqnoPrefix(awaitSeqno, timeoutMs), call]);
    const isSend = call.readUInt32LE(0) === LiteFn.sendMessage;
    const answer = await this.#run(data, timeoutMs, !isSend, awaitSeqno === undefined);
    return decodeLiteAnswer(f, answer);
  }

  /** Sends `data` (a liteServer.query payload) and resolves with a non-error answer. */
  async #run(data: Buffer, timeoutMs: number, retryable: boolean, splitBudget: boolean): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    const tried = new Set<string>();
    let notReadyRetries = 0;
    let lastFailure: Error | undefined;
    /** Connection id → why this request got no answer there. */
    const outcomes = new Map<number, string>();
    const servers = (): LiteServerOutcome[] =>
      this.#connections.map((c, index) => ({
        index,
        reason: outcomes.get(c.id) ?? (c.isReady() ? 'not tried in time' : `not connected${c.lastError ? ` (${c.lastError})` : ''}`),
      }));
    const timeout = (why?: string) =>
      new LiteTimeoutError(
        why ?? `no lite server answered within ${timeoutMs} ms${lastFailure ? ` (last: ${lastFailure.message})` : ''}`,
        timeoutMs,
        { cause: lastFailure, servers: servers() },
      );

    for (;;) {
      if (this.#closed) throw new Error('Engine is closed');
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw timeout();
      const conn = this.#pick(tried);
      if (!conn) {
        // Nothing (else) up: hurry the reconnects along and wait for one, within the budget.
        for (const c of this.#connections) c.wake();
        await this.#waitReady(remaining);
        continue;
      }
      tried.add(`${conn.id}:${conn.generation}`);
      const attemptMs = splitBudget && retryable && this.#pick(tried, false) ? Math.max(1, Math.ceil(remaining / 2)) : remaining;
      let answer: Buffer;
      const t0 = performance.now();
      try {
        answer = await conn.query(data, attemptMs);
      } catch (e) {
        const reason = reasonOf(conn, e);
        this.#failed(conn, reason);
        outcomes.set(conn.id, reason);
        if (e instanceof ConnectionLostError) {
          if (!retryable && e.written) {
            throw timeout(`lost the connection to ${conn.label} before it answered (${e.message}); not resent`);
          }
          lastFailure = e;
          continue;
        }
        if (e instanceof AttemptTimeoutError) {
          lastFailure = new Error(`${conn.label}: ${e.message}`);
          this.#slowUntil.set(conn.id, Date.now() + this.#penaltyMs);
          if (!retryable) throw timeout(`${conn.label} did not answer within ${timeoutMs} ms; not resent`);
          continue;
        }
        throw e;
      }
      // An answer, even liteServer.error, means the server is reachable and serving.
      this.#answered(conn, data, answer, performance.now() - t0);
      const err = decodeLiteErrorAnswer(answer);
      if (!err) return answer;
      if (retryable && err.code === LiteErrorCodes.notready && notReadyRetries < 1 && this.#pick(tried, false)) {
        notReadyRetries++;
        lastFailure = err;
        outcomes.set(conn.id, `liteServer.error ${err.code}: ${err.message}`);
        this.#log?.debug({ server: conn.label, code: err.code, err: err.message }, 'lite server not ready; trying another');
        continue;
      }
      throw new LiteServerError(err.code, err.message);
    }
  }

  /**
   * Next ready connection (round robin) whose current session has not been tried; servers that
   * recently timed out only when no other is available.
   */
  #pick(tried: Set<string>, advance = true): LiteConnection | null {
    const n = this.#connections.length;
    const now = Date.now();
    for (const allowSlow of [false, true]) {
      for (let i = 0; i < n; i++) {
        const c = this.#connections[(this.#next + i) % n];
        if (!c.isReady() || tried.has(`${c.id}:${c.generation}`)) continue;
        if (!allowSlow && (this.#slowUntil.get(c.id) ?? 0) > now) continue;
        if (advance) this.#next = (this.#next + i + 1) % n;
        return c;
      }
    }
    return null;
  }

  #waitReady(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#readyWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#readyWaiters.add(done);
    });
  }
}

/** Why a query on `c` failed, in words without the server's address (status() and errors show it). */
function reasonOf(c: LiteConnection, e: unknown): string {
  if (e instanceof ConnectionLostError) return `connection lost before it answered${c.lastError ? ` (${c.lastError})` : ''}`;
  return e instanceof Error ? e.message : String(e);
}
