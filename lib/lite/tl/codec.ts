/**
 * lite_api codec plumbing shared by the devnet transports (ADNL TCP server, in-process engine)
 * and the lite_api handler.
 *
 * The bytes a handler sees are the `data` of `liteServer.query data:bytes`: an optional
 * `liteServer.waitMasterchainSeqno seqno:int timeout_ms:int` prefix followed by one boxed
 * lite_api function call. It answers with the boxed result, or a boxed `liteServer.error`.
 */
import { LiteErrorCodes, LiteServerError } from '../errors';
import { TlDecodeError, TlReader, TlWriter } from './tl-buffer';
import {
  ConstructorIds,
  Codecs,
  Functions,
  LiteFunctions,
  decodeLiteFunctionCall,
  type LiteFunctionCall,
  type LiteFunctionKind,
  type LiteFunctionRequests,
  type LiteFunctionResults,
} from './lite-tl.gen';

export * from './lite-tl.gen';
export { TlDecodeError, TlReader, TlWriter } from './tl-buffer';
// One error class and one code table for both sides of lite_api (lib/lite/errors.ts).
export { LiteErrorCodes, LiteServerError } from '../errors';

/**
 * A lite_api handler takes the bytes of one liteServer function call (TL-serialized, boxed,
 * possibly with the waitMasterchainSeqno prefix) and returns the TL-serialized boxed answer
 * (or a liteServer.error). It never sees ADNL.
 */
export type LiteQueryHandler = (query: Buffer) => Promise<Buffer>;

export type LiteRequest<K extends LiteFunctionKind> = LiteFunctionRequests[K];
export type LiteAnswer<K extends LiteFunctionKind> = LiteFunctionResults[K];

export const LITE_ERROR_ID = ConstructorIds['liteServer.error'];
const WAIT_SEQNO_ID = ConstructorIds['liteServer.waitMasterchainSeqno'];
const QUERY_PREFIX_ID = ConstructorIds['liteServer.queryPrefix'];

/**
 * Wrong ids that known clients send, mapped to the function they mean. ton-tl 1.0.1 ignores
 * explicit `#id`s, so ton-lite-client (<= 3.1.1) sends liteServer.getValidatorStats as the CRC32
 * of its declaration text including "#091a58bc" (0xe7253699) instead of 0x091a58bc.
 */
const COMPAT_FUNCTION_IDS: ReadonlyMap<number, { decodeRequest(r: TlReader): LiteFunctionCall }> = new Map([
  [0xe7253699, Functions.liteServer_getValidatorStats],
]);

export interface WaitMasterchainSeqno {
  seqno: number;
  timeoutMs: number;
}

export interface DecodedLiteQuery<F extends LiteFunctionCall = LiteFunctionCall> {
  /** Present when the call carried the liteServer.waitMasterchainSeqno prefix. */
  waitMasterchainSeqno?: WaitMasterchainSeqno;
  fn: F;
}

/**
 * Decodes a handler's input. Throws TlDecodeError on malformed input, unknown functions or
 * trailing bytes (answer those with `encodeLiteError(LiteErrorCodes.protoviolation, e.message)`).
 */
export function decodeLiteQuery(bytes: Uint8Array): DecodedLiteQuery {
  const r = new TlReader(bytes);
  let waitMasterchainSeqno: WaitMasterchainSeqno | undefined;
  for (;;) {
    const id = r.peekUInt32();
    if (id === WAIT_SEQNO_ID) {
      if (waitMasterchainSeqno) throw new TlDecodeError('duplicate liteServer.waitMasterchainSeqno prefix');
      r.readUInt32();
      const p = Codecs.liteServer_waitMasterchainSeqno.decode(r);
      waitMasterchainSeqno = { seqno: p.seqno, timeoutMs: p.timeoutMs };
    } else if (id === QUERY_PREFIX_ID) {
      r.readUInt32(); // liteServer.queryPrefix: an empty, optional marker
    } else {
      break;
    }
  }
  const compat = COMPAT_FUNCTION_IDS.get(r.peekUInt32());
  if (compat) r.readUInt32();
  const fn = compat ? compat.decodeRequest(r) : decodeLiteFunctionCall(r);
  r.expectEnd(fn.kind);
  return waitMasterchainSeqno ? { waitMasterchainSeqno, fn } : { fn };
}

/** Encodes a handler's input (what a client puts into liteServer.query's data). */
export function encodeLiteQuery(fn: LiteFunctionCall, opts: { waitMasterchainSeqno?: WaitMasterchainSeqno } = {}): Buffer {
  const w = new TlWriter();
  if (opts.waitMasterchainSeqno) {
    Functions.liteServer_waitMasterchainSeqno.encodeRequest(
      { kind: 'liteServer.waitMasterchainSeqno', ...opts.waitMasterchainSeqno },
      w,
    );
  }
  const f = LiteFunctions[fn.kind] as unknown as { encodeRequest(src: LiteFunctionCall, w: TlWriter): void } | undefined;
  if (!f) throw new TypeError(`unknown lite_api function ${String(fn.kind)}`);
  f.encodeRequest(fn, w);
  return w.build();
}

