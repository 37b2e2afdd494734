/**
 * ADNL-over-TCP server for the devnet's lite_api (the server side of what ton-lite-client's
 * LiteSingleEngine, tonlib and TON's lite-client speak). No npm package implements this side.
 *
 * Protocol (see TON's "ADNL TCP - Liteserver" spec and TON's adnl/adnl-ext-connection.cpp):
 *  - handshake: the client sends 256 bytes: [0,32) our key id = sha256(pub.ed25519 boxed),
 *    [32,64) its ephemeral ed25519 key, [64,96) sha256(params), [96,256) 160 bytes of params
 *    AES-256-CTR encrypted with key = shared[0,16) ‖ hash[16,32), iv = hash[0,4) ‖ shared[20,32)
 *    where shared = X25519 of both keys converted to Montgomery form;
 *  - session: two continuing AES-256-CTR streams; client→server key params[32,64) iv params[80,96),
 *    server→client key params[0,32) iv params[64,80); the server first sends one empty frame;
 *  - frame: u32le size | nonce[32] | payload | sha256(nonce ‖ payload), size ∈ [64, 2^24]
 *    (size 64 = keepalive), all encrypted;
 *  - payloads: tcp.ping → tcp.pong; adnl.message.query{liteServer.query{data}} → handler(data)
 *    → adnl.message.answer. Answers are sent as they complete (possibly out of order).
 * Protocol violations (wrong key id, bad params hash, frame size out of bounds, checksum
 * mismatch, unknown payload) close the connection; they never affect other connections.
 */
import { createCipheriv, createDecipheriv, type Cipher, type Decipher } from 'node:crypto';
import { createServer, isIPv4, type Server, type Socket } from 'node:net';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  ADNL_HANDSHAKE_SIZE,
  ADNL_MAX_FRAME_SIZE,
  ADNL_MIN_FRAME_SIZE,
  ByteQueue,
  adnlFramePayload,
  adnlHandshakeCipherParams,
  adnlKeyId,
  adnlSharedSecret,
  buildAdnlFrame,
  sha256,
} from '../../lite/adnl';
import {
  ConstructorIds,
  LiteErrorCodes,
  encodeLiteError,
  errorMessage,
  type LiteQueryHandler,
} from '../../lite/tl/codec';
import { TlReader, TlWriter } from '../../lite/tl/tl-buffer';

const TCP_PING_ID = ConstructorIds['tcp.ping'];
const TCP_PONG_ID = ConstructorIds['tcp.pong'];
const ADNL_QUERY_ID = ConstructorIds['adnl.message.query'];
const ADNL_ANSWER_ID = ConstructorIds['adnl.message.answer'];
const LITE_QUERY_ID = ConstructorIds['liteServer.query'];

/** pino-compatible subset. */
export interface AdnlLogger {
  debug?(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
  warn?(obj: object, msg?: string): void;
  error?(obj: object, msg?: string): void;
}

export interface AdnlServerOptions {
  /** IPv4 address to listen on (default 127.0.0.1). */
  host?: string;
  /** TCP port; 0 (default) picks an ephemeral port. */
  port?: number;
  /** 32-byte ed25519 seed (private key) of the server. */
  seed: Uint8Array;
  handler: LiteQueryHandler;
  logger?: AdnlLogger;
  /** Largest accepted frame body (default and maximum 2^24). */
  maxFrameSize?: number;
  /** Drop connections that have not completed the handshake after this long (default 10 s). */
  handshakeTimeoutMs?: number;
  /** Drop established connections silent for this long; tcp.ping counts as traffic (default 0 = never). */
  idleTimeoutMs?: number;
  /** Queries in flight per connection before the server stops reading from it (default 1024). */
  maxPendingQueries?: number;
  /** Refuse connections beyond this number (default unlimited). */
  maxConnections?: number;
}

export interface AdnlServer {
  readonly host: string;
  readonly port: number;
  /** ed25519 public key (32 bytes); what clients are configured with. */
  readonly publicKey: Buffer;
  /** ADNL short id = sha256(LE32(0x4813b4c6) ‖ publicKey). */
  readonly keyId: Buffer;
  /** Established or handshaking connections. */
  connectionCount(): number;
  /** Stops listening, ends every connection and resolves once the port is free. Idempotent. */
  close(): Promise<void>;
}

export interface AdnlKeyPair {
  publicKey: Buffer;
  keyId: Buffer;
  /** X25519 scalar derived from the ed25519 seed. */
  x25519Secret: Uint8Array;
}

export function adnlKeyPairFromSeed(seed: Uint8Array): AdnlKeyPair {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) {
    throw new TypeError('ADNL seed must be 32 bytes');
  }
  const publicKey = Buffer.from(ed25519.getPublicKey(seed));
  return { publicKey, keyId: adnlKeyId(publicKey), x25519Secret: ed25519.utils.toMontgomerySecret(seed) };
}

