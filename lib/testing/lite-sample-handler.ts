/**
 * A small lite_api handler with hand-built, valid answers, for the transport tests.
 * Not the devnet's chain logic.
 */
import { once } from 'node:events';
import { LiteSingleEngine } from 'ton-lite-client';
import {
  LiteServerError,
  createLiteDispatcher,
  decodeLiteQuery,
  type DecodedLiteQuery,
  type LiteQueryHandler,
  type tonNode_blockIdExt,
} from '../lite/tl/codec';

export const TEST_NOW = 1_700_000_000;
export const MC_SHARD = '-9223372036854775808';
export const TEST_LAST: tonNode_blockIdExt = {
  kind: 'tonNode.blockIdExt',
  workchain: -1,
  shard: MC_SHARD,
  seqno: 100,
  rootHash: Buffer.alloc(32, 0x11),
  fileHash: Buffer.alloc(32, 0x22),
};
export const TEST_ZERO = { kind: 'tonNode.zeroStateIdExt', workchain: -1, rootHash: Buffer.alloc(32, 0x33), fileHash: Buffer.alloc(32, 0x44) } as const;
export const TEST_STATE_ROOT = Buffer.alloc(32, 0x55);

export interface TestHandler {
  handler: LiteQueryHandler;
  /** Every decodable call received, in arrival order. */
  calls: DecodedLiteQuery[];
  /** Calls in progress. */
  inFlight(): number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pattern of `size` bytes that depends on the block seqno (to check large answers end to end). */
export function testBlockData(seqno: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seqno) & 0xff;
  return b;
}

export function createTestHandler(opts: { slowMs?: number; blockSize?: number } = {}): TestHandler {
  const slowMs = opts.slowMs ?? 250;
  const blockSize = opts.blockSize ?? 1024;
  const calls: DecodedLiteQuery[] = [];
  let inFlight = 0;
  const dispatch = createLiteDispatcher({
    'liteServer.getTime': () => ({ kind: 'liteServer.currentTime', now: TEST_NOW }),
    'liteServer.getVersion': () => ({ kind: 'liteServer.version', mode: 0, version: 0x101, capabilities: '7', now: TEST_NOW }),
    'liteServer.getMasterchainInfo': (_req, ctx) => {
      const wait = ctx.waitMasterchainSeqno;
      if (wait && wait.seqno > TEST_LAST.seqno) {
        throw new LiteServerError(652, `timeout waiting for masterchain block ${wait.seqno}`);
      }
      return { kind: 'liteServer.masterchainInfo', last: TEST_LAST, stateRootHash: TEST_STATE_ROOT, init: TEST_ZERO };
    },
    // The slow one: answers come back out of order.
    'liteServer.getMasterchainInfoExt': async () => {
      await sleep(slowMs);
      return {
        kind: 'liteServer.masterchainInfoExt',
        mode: 0,
        version: 0x101,
        capabilities: '7',
        last: TEST_LAST,
        lastUtime: TEST_NOW - 1,
        now: TEST_NOW,
        stateRootHash: TEST_STATE_ROOT,
        init: TEST_ZERO,
      };
    },
    'liteServer.getConfigAll': () => {
      throw new LiteServerError(651, 'state not ready');
    },
    'liteServer.runSmcMethod': () => {
      throw new Error('boom');
    },
    'liteServer.lookupBlock': (req) => ({
      kind: 'liteServer.blockHeader',
      id: {
        kind: 'tonNode.blockIdExt',
        workchain: req.id.workchain,
        shard: req.id.shard,
        seqno: req.id.seqno,
        rootHash: Buffer.alloc(32, req.id.seqno & 0xff),
        fileHash: Buffer.alloc(32, 0xfe),
      },
      mode: req.mode,
      headerProof: Buffer.from('b5ee9c72', 'hex'),
    }),
    'liteServer.listBlockTransactions': (req) => ({
      kind: 'liteServer.blockTransactions',
      id: req.id,
      reqCount: req.count,
      incomplete: false,
      ids: [
        { kind: 'liteServer.transactionId', mode: 7, account: Buffer.alloc(32, 1), lt: '1000', hash: Buffer.alloc(32, 2) },
        { kind: 'liteServer.transactionId', mode: 7, account: Buffer.alloc(32, 3), lt: '2000', hash: Buffer.alloc(32, 4) },
      ],
      proof: Buffer.alloc(0),
    }),
    'liteServer.listBlockTransactionsExt': (req) => ({
      kind: 'liteServer.blockTransactionsExt',
      id: req.id,
      reqCount: req.count,
      incomplete: req.reverseOrder === true,
      transactions: Buffer.from(`tx:${req.mode}`),
      proof: Buffer.alloc(0),
    }),
    'liteServer.getLibraries': (req) => ({
      kind: 'liteServer.libraryResult',
      result: req.libraryList.map((hash) => ({ kind: 'liteServer.libraryEntry', hash, data: Buffer.concat([Buffer.from('lib'), hash]) })),
    }),
    'liteServer.sendMessage': (req) => {
      if (req.body.length === 0) throw new LiteServerError(0, 'cannot apply external message: empty');
      return { kind: 'liteServer.sendMsgStatus', status: 1 };
    },
    'liteServer.getBlock': (req) => ({ kind: 'liteServer.blockData', id: req.id, data: testBlockData(req.id.seqno, blockSize) }),
  });
  const handler: LiteQueryHandler = async (query) => {
    try {
      calls.push(decodeLiteQuery(query));
    } catch {
      // the dispatcher answers with liteServer.error
    }
    inFlight++;
    try {
      return await dispatch(query);
    } finally {
      inFlight--;
    }
  };
  return { handler, calls, inFlight: () => inFlight };
}

/** ton-lite-client's own TCP engine, connected to our server (it throws 'Engine is closed' until 'ready'). */
export async function connectTcpEngine(port: number, publicKey: Buffer, timeoutMs = 3000): Promise<LiteSingleEngine> {
  const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey, reconnectTimeout: 60_000 });
  engine.on('error', () => {}); // it emits 'error' on socket errors; unhandled that would throw
  await once(engine, 'ready', { signal: AbortSignal.timeout(timeoutMs) });
  return engine;
}
