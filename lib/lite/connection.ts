/**
 * One ADNL-over-TCP connection to one lite server, with its own reconnect loop.
 *
 * Why not ton-lite-client's LiteSingleEngine (see node_modules/ton-lite-client/dist/engines/single.js):
 * it reconnects only 10 s after a close and, after a socket error, 30 s later *unconditionally*
 * (even after close(), so a discarded engine comes back to life); queries in flight on a lost
 * connection are not failed but replayed on the next connection or left to time out; it throws
 * 'Engine is closed' until connected. A pool needs to know at once that a connection is gone, so
 * this is a small client of its own (the protocol: TON's "ADNL TCP - Liteserver" spec
 * and lib/devnet/transport/adnl-server.ts, its server side):
 *
 *  - handshake: sha256(pub.ed25519 key) ‖ our ephemeral ed25519 key ‖ sha256(params) ‖ 160 params
 *    bytes AES-256-CTR encrypted with key = shared[0,16) ‖ hash[16,32), iv = hash[0,4) ‖ shared[20,32);
 *    the server's first (empty) frame means ready;
 *  - frames: u32le size | nonce[32] | payload | sha256(nonce ‖ payload), in two AES-CTR streams;
 *  - liveness: tcp.ping when the connection was silent for `pingIntervalMs` or a query timed out;
 *    no traffic within `pingTimeoutMs` after that drops the connection;
 *  - after a loss: reconnect with exponential backoff (reconnectMinMs doubling up to reconnectMaxMs,
 *    ±20% jitter); `wake()` lets the pool try at once when no server is up.
 */
import { createCipheriv, createDecipheriv, randomBytes, type Cipher, type Decipher } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect as netConnect, type Socket } from 'node:net';
import { ed25519, x25519 } from '@noble/curves/ed25519.js';
import { ADNL_MIN_FRAME_SIZE, ByteQueue, adnlFramePayload, adnlHandshakeCipherParams, adnlKeyId, buildAdnlFrame, sha256 } from './adnl';
import { TlIds, encodeAdnlLiteQuery, readTlBytes } from './wire';

export interface LiteServerEndpoint {
  /** IPv4 address or host name. */
  host: string;
  port: number;
  /** The server's ed25519 public key (32 bytes). */
  publicKey: Buffer;
}

export interface LiteConnectionOptions {
  /** TCP connect + ADNL handshake budget (default 3000 ms). */
  connectTimeoutMs?: number;
  /** First reconnect delay after a loss (default 100 ms). */
  reconnectMinMs?: number;
  /** Longest reconnect delay (default 2000 ms). */
  reconnectMaxMs?: number;
  /** Ping a connection that has been silent this long (default 5000 ms; 0 disables idle pings). */
  pingIntervalMs?: number;
  /** Drop a connection that does not answer a ping within this long (default 3000 ms). */
  pingTimeoutMs?: number;
  /** Largest accepted frame body (default 32 MiB). */
  maxFrameSize?: number;
}

/** pino-compatible subset. */
export interface LiteLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export type LiteConnectionState = 'connecting' | 'ready' | 'waiting' | 'closed';

/** The query never got an answer because the connection is not up or went down. */
export class ConnectionLostError extends Error {
  /** True when the query had been written to the socket (the server may have seen it). */
  readonly written: boolean;

  constructor(message: string, written: boolean) {
    super(message);
    this.name = 'ConnectionLostError';
    this.written = written;
  }
}

/** One attempt on one connection ran out of time. */
export class AttemptTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'AttemptTimeoutError';
  }
}

interface Pending {
  resolve(answer: Buffer): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** Per-socket state; a reconnect gets a fresh one, so late events of an old socket are ignored. */
interface Session {
  socket: Socket;
  tx: Cipher;
  rx: Decipher;
  queue: ByteQueue;
  frameSize: number;
  ready: boolean;
  readyAt: number;
  lastRxAt: number;
  pingSentAt: number;
  error: Error | null;
}

let nextConnectionId = 1;

// Node's socket errors say "connect ECONNREFUSED 10.0.0.5:4924": the reasons a connection keeps are
// shown by /api/health and in v2 errors, so they say what happened in words and never name an address.
const SOCKET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  ETIMEDOUT: 'connect timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EPIPE: 'connection closed while writing',
};

