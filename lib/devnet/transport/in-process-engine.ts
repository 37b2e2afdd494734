/**
 * A ton-lite-client LiteEngine that calls a LiteQueryHandler in-process.
 *
 * It produces exactly the bytes LiteSingleEngine would put into `liteServer.query data:bytes`
 * (optional waitMasterchainSeqno prefix + the boxed call, encoded by the caller's own TL
 * function) and parses the handler's answer with the same function, so the in-process path
 * exercises the same TL encoding as the TCP path, minus ADNL.
 *
 * Behaviour mirrors LiteSingleEngine: `query()` throws 'Engine is closed' after close(); a
 * liteServer.error answer rejects with an Error whose message is the server's message (here a
 * LiteServerError that also carries `code`); no answer within `timeout` rejects with 'Timeout'.
 */
import { EventEmitter } from 'node:events';
import type { LiteEngine } from 'ton-lite-client';
import { TLReadBuffer, TLWriteBuffer, type TLFunction } from 'ton-tl';
import {
  Functions,
  LiteErrorCodes,
  LiteServerError,
  decodeLiteError,
  errorMessage,
  type LiteQueryHandler,
} from '../../lite/tl/codec';

export interface InProcessLiteEngineOptions {
  /** Per-query timeout when the caller gives none (LiteSingleEngine's default: 5000 ms). */
  defaultTimeoutMs?: number;
}

export class InProcessLiteEngine extends EventEmitter implements LiteEngine {
  readonly #handler: LiteQueryHandler;
  readonly #defaultTimeoutMs: number;
  #closed = false;

  constructor(handler: LiteQueryHandler, opts: InProcessLiteEngineOptions = {}) {
    super();
    this.#handler = handler;
    this.#defaultTimeoutMs = opts.defaultTimeoutMs ?? 5000;
    // Ready at once; the events fire asynchronously so listeners added after construction see them.
    setImmediate(() => {
      if (this.#closed) return;
      this.emit('connect');
      this.emit('ready');
    });
  }

  isClosed(): boolean {
    return this.#closed;
  }

  isReady(): boolean {
    return !this.#closed;
  }

  async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, args?: { timeout?: number; awaitSeqno?: number }): Promise<RES> {
    if (this.#closed) {
      throw new Error('Engine is closed');
    }
    const timeout = args?.timeout ?? this.#defaultTimeoutMs;
    const writer = new TLWriteBuffer();
    if (args?.awaitSeqno !== undefined) {
      Functions.liteServer_waitMasterchainSeqno.encodeRequest(
        { kind: 'liteServer.waitMasterchainSeqno', seqno: args.awaitSeqno, timeoutMs: timeout },
        writer,
      );
    }
    f.encodeRequest(req, writer);
    const data = Buffer.from(writer.build());

    const answer = await new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Timeout')), timeout);
      Promise.resolve()
        .then(() => this.#handler(data))
        .then(
          (res: unknown) => {
            clearTimeout(timer);
            if (res instanceof Uint8Array) resolve(Buffer.from(res));
            else reject(new LiteServerError(LiteErrorCodes.error, 'lite handler returned a non-buffer'));
          },
          (e: unknown) => {
            clearTimeout(timer);
            // Over TCP the server answers a throwing handler with liteServer.error(602, message).
            reject(new LiteServerError(LiteErrorCodes.error, errorMessage(e)));
          },
        );
    });
    const err = decodeLiteError(answer);
    if (err) throw err;
    return f.decodeResponse(new TLReadBuffer(answer));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.emit('close');
  }
}
