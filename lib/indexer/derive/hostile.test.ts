// The indexer never stops on chain content. A contract that passes for a jetton master and answers
// get_jetton_data with a 600-deep content cell (what killed a TVM worker and stopped the index for good,
// each retry of the block failing the same way) is deployed through a real transaction: the block is
// indexed, the contract's interface stays unknown with the reason in derive_skips and /api/health, later
// blocks that touch it are indexed too, and index:verify lists the skip rather than a difference. A
// failure of the pool itself (full queue) still fails the block, to be tried again.
import { Address, Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealth } from '../../health';
import { log } from '../../log';
import { startTestChain, type TestChain } from '../../testing/chain';
import { messageBoc, type TestWallet } from '../../testing/devnet';
import { deployHostile, hostileContract, setContentDepth, type HostileContract } from '../../testing/hostile';
import { genesisWallet } from '../../testing/wallets';
import { TvmRefused, TvmPool } from '../../tvm/pool';
import { verifyJettons } from '../verify';
import { Deriver } from './index';
import { verifyDerived } from './verify';
import { blockGetters, ChainReader } from './getters';

let chain: TestChain;
let alice: TestWallet;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'derive-hostile', rounds: 1, index: true, derive: true });
  alice = await genesisWallet(chain, 'alice');
}, 300_000);
afterAll(() => chain?.close());

const prisma = () => chain.db!.db.prisma;
const raw = (c: HostileContract) => c.address.toRawString().toUpperCase();

async function send(message: Promise<Parameters<typeof messageBoc>[0]>) {
  const r = await chain.callV2('post', 'sendBoc', { boc: messageBoc(await message).toString('base64') });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  // seal() indexes the new block, derive stage included: it throws if the block cannot be indexed.
  await chain.seal();
  expect((await prisma().indexerState.findUnique({ where: { id: 'main' } }))!.lastMcSeqno).toBe(chain.devnet.chain.lastSeqno);
}

const skipsOf = (c: HostileContract) => prisma().deriveSkip.findMany({ where: { address: raw(c) } });

describe('a contract whose get-method the emulator cannot answer', () => {
  let hostile: HostileContract;

  it('is indexed with its interface unknown, the reason kept and reported', async () => {
    hostile = await hostileContract(1);
    await send(deployHostile(alice, hostile));
    const skips = await skipsOf(hostile);
    expect(skips).toEqual([
      expect.objectContaining({ method: 'get_jetton_data', reason: "the get-method's result has a cell 600 cells deep; at most 512 are allowed", mcSeqno: chain.devnet.chain.lastSeqno }),
    ]);
    // Its code is not taken for a jetton master, nor kept as decided.
    const state = await prisma().latestAccountState.findUnique({ where: { account: raw(hostile) } });
    expect(await prisma().codeInterfaces.findUnique({ where: { codeHash: state!.codeHash! } })).toBeNull();
    expect(await prisma().jettonMaster.findUnique({ where: { address: raw(hostile) } })).toBeNull();
    expect(chain.indexer!.progress.skipped).toMatchObject({ count: 1, last: { method: 'get_jetton_data', address: raw(hostile) } });
    const health = await createHealth(async () => ({ config: { network: 'devnet' }, db: chain.db!.db, lite: chain.lite, indexer: chain.indexer!, tvm: chain.tvm }))();
    expect(health.status).toBe('ok');
    expect(health.indexer).toMatch(
      new RegExp(`^starting: nothing indexed yet; 1 get-method run skipped, interface unknown \\(last: get_jetton_data of ${raw(hostile)}: the get-method's result has a cell 600 cells deep`),
    );
    expect(chain.tvm.status()).toMatchObject({ state: 'ok', restarts: 0 });
  });

  it('later blocks that touch it are indexed too, the contract refused without a run once it keeps failing', async () => {
    for (let i = 0; i < 3; i++) await send(setContentDepth(alice, hostile, 600 + i));
    const [skip] = await skipsOf(hostile);
    expect(skip!.mcSeqno).toBe(chain.devnet.chain.lastSeqno);
    expect(skip!.reason).toMatch(new RegExp(`^get-methods of ${hostile.address.toRawString()} are refused for the next \\d+ s`));
    expect(chain.tvm.status().backoff.contracts).toBe(1);
  });

  it('a jetton master that turns hostile keeps its row; index:verify lists it as skipped, not as a difference', async () => {
    const turning = await hostileContract(2, 10);
    await send(deployHostile(alice, turning));
    const row = await prisma().jettonMaster.findUnique({ where: { address: raw(turning) } });
    expect(row?.totalSupply.toFixed()).toBe('1000000');
    await send(setContentDepth(alice, turning, 700));
    expect(await prisma().jettonMaster.findUnique({ where: { address: raw(turning) } })).toMatchObject({ lastTransactionLt: row!.lastTransactionLt });
    const seqno = chain.devnet.chain.lastSeqno;
    const tokens = await verifyJettons({ prisma: prisma(), client: chain.lite, tvm: chain.tvm, seqno });
    // The first contract has the same code, now taken for a jetton master's (decided on this one): it has no row either.
    expect(tokens.skipped).toHaveLength(2);
    expect(tokens.skipped).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${raw(turning)}: get_jetton_data: the get-method's result has a cell 700 cells deep; .* \\(the row is as of lt \\d+, the chain at \\d+\\)$`)),
        expect.stringMatching(new RegExp(`^${raw(hostile)}: get_jetton_data: .* \\(not in jetton_masters\\)$`)),
      ]),
    );
    expect(tokens.differences).toEqual([]);
    const derived = await verifyDerived({ prisma: prisma(), deriver: new Deriver({ prisma: prisma(), lite: chain.lite, tvm: chain.tvm, log, fullConfig: true }) });
    expect(derived.differences).toEqual([]);
  });
});

describe('a failure of the pool itself', () => {
  it('fails the run (the block is tried again) instead of skipping the contract', async () => {
    const pool = new TvmPool({ queue: 0 });
    try {
      const info = await chain.lite.getMasterchainInfoExt();
      const run = blockGetters(new ChainReader(chain.lite), pool, { id: { ...info.last, kind: 'tonNode.blockIdExt' }, utime: info.lastUtime, keySeqno: 0 }, () => {
        throw new Error('not a skip');
      });
      const state = await prisma().latestAccountState.findUnique({ where: { account: Address.parse(chain.account('jetton_minter').address).toRawString().toUpperCase() } });
      // Only the address and the balance of the state are read for a run.
      const account = { state: { account: state!.account, balance: 1n } as never, code: Cell.fromBoc(Buffer.from(state!.codeBoc!))[0]!, data: Cell.fromBoc(Buffer.from(state!.dataBoc!))[0]!, interfaces: [] };
      await expect(run(account, 'get_jetton_data')).rejects.toSatisfy((e) => e instanceof TvmRefused && e.kind === 'busy');
    } finally {
      await pool.close();
    }
  });
});
