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
import { LiteErrorCodes, LiteServerError, LiteTimeoutError } from './errors';
import { LiteFn, decodeLiteAnswer, decodeLiteErrorAnswer, encodeLiteCall, waitMasterchainSeqnoPrefix } from './wire';

export const DEFAULT_LITE_TIMEOUT_MS = 5000;

export interface LitePoolOptions extends LiteConnectionOptions {
  /** Per-request budget when the caller passes no `timeout` (default 5000 ms). */
  timeoutMs?: number;
  logger?: LiteLogger;
  /** After an attempt timed out on a server, prefer the others for this long (default 5000 ms). */
  slowServerPenaltyMs?: number;
}

export interface LiteServerStatus {
  server: string;
  state: LiteConnectionState;
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
}

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
    return this.#connections.map((c) => {
      const h = this.#history.get(c.id) ?? {};
      return { server: c.label, state: c.state, connects: c.generation, lastError: c.lastError, lastSuccessAt: iso(h.okAt), lastFailureAt: iso(h.failAt), lastFailure: h.failure ?? null };
    });
  }

  #failed(c: LiteConnection, reason: string): void {
    const h = this.#history.get(c.id) ?? {};
    this.#history.set(c.id, { ...h, failAt: Date.now(), failure: reason });
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
    const timeout = (why?: string) =>
      new LiteTimeoutError(
        why ?? `no lite server answered within ${timeoutMs} ms${lastFailure ? ` (last: ${lastFailure.message})` : ''}`,
        timeoutMs,
        { cause: lastFailure },
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
      try {
        answer = await conn.query(data, attemptMs);
      } catch (e) {
        this.#failed(conn, e instanceof Error ? e.message : String(e));
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
      this.#history.set(conn.id, { ...this.#history.get(conn.id), okAt: Date.now() });
      const err = decodeLiteErrorAnswer(answer);
      if (!err) return answer;
      if (retryable && err.code === LiteErrorCodes.notready && notReadyRetries < 1 && this.#pick(tried, false)) {
        notReadyRetries++;
        lastFailure = err;
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