class ProtocolError extends Error {}

let nextConnId = 1;

class AdnlConnection {
  readonly id = nextConnId++;
  private state: 'handshake' | 'open' | 'closed' = 'handshake';
  private readonly queue = new ByteQueue();
  private rx: Decipher | null = null;
  private tx: Cipher | null = null;
  private frameSize = -1;
  private pending = 0;
  private writeBlocked = false;
  private paused = false;
  private handshakeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly keys: AdnlKeyPair,
    private readonly opts: Required<Pick<AdnlServerOptions, 'handler' | 'maxFrameSize' | 'handshakeTimeoutMs' | 'idleTimeoutMs' | 'maxPendingQueries'>>,
    private readonly log: AdnlLogger,
    private readonly onClosed: (c: AdnlConnection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => {
      this.writeBlocked = false;
      this.updateFlow();
    });
    socket.on('error', (err) => this.log.debug?.({ conn: this.id, err: err.message }, 'adnl socket error'));
    socket.on('close', () => this.finish());
    socket.on('timeout', () => {
      // Long-running queries (e.g. waitMasterchainSeqno) keep an otherwise silent connection.
      if (this.pending === 0) this.fail('idle timeout');
    });
    if (opts.handshakeTimeoutMs > 0) {
      this.handshakeTimer = setTimeout(() => this.fail('handshake timeout'), opts.handshakeTimeoutMs);
      this.handshakeTimer.unref();
    }
  }

  /** Ends the connection (used by server.close()). */
  destroy(): void {
    this.state = 'closed';
    this.socket.destroy();
  }

  private finish(): void {
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.handshakeTimer = null;
    this.state = 'closed';
    this.queue.clear();
    this.rx = null;
    this.tx = null;
    this.onClosed(this);
  }

  private fail(reason: string): void {
    if (this.state === 'closed') return;
    this.log.debug?.({ conn: this.id, remote: this.socket.remoteAddress, reason }, 'adnl connection dropped');
    this.state = 'closed';
    this.queue.clear();
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'closed') return;
    try {
      if (this.state === 'handshake') {
        this.queue.push(chunk);
        if (this.queue.length < ADNL_HANDSHAKE_SIZE) return;
        const packet = this.queue.take(ADNL_HANDSHAKE_SIZE);
        const rest = this.queue.take(this.queue.length);
        this.handshake(packet);
        // Anything pipelined behind the handshake is already session-encrypted.
        this.queue.push(this.rx!.update(rest));
      } else {
        this.queue.push(this.rx!.update(chunk));
      }
      this.drainFrames();
    } catch (e) {
      this.fail(e instanceof ProtocolError ? e.message : `internal error: ${errorMessage(e)}`);
    }
  }

  private handshake(packet: Buffer): void {
    if (!packet.subarray(0, 32).equals(this.keys.keyId)) {
      throw new ProtocolError('handshake for an unknown key id');
    }
    const clientKey = packet.subarray(32, 64);
    const paramsHash = packet.subarray(64, 96);
    let shared: Buffer;
    try {
      shared = adnlSharedSecret(this.keys.x25519Secret, clientKey);
    } catch {
      throw new ProtocolError('handshake with an invalid client key');
    }
    const { key, iv } = adnlHandshakeCipherParams(shared, paramsHash);
    const d = createDecipheriv('aes-256-ctr', key, iv);
    const params = Buffer.concat([d.update(packet.subarray(96, 256)), d.final()]);
    if (!sha256(params).equals(paramsHash)) {
      throw new ProtocolError('handshake params checksum mismatch');
    }
    this.rx = createDecipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96));
    this.tx = createCipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80));
    this.state = 'open';
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.handshakeTimer = null;
    if (this.opts.idleTimeoutMs > 0) this.socket.setTimeout(this.opts.idleTimeoutMs);
    this.log.debug?.({ conn: this.id, remote: this.socket.remoteAddress }, 'adnl handshake done');
    this.send(Buffer.alloc(0));
  }

  private drainFrames(): void {
    while (this.state === 'open') {
      if (this.frameSize < 0) {
        if (this.queue.length < 4) return;
        const size = this.queue.take(4).readUInt32LE(0);
        if (size < ADNL_MIN_FRAME_SIZE || size > this.opts.maxFrameSize) {
          throw new ProtocolError(`bad frame size ${size}`);
        }
        this.frameSize = size;
      }
      if (this.queue.length < this.frameSize) return;
      const body = this.queue.take(this.frameSize);
      this.frameSize = -1;
      const payload = adnlFramePayload(body);
      if (!payload) throw new ProtocolError('frame checksum mismatch');
      if (payload.length > 0) this.onPayload(payload);
    }
  }

  private onPayload(payload: Buffer): void {
    const r = new TlReader(payload);
    let id: number;
    try {
      id = r.readUInt32();
    } catch {
      throw new ProtocolError('payload too short');
    }
    if (id === TCP_PING_ID) {
      if (payload.length !== 12) throw new ProtocolError('bad tcp.ping');
      const pong = Buffer.from(payload);
      pong.writeUInt32LE(TCP_PONG_ID, 0);
      this.send(pong);
      return;
    }
    if (id !== ADNL_QUERY_ID) {
      throw new ProtocolError(`unexpected payload constructor 0x${id.toString(16)}`);
    }
    let queryId: Buffer;
    let query: Buffer;
    try {
      queryId = r.readInt256();
      query = r.readBuffer();
      r.expectEnd('adnl.message.query');
    } catch (e) {
      throw new ProtocolError(`bad adnl.message.query: ${errorMessage(e)}`);
    }
    this.runQuery(queryId, query);
  }

  private runQuery(queryId: Buffer, query: Buffer): void {
    let data: Buffer | null = null;
    try {
      const r = new TlReader(query);
      if (r.readUInt32() === LITE_QUERY_ID) {
        data = r.readBuffer();
        r.expectEnd('liteServer.query');
      }
    } catch {
      data = null;
    }
    if (!data) {
      this.answer(queryId, encodeLiteError(LiteErrorCodes.protoviolation, 'expected liteServer.query'));
      return;
    }
    this.pending++;
    this.updateFlow();
    const input = data;
    Promise.resolve()
      .then(() => this.opts.handler(input))
      .then(
        (answer: unknown) => {
          if (!(answer instanceof Uint8Array)) throw new TypeError('lite handler returned a non-buffer');
          return Buffer.isBuffer(answer) ? answer : Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
        },
      )
      .catch((e: unknown) => {
        this.log.warn?.({ conn: this.id, err: errorMessage(e) }, 'lite handler threw');
        return encodeLiteError(LiteErrorCodes.error, errorMessage(e));
      })
      .then((answer) => {
        this.pending--;
        if (this.state !== 'open') return;
        this.answer(queryId, answer);
        this.updateFlow();
      })
      .catch((e: unknown) => this.fail(`internal error: ${errorMessage(e)}`));
  }

  private answer(queryId: Buffer, answer: Buffer): void {
    // adnl.message.answer = id(4) + query_id(32) + bytes(header + data + padding); frame adds 64.
    const bytesLen = ((answer.length <= 253 ? 1 : 4) + answer.length + 3) & ~3;
    if (36 + bytesLen + 64 > ADNL_MAX_FRAME_SIZE) {
      this.log.warn?.({ conn: this.id, size: answer.length }, 'lite answer exceeds the ADNL frame limit');
      answer = encodeLiteError(LiteErrorCodes.failure, `answer too large (${answer.length} bytes)`);
    }
    const w = new TlWriter(answer.length + 48);
    w.writeUInt32(ADNL_ANSWER_ID);
    w.writeInt256(queryId);
    w.writeBuffer(answer);
    this.send(w.build());
  }

  private send(payload: Buffer): void {
    if (this.state !== 'open' || !this.tx) return;
    const frame = this.tx.update(buildAdnlFrame(payload));
    if (!this.socket.write(frame)) this.writeBlocked = true;
    this.updateFlow();
  }

  /** Stops reading while too many queries are in flight or the peer does not read its answers. */
  private updateFlow(): void {
    if (this.state === 'closed') return;
    const shouldPause = this.writeBlocked || this.pending >= this.opts.maxPendingQueries;
    if (shouldPause && !this.paused) {
      this.paused = true;
      this.socket.pause();
    } else if (!shouldPause && this.paused) {
      this.paused = false;
      this.socket.resume();
    }
  }
}