function describeSocketError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return err.message; // one of ours (handshake, frames, pings): no address in it
  return SOCKET_ERRORS[code] ?? `socket error ${code}`;
}

export class LiteConnection extends EventEmitter {
  readonly id = nextConnectionId++;
  readonly endpoint: LiteServerEndpoint;
  /** host:port, for logs. */
  readonly label: string;
  #state: LiteConnectionState = 'waiting';
  /** Increments on every successful handshake; identifies the current session. */
  #generation = 0;
  #session: Session | null = null;
  #pending = new Map<string, Pending>();
  #attempt = 0;
  #lastAttemptAt = 0;
  #connectTimer: NodeJS.Timeout | null = null;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #pingTimer: NodeJS.Timeout | null = null;
  #lastError: string | null = null;
  readonly #keyId: Buffer;
  readonly #serverX25519: Uint8Array;
  readonly #opts: Required<LiteConnectionOptions>;
  readonly #log: LiteLogger | undefined;

  constructor(endpoint: LiteServerEndpoint, opts: LiteConnectionOptions = {}, log?: LiteLogger) {
    super();
    if (endpoint.publicKey.length !== 32) throw new TypeError('lite server public key must be 32 bytes');
    this.endpoint = endpoint;
    this.label = `${endpoint.host}:${endpoint.port}`;
    this.#keyId = adnlKeyId(endpoint.publicKey);
    try {
      this.#serverX25519 = ed25519.utils.toMontgomery(endpoint.publicKey);
    } catch {
      throw new TypeError(`lite server ${this.label}: the public key is not a valid ed25519 point`);
    }
    this.#opts = {
      connectTimeoutMs: opts.connectTimeoutMs ?? 3000,
      reconnectMinMs: opts.reconnectMinMs ?? 100,
      reconnectMaxMs: opts.reconnectMaxMs ?? 2000,
      pingIntervalMs: opts.pingIntervalMs ?? 5000,
      pingTimeoutMs: opts.pingTimeoutMs ?? 3000,
      maxFrameSize: opts.maxFrameSize ?? 32 << 20,
    };
    this.#log = log;
  }

  get state(): LiteConnectionState {
    return this.#state;
  }

  /** Identifies the current session (changes after every reconnect). */
  get generation(): number {
    return this.#generation;
  }

  isReady(): boolean {
    return this.#state === 'ready';
  }

  /** Why the last session or attempt ended, if it did. */
  get lastError(): string | null {
    return this.#lastError;
  }

  /** Starts connecting (no-op unless waiting). */
  start(): void {
    if (this.#state !== 'waiting') return;
    this.#clearReconnect();
    this.#connect();
  }

  /** Reconnects now instead of at the end of the backoff, at most once per reconnectMinMs. */
  wake(): void {
    if (this.#state !== 'waiting') return;
    if (Date.now() - this.#lastAttemptAt < this.#opts.reconnectMinMs) return;
    this.start();
  }

  /**
   * Sends one lite query (`data` = the liteServer.query payload) and resolves with the raw answer
   * (possibly a liteServer.error). Rejects with ConnectionLostError or AttemptTimeoutError.
   */
  query(data: Uint8Array, timeoutMs: number): Promise<Buffer> {
    const s = this.#session;
    if (this.#state !== 'ready' || !s) {
      return Promise.reject(new ConnectionLostError(`${this.label} is not connected`, false));
    }
    const queryId = randomBytes(32);
    const key = queryId.toString('hex');
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.#pending.delete(key)) {
          reject(new AttemptTimeoutError(timeoutMs));
          this.#probe();
        }
      }, timeoutMs);
      this.#pending.set(key, { resolve, reject, timer });
      try {
        this.#send(s, encodeAdnlLiteQuery(queryId, data));
      } catch (e) {
        this.#pending.delete(key);
        clearTimeout(timer);
        reject(new ConnectionLostError(`${this.label}: ${e instanceof Error ? e.message : String(e)}`, false));
      }
    });
  }

  /** Ends the connection for good; queries in flight reject. Idempotent. */
  close(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#clearReconnect();
    const s = this.#session;
    this.#session = null;
    this.#endSession(s);
    this.#failPending(new ConnectionLostError('Engine is closed', true));
    if (s) s.socket.destroy();
  }

  // ---- connecting ----------------------------------------------------------------------------

  #connect(): void {
    this.#state = 'connecting';
    this.#lastAttemptAt = Date.now();

    // Ephemeral key and session params; the server derives the same secret from our public key.
    const seed = randomBytes(32);
    const ourPublic = ed25519.getPublicKey(seed);
    const shared = x25519.getSharedSecret(ed25519.utils.toMontgomerySecret(seed), this.#serverX25519);
    const params = randomBytes(160);
    const hash = sha256(params);
    const hs = adnlHandshakeCipherParams(shared, hash);
    const hsCipher = createCipheriv('aes-256-ctr', hs.key, hs.iv);
    const handshake = Buffer.concat([this.#keyId, ourPublic, hash, hsCipher.update(params), hsCipher.final()]);

    const socket = netConnect({ host: this.endpoint.host, port: this.endpoint.port, noDelay: true });
    const s: Session = {
      socket,
      tx: createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96)),
      rx: createDecipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80)),
      queue: new ByteQueue(),
      frameSize: -1,
      ready: false,
      readyAt: 0,
      lastRxAt: Date.now(),
      pingSentAt: 0,
      error: null,
    };
    this.#session = s;
    this.#connectTimer = setTimeout(() => {
      this.#drop(s, new Error(`no ADNL handshake within ${this.#opts.connectTimeoutMs} ms (wrong key or not a lite server?)`));
    }, this.#opts.connectTimeoutMs);
    socket.once('connect', () => {
      if (this.#session === s) socket.write(handshake);
    });
    socket.on('data', (chunk: Buffer) => this.#onData(s, chunk));
    socket.on('error', (err) => {
      s.error ??= err;
    });
    socket.on('close', () => this.#onClosed(s));
  }

  #onData(s: Session, chunk: Buffer): void {
    if (this.#session !== s) return;
    try {
      const plain = s.rx.update(chunk);
      s.queue.push(plain);
      s.lastRxAt = Date.now();
      s.pingSentAt = 0;
      this.#readFrames(s);
    } catch (e) {
      this.#drop(s, e instanceof Error ? e : new Error(String(e)));
    }
  }

  #readFrames(s: Session): void {
    while (this.#session === s) {
      if (s.frameSize < 0) {
        if (s.queue.length < 4) return;
        const size = s.queue.take(4).readUInt32LE(0);
        if (size < ADNL_MIN_FRAME_SIZE || size > this.#opts.maxFrameSize) throw new Error(`bad ADNL frame size ${size}`);
        s.frameSize = size;
      }
      if (s.queue.length < s.frameSize) return;
      const body = s.queue.take(s.frameSize);
      s.frameSize = -1;
      const payload = adnlFramePayload(body);
      if (!payload) throw new Error('ADNL frame checksum mismatch');
      if (!s.ready) {
        if (payload.length !== 0) throw new Error('bad ADNL handshake answer');
        this.#onReady(s);
      } else if (payload.length > 0) {
        this.#onPayload(payload);
      }
    }
  }

  #onPayload(payload: Buffer): void {
    if (payload.length < 4) throw new Error('ADNL payload too short');
    const id = payload.readUInt32LE(0);
    if (id === TlIds.adnlAnswer) {
      if (payload.length < 36) throw new Error('truncated adnl.message.answer');
      const key = payload.toString('hex', 4, 36);
      const p = this.#pending.get(key);
      if (!p) return; // answer to a query that timed out
      this.#pending.delete(key);
      clearTimeout(p.timer);
      try {
        p.resolve(Buffer.from(readTlBytes(payload, 36).value));
      } catch (e) {
        p.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    // tcp.pong and anything else: traffic already counted as liveness
  }

  #onReady(s: Session): void {
    if (this.#connectTimer) clearTimeout(this.#connectTimer);
    this.#connectTimer = null;
    s.ready = true;
    s.readyAt = Date.now();
    this.#generation++;
    this.#state = 'ready';
    this.#lastError = null;
    this.#log?.info({ server: this.label, reconnects: this.#generation - 1 }, 'lite server connected');
    const tick = Math.max(100, Math.floor(Math.min(this.#opts.pingIntervalMs || Infinity, this.#opts.pingTimeoutMs) / 2));
    this.#pingTimer = setInterval(() => this.#checkLiveness(s), tick);
    this.#pingTimer.unref();
    this.emit('ready');
  }

  // ---- liveness ------------------------------------------------------------------------------

  #checkLiveness(s: Session): void {
    if (this.#session !== s || !s.ready) return;
    const now = Date.now();
    if (s.pingSentAt > 0) {
      if (now - s.pingSentAt >= this.#opts.pingTimeoutMs) {
        this.#drop(s, new Error(`no answer to tcp.ping within ${this.#opts.pingTimeoutMs} ms`));
      }
    } else if (this.#opts.pingIntervalMs > 0 && now - s.lastRxAt >= this.#opts.pingIntervalMs) {
      this.#ping(s);
    }
  }

  /** After a query timed out: is the server still there? */
  #probe(): void {
    const s = this.#session;
    if (s?.ready && s.pingSentAt === 0) this.#ping(s);
  }

  #ping(s: Session): void {
    const p = Buffer.allocUnsafe(12);
    p.writeUInt32LE(TlIds.tcpPing, 0);
    randomBytes(8).copy(p, 4);
    s.pingSentAt = Date.now();
    try {
      this.#send(s, p);
    } catch (e) {
      this.#drop(s, e instanceof Error ? e : new Error(String(e)));
    }
  }

  #send(s: Session, payload: Buffer): void {
    s.socket.write(s.tx.update(buildAdnlFrame(payload)));
  }

  // ---- losing a connection -------------------------------------------------------------------

  #drop(s: Session, err: Error): void {
    if (this.#session !== s) return;
    s.error ??= err;
    s.socket.destroy();
    // 'close' follows asynchronously and runs #onClosed
  }

  #endSession(s: Session | null): void {
    if (this.#connectTimer) clearTimeout(this.#connectTimer);
    this.#connectTimer = null;
    if (this.#pingTimer) clearInterval(this.#pingTimer);
    this.#pingTimer = null;
    s?.queue.clear();
  }

  #failPending(err: ConnectionLostError): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
  }

  #onClosed(s: Session): void {
    if (this.#session !== s) return;
    this.#session = null;
    this.#endSession(s);
    const reason = s.error ? describeSocketError(s.error) : 'connection closed by the server';
    this.#lastError = reason;
    this.#failPending(new ConnectionLostError(`${this.label}: ${reason}`, true));
    if (this.#state === 'closed') return;

    // Back off; a connection that stayed up for a while starts over from the shortest delay.
    const wasReady = s.ready;
    if (wasReady && Date.now() - s.readyAt >= this.#opts.reconnectMaxMs) this.#attempt = 0;
    const base = Math.min(this.#opts.reconnectMaxMs, this.#opts.reconnectMinMs * 2 ** Math.min(this.#attempt, 20));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.#attempt++;
    this.#state = 'waiting';
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      this.start();
    }, delay);
    this.#reconnectTimer.unref();
    const fields = { server: this.label, reason, retryInMs: delay };
    if (wasReady) this.#log?.warn(fields, 'lite server connection lost');
    else if (this.#attempt === 1) this.#log?.warn(fields, 'lite server unreachable');
    else this.#log?.debug(fields, 'lite server connect failed');
    this.emit('down', reason);
  }

  #clearReconnect(): void {
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
  }
}
