// The few TL bits the lite client needs on the wire (ADNL envelope, liteServer.query/error) and the
// lite_api function ids that caching and retry policies look at. Ids are from lite_api.tl / ton_api.tl.
import { TLReadBuffer, TLWriteBuffer, type TLFunction } from 'ton-tl';
import { LiteServerError } from './errors';
import { ConstructorIds } from './tl/lite-tl.gen';

export const TlIds = {
  pubEd25519: 0x4813b4c6,
  tcpPing: 0x4d082b9a,
  tcpPong: 0xdc69fb03,
  adnlQuery: 0xb48bf97a,
  adnlAnswer: 0x0fac8416,
  liteQuery: 0x798c06df,
  liteError: 0xbba9e148,
  waitMasterchainSeqno: 0xbaeab892,
} as const;

/** lite_api function ids (first word of a boxed call). */
export const LiteFn = {
  getMasterchainInfo: 0x89b5e62e,
  getMasterchainInfoExt: 0x70a671df,
  getTime: 0x16ad5a34,
  getBlock: 0x6377cf0d,
  getState: 0xba6e2eb6,
  getBlockHeader: 0x21ec069e,
  sendMessage: 0x690ad482,
  getAccountState: 0x6b890e25,
  getAccountStatePrunned: 0x5a698507,
  runSmcMethod: 0x5cc65dd2,
  getShardInfo: 0x46a2f425,
  getAllShardsInfo: 0x74d3fd6b,
  getOneTransaction: 0xd40f24ea,
  getTransactions: 0x1c40e7a1,
  lookupBlock: 0xfac8f71e,
  lookupBlockWithProof: 0x9c045ff8,
  listBlockTransactions: 0xadfcc7da,
  listBlockTransactionsExt: 0x0079dd5c,
  getBlockProof: 0x8aea9c44,
  getConfigAll: 0x911b26b7,
  getConfigParams: 0x2a111c19,
  getLibraries: 0xd122b662,
  getLibrariesWithProof: 0xd97693bd,
} as const;

/** Encoded size of a TL `bytes` value holding n bytes (length header and padding included). */
export function tlBytesSize(n: number): number {
  return ((n <= 253 ? 1 : 4) + n + 3) & ~3;
}

/** Writes a TL `bytes` value at `offset`; returns the offset after it. */
export function writeTlBytes(out: Buffer, offset: number, data: Uint8Array): number {
  const n = data.length;
  if (n <= 253) {
    out[offset] = n;
    out.set(data, offset + 1);
  } else {
    out[offset] = 254;
    out.writeUIntLE(n, offset + 1, 3);
    out.set(data, offset + 4);
  }
  const end = offset + tlBytesSize(n);
  out.fill(0, offset + (n <= 253 ? 1 : 4) + n, end);
  return end;
}

/** Reads a TL `bytes` value at `offset` (a view, not a copy). Throws on truncation. */
export function readTlBytes(buf: Buffer, offset: number): { value: Buffer; next: number } {
  if (offset >= buf.length) throw new RangeError('truncated TL bytes');
  let n = buf[offset];
  let start = offset + 1;
  if (n === 254) {
    if (offset + 4 > buf.length) throw new RangeError('truncated TL bytes');
    n = buf.readUIntLE(offset + 1, 3);
    start = offset + 4;
  } else if (n === 255) {
    throw new RangeError('bad TL bytes length');
  }
  const next = offset + tlBytesSize(n);
  if (start + n > buf.length) throw new RangeError('truncated TL bytes');
  return { value: buf.subarray(start, start + n), next: Math.min(next, buf.length) };
}

/** `adnl.message.query query_id:int256 query:(liteServer.query data:bytes)`. */
export function encodeAdnlLiteQuery(queryId: Buffer, data: Uint8Array): Buffer {
  const inner = tlBytesSize(data.length) + 4;
  const out = Buffer.allocUnsafe(4 + 32 + tlBytesSize(inner));
  out.writeUInt32LE(TlIds.adnlQuery, 0);
  queryId.copy(out, 4);
  // query:bytes wrapping liteServer.query
  const q = Buffer.allocUnsafe(inner);
  q.writeUInt32LE(TlIds.liteQuery, 0);
  writeTlBytes(q, 4, data);
  writeTlBytes(out, 36, q);
  return out;
}

/** A `liteServer.error` answer decoded, or null when `answer` is something else. */
export function decodeLiteErrorAnswer(answer: Buffer): LiteServerError | null {
  if (answer.length < 4 || answer.readUInt32LE(0) !== TlIds.liteError) return null;
  try {
    const r = new TLReadBuffer(Buffer.from(answer));
    r.readUInt32();
    const code = r.readInt32();
    const message = r.readString();
    return new LiteServerError(code, message);
  } catch {
    return new LiteServerError(0, 'malformed liteServer.error answer');
  }
}

/** The boxed call `f(req)` as bytes (what follows an optional waitMasterchainSeqno prefix). */
export function encodeLiteCall<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ): Buffer {
  const w = new TLWriteBuffer();
  f.encodeRequest(req, w);
  return Buffer.from(w.build());
}

/** `liteServer.waitMasterchainSeqno seqno:int timeout_ms:int` prefix. */
export function waitMasterchainSeqnoPrefix(seqno: number, timeoutMs: number): Buffer {
  const b = Buffer.allocUnsafe(12);
  b.writeUInt32LE(TlIds.waitMasterchainSeqno, 0);
  b.writeInt32LE(seqno | 0, 4);
  b.writeInt32LE(Math.min(timeoutMs, 0x7fffffff) | 0, 8);
  return b;
}

/** Decodes an answer with the caller's TL function. ton-tl's reader mutates its input (readInt64), so it reads a copy. */
export function decodeLiteAnswer<REQ, RES>(f: TLFunction<REQ, RES>, answer: Buffer): RES {
  return f.decodeResponse(new TLReadBuffer(Buffer.from(answer)));
}

/** `liteServer.getMasterchainInfo` as a call (what a probe asks). */
export function masterchainInfoCall(): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32LE(LiteFn.getMasterchainInfo, 0);
  return b;
}

const MASTERCHAIN_INFO = ConstructorIds['liteServer.masterchainInfo']; // last:tonNode.blockIdExt …
const MASTERCHAIN_INFO_EXT = ConstructorIds['liteServer.masterchainInfoExt']; // mode:# version:int capabilities:long last:…

/**
 * The masterchain seqno a getMasterchainInfo(Ext) answer reports (its `last` block: workchain int,
 * shard long, seqno int), or undefined for any other call or answer. `data` may start with a
 * waitMasterchainSeqno prefix.
 */
export function headSeqnoOf(data: Buffer, answer: Buffer): number | undefined {
  const call = data.length >= 16 && data.readUInt32LE(0) === TlIds.waitMasterchainSeqno ? data.subarray(12) : data;
  if (call.length < 4 || answer.length < 4) return undefined;
  const fn = call.readUInt32LE(0);
  const id = answer.readUInt32LE(0);
  const at = fn === LiteFn.getMasterchainInfo && id === MASTERCHAIN_INFO ? 4 : fn === LiteFn.getMasterchainInfoExt && id === MASTERCHAIN_INFO_EXT ? 20 : -1;
  return at >= 0 && answer.length >= at + 16 ? answer.readInt32LE(at + 12) : undefined;
}