/** Starts an ADNL TCP server answering lite_api queries with `handler`. */
export async function startAdnlServer(options: AdnlServerOptions): Promise<AdnlServer> {
  const host = options.host ?? '127.0.0.1';
  const keys = adnlKeyPairFromSeed(options.seed);
  const log: AdnlLogger = options.logger ?? {};
  const maxFrameSize = Math.min(options.maxFrameSize ?? ADNL_MAX_FRAME_SIZE, ADNL_MAX_FRAME_SIZE);
  if (maxFrameSize < ADNL_MIN_FRAME_SIZE) throw new RangeError('maxFrameSize below 64');
  const connOpts = {
    handler: options.handler,
    maxFrameSize,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 0,
    maxPendingQueries: Math.max(1, options.maxPendingQueries ?? 1024),
  };
  const connections = new Set<AdnlConnection>();
  const server: Server = createServer({ noDelay: true }, (socket) => {
    const conn = new AdnlConnection(socket, keys, connOpts, log, (c) => connections.delete(c));
    connections.add(conn);
  });
  if (options.maxConnections !== undefined) server.maxConnections = options.maxConnections;
  server.on('error', (err) => log.error?.({ err: err.message }, 'adnl server error'));

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  log.info?.({ host, port, publicKey: keys.publicKey.toString('base64') }, 'adnl lite server listening');

  let closing: Promise<void> | null = null;
  return {
    host,
    port,
    publicKey: keys.publicKey,
    keyId: keys.keyId,
    connectionCount: () => connections.size,
    close(): Promise<void> {
      if (!closing) {
        closing = new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const c of connections) c.destroy();
        });
      }
      return closing;
    },
  };
}

