import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { Functions as LcFunctions } from 'ton-lite-client/dist/schema.js';
import { describe, expect, it } from 'vitest';
import { OUTPUT_PATH, SCHEMA_PATH, crc32, generateLiteTl, normalizeDeclaration } from './scripts/gen-lite-tl';
import {
  Codecs,
  ConstructorIds,
  Functions,
  LiteErrorCodes,
  LiteFunctions,
  LiteServerError,
  TlDecodeError,
  TlReader,
  TlWriter,
  createLiteDispatcher,
  decodeLiteAnswer,
  decodeLiteError,
  decodeLiteQuery,
  encodeLiteAnswer,
  encodeLiteError,
  encodeLiteQuery,
  isLiteError,
  type tonNode_blockIdExt,
} from './codec';

const MC = '-9223372036854775808';
const blk: tonNode_blockIdExt = {
  kind: 'tonNode.blockIdExt',
  workchain: -1,
  shard: MC,
  seqno: 42,
  rootHash: Buffer.alloc(32, 0xaa),
  fileHash: Buffer.alloc(32, 0xbb),
};
const toHex = (b: Buffer) => b.toString('hex');

describe('generated lite_api codecs', () => {
  it('are up to date with schema/lite_api.tl', () => {
    const generated = generateLiteTl(readFileSync(SCHEMA_PATH, 'utf-8'));
    expect(generated === readFileSync(OUTPUT_PATH, 'utf-8')).toBe(true);
  });

  it('computes TON constructor ids', () => {
    expect(crc32(normalizeDeclaration('tcp.ping random_id:long = tcp.Pong;'))).toBe(0x4d082b9a);
    expect(ConstructorIds['liteServer.listBlockTransactionsExt']).toBe(0x0079dd5c);
    expect(ConstructorIds['liteServer.blockTransactionsExt']).toBe(0xfb8ffce4);
    expect(ConstructorIds['liteServer.waitMasterchainSeqno']).toBe(0xbaeab892);
    expect(ConstructorIds['liteServer.query']).toBe(0x798c06df);
    expect(ConstructorIds['liteServer.error']).toBe(0xbba9e148);
    expect(ConstructorIds['adnl.message.query']).toBe(0xb48bf97a);
    expect(ConstructorIds['adnl.message.answer']).toBe(0x0fac8416);
    expect(ConstructorIds['tcp.pong']).toBe(0xdc69fb03);
    expect(ConstructorIds['pub.ed25519']).toBe(0x4813b4c6);
    // explicit ids in the schema
    expect(ConstructorIds['liteServer.transactionId']).toBe(0xb12f65af);
    expect(ConstructorIds['liteServer.getValidatorStats']).toBe(0x091a58bc);
  });

  it('agree with every id ton-lite-client ships', () => {
    // ton-lite-client's generated schema writes `encoder.writeInt32(<id>)` for functions and boxed types.
    const require = createRequire(import.meta.url);
    const src = readFileSync(require.resolve('ton-lite-client/dist/schema.js'), 'utf-8');
    const fnIds = [...src.matchAll(/(\w+): \{\s*encodeRequest: \(src, encoder\) => \{ encoder\.writeInt32\((-?\d+)\)/g)];
    const ctorIds = [...src.matchAll(/kind === '([\w.]+)'\) \{\s*encoder\.writeInt32\((-?\d+)\)/g)];
    expect(fnIds.length).toBeGreaterThanOrEqual(26);
    expect(ctorIds.length).toBeGreaterThanOrEqual(30);
    const ours = ConstructorIds as Record<string, number>;
    for (const [, ident, id] of fnIds) {
      // ton-tl ignores the explicit #091a58bc; decodeLiteQuery accepts ton-lite-client's id as an alias.
      if (ident === 'liteServer_getValidatorStats') {
        expect(Number(id) >>> 0).toBe(0xe7253699);
        continue;
      }
      expect([ident, ours[ident.replace(/_/g, '.')]]).toEqual([ident, Number(id) >>> 0]);
    }
    for (const [, kind, id] of ctorIds) {
      if (kind === 'liteServer.transactionId') continue; // ton-lite-client predates the explicit #b12f65af (same value)
      expect([kind, ours[kind]]).toEqual([kind, Number(id) >>> 0]);
    }
  });

  it('encode requests byte-for-byte like ton-lite-client', () => {
    const cases: [keyof typeof LcFunctions & keyof typeof Functions, object][] = [
      ['liteServer_getMasterchainInfo', { kind: 'liteServer.getMasterchainInfo' }],
      ['liteServer_getAccountState', { kind: 'liteServer.getAccountState', id: blk, account: { kind: 'liteServer.accountId', workchain: 0, id: Buffer.alloc(32, 7) } }],
      ['liteServer_runSmcMethod', { kind: 'liteServer.runSmcMethod', mode: 4, id: blk, account: { kind: 'liteServer.accountId', workchain: -1, id: Buffer.alloc(32, 9) }, methodId: '85143', params: Buffer.alloc(300, 1) }],
      ['liteServer_lookupBlock', { kind: 'liteServer.lookupBlock', mode: 2, id: { kind: 'tonNode.blockId', workchain: 0, shard: MC, seqno: 0 }, lt: '123456789012', utime: null }],
      ['liteServer_lookupBlock', { kind: 'liteServer.lookupBlock', mode: 4, id: { kind: 'tonNode.blockId', workchain: 0, shard: MC, seqno: 0 }, lt: null, utime: 1700000000 }],
      ['liteServer_listBlockTransactions', { kind: 'liteServer.listBlockTransactions', id: blk, mode: 7 + 128, count: 128, after: { kind: 'liteServer.transactionId3', account: Buffer.alloc(32, 5), lt: '77' }, reverseOrder: null, wantProof: null }],
      ['liteServer_getConfigParams', { kind: 'liteServer.getConfigParams', mode: 0, id: blk, paramList: [0, 1, 34, -1] }],
      ['liteServer_getLibraries', { kind: 'liteServer.getLibraries', libraryList: [Buffer.alloc(32, 1), Buffer.alloc(32, 2)] }],
      ['liteServer_getBlockProof', { kind: 'liteServer.getBlockProof', mode: 1, knownBlock: blk, targetBlock: { ...blk, seqno: 43 } }],
      ['liteServer_sendMessage', { kind: 'liteServer.sendMessage', body: Buffer.alloc(1000, 3) }],
    ];
    for (const [name, req] of cases) {
      const a = new TLWriteBuffer();
      (LcFunctions[name] as { encodeRequest(s: object, w: TLWriteBuffer): void }).encodeRequest(req, a);
      const b = new TlWriter();
      (Functions[name] as { encodeRequest(s: object, w: TlWriter): void }).encodeRequest(req, b);
      expect([name, toHex(b.build())]).toEqual([name, toHex(a.build())]);
    }
  });

  it('encode answers that ton-lite-client decodes', () => {
    const answers = [
      encodeLiteAnswer('liteServer.getMasterchainInfo', { kind: 'liteServer.masterchainInfo', last: blk, stateRootHash: Buffer.alloc(32, 1), init: { kind: 'tonNode.zeroStateIdExt', workchain: -1, rootHash: Buffer.alloc(32, 2), fileHash: Buffer.alloc(32, 3) } }),
      encodeLiteAnswer('liteServer.runSmcMethod', { kind: 'liteServer.runMethodResult', mode: 4, id: blk, shardblk: blk, exitCode: 0, result: Buffer.from('b5ee9c72', 'hex') }),
      encodeLiteAnswer('liteServer.listBlockTransactions', { kind: 'liteServer.blockTransactions', id: blk, reqCount: 2, incomplete: true, ids: [{ kind: 'liteServer.transactionId', mode: 7, account: Buffer.alloc(32, 1), lt: '5', hash: Buffer.alloc(32, 2) }, { kind: 'liteServer.transactionId', mode: 2, lt: '9223372036854775807' }], proof: Buffer.alloc(0) }),
      encodeLiteAnswer('liteServer.getBlockProof', {
        kind: 'liteServer.partialBlockProof',
        complete: true,
        from: blk,
        to: blk,
        steps: [
          { kind: 'liteServer.blockLinkBack', toKeyBlock: false, from: blk, to: blk, destProof: Buffer.alloc(3), proof: Buffer.alloc(300), stateProof: Buffer.alloc(0) },
          { kind: 'liteServer.blockLinkForward', toKeyBlock: true, from: blk, to: blk, destProof: Buffer.alloc(1), configProof: Buffer.alloc(2), signatures: { kind: 'liteServer.signatureSet', validatorSetHash: -5, catchainSeqno: 3, signatures: [{ kind: 'liteServer.signature', nodeIdShort: Buffer.alloc(32, 9), signature: Buffer.alloc(64, 8) }] } },
        ],
      }),
      encodeLiteAnswer('liteServer.getLibraries', { kind: 'liteServer.libraryResult', result: [{ kind: 'liteServer.libraryEntry', hash: Buffer.alloc(32, 4), data: Buffer.alloc(5, 5) }] }),
    ];
    const names = ['liteServer_getMasterchainInfo', 'liteServer_runSmcMethod', 'liteServer_listBlockTransactions', 'liteServer_getBlockProof', 'liteServer_getLibraries'] as const;
    names.forEach((name, i) => {
      const theirs = LcFunctions[name].decodeResponse(new TLReadBuffer(Buffer.from(answers[i])));
      const kind = Functions[name].kind as keyof typeof LiteFunctions;
      const ours = decodeLiteAnswer(kind, answers[i]);
      expect(JSON.parse(JSON.stringify(ours))).toMatchObject(JSON.parse(JSON.stringify(theirs)));
    });
  });

  it('encodes `flag.N?true` fields as zero bytes (spec), unlike ton-tl 1.0.1', () => {
    const base = { kind: 'liteServer.listBlockTransactionsExt', id: blk, count: 10 } as const;
    const plain = encodeLiteQuery({ ...base, mode: 7 });
    const flagged = encodeLiteQuery({ ...base, mode: 7 + 32 + 64, reverseOrder: true, wantProof: true });
    expect(flagged.length).toBe(plain.length);
    const d = decodeLiteQuery(flagged);
    expect(d.fn).toMatchObject({ kind: 'liteServer.listBlockTransactionsExt', mode: 103, reverseOrder: true, wantProof: true, after: null });
    expect(decodeLiteQuery(plain).fn).toMatchObject({ reverseOrder: null, wantProof: null });
    const q = encodeLiteQuery({ kind: 'liteServer.getBlockOutMsgQueueSize', mode: 1, id: blk, wantProof: true });
    expect(q.length).toBe(4 + 4 + 80);
  });

  it('round-trips negative longs without mutating the input', () => {
    const q = encodeLiteQuery({ kind: 'liteServer.getBlock', id: blk });
    const copy = Buffer.from(q);
    const d1 = decodeLiteQuery(q);
    const d2 = decodeLiteQuery(q);
    expect(q.equals(copy)).toBe(true);
    expect(d1.fn).toMatchObject({ kind: 'liteServer.getBlock', id: { shard: MC, seqno: 42 } });
    expect(d2).toEqual(d1);
  });

  it('throws on a missing conditional field', () => {
    expect(() => encodeLiteQuery({ kind: 'liteServer.lookupBlock', mode: 2, id: { kind: 'tonNode.blockId', workchain: 0, shard: MC, seqno: 1 } })).toThrow(
      /field lt is required/,
    );
  });
});

describe('decodeLiteQuery', () => {
  it('decodes a plain call', () => {
    const d = decodeLiteQuery(encodeLiteQuery({ kind: 'liteServer.getTime' }));
    expect(d).toEqual({ fn: { kind: 'liteServer.getTime' } });
  });

  it('decodes the waitMasterchainSeqno prefix (as LiteSingleEngine writes it)', () => {
    const w = new TLWriteBuffer();
    LcFunctions.liteServer_waitMasterchainSeqno.encodeRequest({ kind: 'liteServer.waitMasterchainSeqno', seqno: 77, timeoutMs: 3000 }, w);
    LcFunctions.liteServer_getAllShardsInfo.encodeRequest({ kind: 'liteServer.getAllShardsInfo', id: blk }, w);
    const d = decodeLiteQuery(w.build());
    expect(d.waitMasterchainSeqno).toEqual({ seqno: 77, timeoutMs: 3000 });
    expect(d.fn).toMatchObject({ kind: 'liteServer.getAllShardsInfo', id: { seqno: 42 } });
    const again = encodeLiteQuery(d.fn, { waitMasterchainSeqno: d.waitMasterchainSeqno });
    expect(toHex(again)).toBe(toHex(w.build()));
  });

  it("accepts ton-lite-client's getValidatorStats id", () => {
    const req = { kind: 'liteServer.getValidatorStats', mode: 1, id: blk, limit: 10, startAfter: Buffer.alloc(32, 6), modifiedAfter: null } as const;
    const w = new TLWriteBuffer();
    LcFunctions.liteServer_getValidatorStats.encodeRequest(req, w);
    const d = decodeLiteQuery(w.build());
    expect(d.fn).toMatchObject({ kind: 'liteServer.getValidatorStats', limit: 10, startAfter: Buffer.alloc(32, 6) });
    expect(encodeLiteQuery(d.fn).readUInt32LE(0)).toBe(0x091a58bc);
  });

  it('rejects unknown functions, truncated input and trailing bytes', () => {
    expect(() => decodeLiteQuery(Buffer.from('deadbeef', 'hex'))).toThrow(TlDecodeError);
    expect(() => decodeLiteQuery(Buffer.alloc(2))).toThrow(TlDecodeError);
    const q = encodeLiteQuery({ kind: 'liteServer.getBlock', id: blk });
    expect(() => decodeLiteQuery(q.subarray(0, q.length - 1))).toThrow(TlDecodeError);
    expect(() => decodeLiteQuery(Buffer.concat([q, Buffer.alloc(4)]))).toThrow(/trailing/);
    // a bytes field claiming more data than present
    const bad = Buffer.from(encodeLiteQuery({ kind: 'liteServer.sendMessage', body: Buffer.alloc(8) }));
    bad[4] = 200;
    expect(() => decodeLiteQuery(bad)).toThrow(TlDecodeError);
  });
});

describe('answers and errors', () => {
  it('encodes and recognizes liteServer.error', () => {
    const e = encodeLiteError(651, 'not ready');
    expect(e.readUInt32LE(0)).toBe(0xbba9e148);
    expect(isLiteError(e)).toBe(true);
    const d = decodeLiteError(e);
    expect(d).toBeInstanceOf(LiteServerError);
    expect([d?.code, d?.message]).toEqual([651, 'not ready']);
    expect(() => decodeLiteAnswer('liteServer.getTime', e)).toThrow('not ready');
    const theirs = LcFunctions.liteServer_getTime; // ton-lite-client would decode it as liteServer.Error first
    expect(theirs).toBeDefined();
    const ok = encodeLiteAnswer('liteServer.getTime', { kind: 'liteServer.currentTime', now: 5 });
    expect(isLiteError(ok)).toBe(false);
    expect(decodeLiteAnswer('liteServer.getTime', ok)).toEqual({ kind: 'liteServer.currentTime', now: 5 });
  });

  it('dispatcher maps methods, errors and unsupported calls', async () => {
    const h = createLiteDispatcher({
      'liteServer.getTime': () => ({ kind: 'liteServer.currentTime', now: 1 }),
      'liteServer.getVersion': () => {
        throw new Error('nope');
      },
      'liteServer.getMasterchainInfo': () => {
        throw new LiteServerError(652, 'timeout');
      },
    });
    expect(decodeLiteAnswer('liteServer.getTime', await h(encodeLiteQuery({ kind: 'liteServer.getTime' })))).toMatchObject({ now: 1 });
    const err = (b: Buffer) => {
      const e = decodeLiteError(b);
      return [e?.code, e?.message];
    };
    expect(err(await h(encodeLiteQuery({ kind: 'liteServer.getVersion' })))).toEqual([LiteErrorCodes.error, 'nope']);
    expect(err(await h(encodeLiteQuery({ kind: 'liteServer.getMasterchainInfo' })))).toEqual([652, 'timeout']);
    expect(err(await h(encodeLiteQuery({ kind: 'liteServer.getState', id: blk })))).toEqual([601, 'unsupported query liteServer.getState']);
    expect(err(await h(Buffer.from('01020304', 'hex')))[0]).toBe(LiteErrorCodes.protoviolation);
  });

  it('TlReader / TlWriter bytes framing matches ton-tl', () => {
    for (const len of [0, 1, 3, 4, 253, 254, 255, 1000, 70000]) {
      const data = Buffer.alloc(len, 0x5a);
      const a = new TLWriteBuffer();
      a.writeBuffer(data);
      const b = new TlWriter();
      b.writeBuffer(data);
      expect(b.build().equals(a.build())).toBe(true);
      const r = new TlReader(b.build());
      expect(r.readBuffer().equals(data)).toBe(true);
      r.expectEnd();
    }
    const w = new TlWriter();
    w.writeInt64('-1');
    w.writeInt64(MC);
    w.writeInt64('9223372036854775807');
    const r = new TlReader(w.build());
    expect([r.readInt64(), r.readInt64(), r.readInt64()]).toEqual(['-1', MC, '9223372036854775807']);
    expect(Codecs.tonNode_blockIdExt).toBeDefined();
  });
});
