/**
 * A minimal ADNL-over-TCP client that exposes the raw frames. Used by the transport tests to
 * send pings, pipelined / malformed / oversized frames; handy for debugging the devnet server.
 * Real consumers should use ton-lite-client's LiteSingleEngine.
 */
import { createCipheriv, createDecipheriv, randomBytes, type Cipher, type Decipher } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { adnlFramePayload, adnlHandshakeCipherParams, adnlKeyId, adnlSharedSecret, buildAdnlFrame, sha256 } from '../lite/adnl';
import { adnlKeyPairFromSeed } from '../devnet/transport/adnl-server';
import { ConstructorIds, Functions } from '../lite/tl/codec';
import { TlReader, TlWriter } from '../lite/tl/tl-buffer';

export interface RawAdnlConnectOptions {
  host: string;
  port: number;
  serverPublicKey: Uint8Array;
  /** Send this key id instead of the server's. */
  keyId?: Uint8Array;
  /** Corrupt the params checksum in the handshake. */
  badParamsHash?: boolean;
  /** Payloads sent in the same TCP write as the handshake (before the server's reply). */
  pipelined?: Uint8Array[];
  /** Do not wait for the server's empty handshake frame. */
  noWait?: boolean;
  timeoutMs?: number;
}

export class RawAdnlClient {
  readonly socket: Socket;
  readonly #tx: Cipher;
  readonly #rx: Decipher;
  #buf = Buffer.alloc(0);
  #payloads: Buffer[] = [];
  #waiters: ((p: Buffer | null) => void)[] = [];
  #closed = false;
  readonly closed: Promise<void>;

  private constructor(socket: Socket, tx: Cipher, rx: Decipher) {
    this.socket = socket;
    this.#tx = tx;
    this.#rx = rx;
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.#closed = true;
        for (const w of this.#waiters.splice(0)) w(null);
        resolve();
      });
    });
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      this.#buf = Buffer.concat([this.#buf, this.#rx.update(chunk)]);
      while (this.#buf.length >= 4) {
        const size = this.#buf.readUInt32LE(0);
        if (this.#buf.length < 4 + size) break;
        const body = this.#buf.subarray(4, 4 + size);
        this.#buf = this.#buf.subarray(4 + size);
        const checked = adnlFramePayload(body);
        if (!checked) {
          socket.destroy();
          return;
        }
        const payload = Buffer.from(checked);
        const w = this.#waiters.shift();
        if (w) w(payload);
        else this.#payloads.push(payload);
      }
    });
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  static async connect(opts: RawAdnlConnectOptions): Promise<RawAdnlClient> {
    const seed = randomBytes(32);
    const me = adnlKeyPairFromSeed(seed);
    const shared = adnlSharedSecret(me.x25519Secret, opts.serverPublicKey);
    const params = randomBytes(160);
    const hash = sha256(params);
    const { key, iv } = adnlHandshakeCipherParams(shared, hash);
    const enc = createCipheriv('aes-256-ctr', key, iv).update(params);
    const sentHash = Buffer.from(hash);
    if (opts.badParamsHash) sentHash[0] ^= 0xff;
    const handshake = Buffer.concat([
      Buffer.from(opts.keyId ?? adnlKeyId(opts.serverPublicKey)),
      me.publicKey,
      sentHash,
      enc,
    ]);
    const tx = createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96));
    const rx = createDecipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80));

    const socket = connect({ host: opts.host, port: opts.port, noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
    const client = new RawAdnlClient(socket, tx, rx);
    const extra = (opts.pipelined ?? []).map((p) => tx.update(buildAdnlFrame(p)));
    socket.write(Buffer.concat([handshake, ...extra]));
    if (!opts.noWait) {
      const first = await client.next(opts.timeoutMs ?? 2000);
      if (!first || first.length !== 0) throw new Error('ADNL handshake failed');
    }
    return client;
  }

  /** Next received payload, or null if the connection closed / nothing came in time. */
  next(timeoutMs = 2000): Promise<Buffer | null> {
    const ready = this.#payloads.shift();
    if (ready) return Promise.resolve(ready);
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter = (p: Buffer | null) => {
        clearTimeout(timer);
        resolve(p);
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve(null);
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** Sends one well-formed frame carrying `payload`. */
  send(payload: Uint8Array): void {
    this.socket.write(this.#tx.update(buildAdnlFrame(payload)));
  }

  /** Encrypts and sends arbitrary bytes with the session cipher (to forge bad frames). */
  sendEncrypted(bytes: Uint8Array): void {
    this.socket.write(this.#tx.update(bytes));
  }

  /** tcp.ping random_id → the payload sent. */
  ping(randomId: bigint): void {
    const w = new TlWriter();
    w.writeUInt32(ConstructorIds['tcp.ping']);
    w.writeInt64(randomId.toString());
    this.send(w.build());
  }

  /** Sends adnl.message.query{liteServer.query{data}}; returns the 32-byte query id. */
  query(data: Uint8Array, queryId: Buffer = randomBytes(32)): Buffer {
    const inner = new TlWriter();
    Functions.liteServer_query.encodeRequest({ kind: 'liteServer.query', data: Buffer.from(data) }, inner);
    const w = new TlWriter();
    w.writeUInt32(ConstructorIds['adnl.message.query']);
    w.writeInt256(queryId);
    w.writeBuffer(inner.build());
    this.send(w.build());
    return queryId;
  }

  /** Parses an adnl.message.answer payload. */
  static parseAnswer(payload: Buffer): { queryId: Buffer; answer: Buffer } {
    const r = new TlReader(payload);
    if (r.readUInt32() !== ConstructorIds['adnl.message.answer']) throw new Error('not an adnl.message.answer');
    const queryId = r.readInt256();
    const answer = r.readBuffer();
    return { queryId, answer };
  }

  /** Parses a tcp.pong payload. */
  static parsePong(payload: Buffer): bigint {
    const r = new TlReader(payload);
    if (r.readUInt32() !== ConstructorIds['tcp.pong']) throw new Error('not a tcp.pong');
    return BigInt(r.readInt64());
  }

  close(): void {
    this.socket.destroy();
  }
}