// ---- global config ---------------------------------------------------------------------------

export interface GlobalConfigOptions {
  host: string;
  port: number;
  publicKey: Uint8Array;
  /** Masterchain zero state of the devnet (default: zero hashes). */
  zeroState?: { rootHash: Uint8Array; fileHash: Uint8Array };
}

/** IPv4 dotted quad → the signed 32-bit integer TON configs use. */
export function ipv4ToInt32(ip: string): number {
  if (!isIPv4(ip)) throw new TypeError(`not an IPv4 address: ${ip}`);
  const [a, b, c, d] = ip.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) | 0;
}

/** Signed 32-bit integer → IPv4 dotted quad (what ton-lite-client's examples do). */
export function int32ToIpv4(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The masterchain shard (0x8000000000000000) as a signed long. */
const MASTERCHAIN_SHARD = -9223372036854775808;

export interface GlobalConfig {
  '@type': 'config.global';
  dht: { '@type': 'dht.config.global'; k: number; a: number; static_nodes: { '@type': 'dht.nodes'; nodes: unknown[] } };
  liteservers: { ip: number; port: number; id: { '@type': 'pub.ed25519'; key: string } }[];
  validator: {
    '@type': 'validator.config.global';
    zero_state: { workchain: number; shard: number; seqno: number; root_hash: string; file_hash: string };
    init_block: { workchain: number; shard: number; seqno: number; root_hash: string; file_hash: string };
    hardforks: unknown[];
  };
}

/** TON's global config (config.global) listing the devnet lite server. */
export function globalConfigFor(opts: GlobalConfigOptions): GlobalConfig {
  const zero = {
    workchain: -1,
    shard: MASTERCHAIN_SHARD,
    seqno: 0,
    root_hash: Buffer.from(opts.zeroState?.rootHash ?? Buffer.alloc(32)).toString('base64'),
    file_hash: Buffer.from(opts.zeroState?.fileHash ?? Buffer.alloc(32)).toString('base64'),
  };
  return {
    '@type': 'config.global',
    dht: { '@type': 'dht.config.global', k: 6, a: 3, static_nodes: { '@type': 'dht.nodes', nodes: [] } },
    liteservers: [
      {
        ip: ipv4ToInt32(opts.host),
        port: opts.port,
        id: { '@type': 'pub.ed25519', key: Buffer.from(opts.publicKey).toString('base64') },
      },
    ],
    validator: { '@type': 'validator.config.global', zero_state: zero, init_block: { ...zero }, hardforks: [] },
  };
}

/**
 * JSON text of a global config. JSON.stringify would print the masterchain shard -2^63 as
 * -9223372036854776000, which 64-bit parsers (tonlib) reject; this writes it exactly.
 */
export function stringifyGlobalConfig(config: GlobalConfig, space: number | string = 2): string {
  return JSON.stringify(config, null, space).replace(/"shard": ?-9223372036854776000/g, (m) =>
    m.replace('-9223372036854776000', '-9223372036854775808'),
  );
}