/** Encodes the boxed answer to function `kind` (e.g. `encodeLiteAnswer('liteServer.getTime', {kind: 'liteServer.currentTime', now})`). */
export function encodeLiteAnswer<K extends LiteFunctionKind>(kind: K, answer: LiteAnswer<K>): Buffer {
  const f = LiteFunctions[kind] as unknown as { encodeResponse(res: LiteAnswer<K>, w: TlWriter): void } | undefined;
  if (!f) throw new TypeError(`unknown lite_api function ${String(kind)}`);
  const w = new TlWriter();
  f.encodeResponse(answer, w);
  return w.build();
}

/** Encodes `liteServer.error code:int message:string`. */
export function encodeLiteError(code: number, message: string): Buffer {
  const w = new TlWriter(16 + message.length * 3);
  w.writeUInt32(LITE_ERROR_ID);
  Codecs.liteServer_error.encode({ kind: 'liteServer.error', code: code | 0, message }, w);
  return w.build();
}

/** True when `answer` is a boxed liteServer.error (ton-lite-client tests the first word the same way). */
export function isLiteError(answer: Uint8Array): boolean {
  return answer.length >= 4 && Buffer.from(answer.buffer, answer.byteOffset, 4).readUInt32LE(0) === LITE_ERROR_ID;
}

/** Decodes a liteServer.error answer, or returns null if `answer` is something else. */
export function decodeLiteError(answer: Uint8Array): LiteServerError | null {
  if (!isLiteError(answer)) return null;
  const r = new TlReader(answer);
  r.readUInt32();
  const e = Codecs.liteServer_error.decode(r);
  return new LiteServerError(e.code, e.message);
}

/** Decodes the answer to function `kind`; a liteServer.error answer is thrown as LiteServerError. */
export function decodeLiteAnswer<K extends LiteFunctionKind>(kind: K, answer: Uint8Array): LiteAnswer<K> {
  const err = decodeLiteError(answer);
  if (err) throw err;
  const f = LiteFunctions[kind] as unknown as { decodeResponse(r: TlReader): LiteAnswer<K> } | undefined;
  if (!f) throw new TypeError(`unknown lite_api function ${String(kind)}`);
  const r = new TlReader(answer);
  const res = f.decodeResponse(r);
  r.expectEnd(String(kind));
  return res;
}

// ---- a small dispatcher for handler authors --------------------------------------------------

export interface LiteCallContext {
  /** From the liteServer.waitMasterchainSeqno prefix; the method decides how to wait. */
  waitMasterchainSeqno?: WaitMasterchainSeqno;
}

export type LiteMethods = {
  [K in LiteFunctionKind]?: (req: LiteRequest<K>, ctx: LiteCallContext) => LiteAnswer<K> | Promise<LiteAnswer<K>>;
};

export interface LiteDispatcherOptions {
  /** Called for calls without a method (default: liteServer.error 601 "unsupported query ..."). */
  onUnsupported?: (fn: LiteFunctionCall, ctx: LiteCallContext) => Promise<Buffer> | Buffer;
  /** Called before a method runs, e.g. to wait for `ctx.waitMasterchainSeqno`. May throw LiteServerError. */
  before?: (fn: LiteFunctionCall, ctx: LiteCallContext) => Promise<void> | void;
  /** Errors other than LiteServerError become liteServer.error with this code (default 602). */
  defaultErrorCode?: number;
}

/**
 * Builds a LiteQueryHandler from per-function methods: decodes the call, runs the method and
 * encodes its answer. A thrown LiteServerError is answered with its code and message; other
 * errors with `defaultErrorCode`; undecodable input with 621 (protoviolation).
 */
export function createLiteDispatcher(methods: LiteMethods, opts: LiteDispatcherOptions = {}): LiteQueryHandler {
  const defaultCode = opts.defaultErrorCode ?? LiteErrorCodes.error;
  return async (query: Buffer): Promise<Buffer> => {
    let decoded: DecodedLiteQuery;
    try {
      decoded = decodeLiteQuery(query);
    } catch (e) {
      return encodeLiteError(LiteErrorCodes.protoviolation, `cannot parse query: ${errorMessage(e)}`);
    }
    const { fn } = decoded;
    const ctx: LiteCallContext = decoded.waitMasterchainSeqno ? { waitMasterchainSeqno: decoded.waitMasterchainSeqno } : {};
    try {
      const method = methods[fn.kind] as ((req: LiteFunctionCall, ctx: LiteCallContext) => unknown) | undefined;
      if (!method) {
        if (opts.onUnsupported) return await opts.onUnsupported(fn, ctx);
        return encodeLiteError(LiteErrorCodes.failure, `unsupported query ${fn.kind}`);
      }
      if (opts.before) await opts.before(fn, ctx);
      const answer = await method(fn, ctx);
      return encodeLiteAnswer(fn.kind, answer as LiteAnswer<typeof fn.kind>);
    } catch (e) {
      if (e instanceof LiteServerError) return encodeLiteError(e.code, e.message);
      return encodeLiteError(defaultCode, errorMessage(e));
    }
  };
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
