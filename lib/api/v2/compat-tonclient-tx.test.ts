// @ton/ton's TonClient, unmodified, over real HTTP: the block, transaction and send calls of issue 4's
// acceptance list (the account and get-method calls are in compat-tonclient.test.ts).
import { Address, comment, internal, SendMode, toNano, type Transaction } from '@ton/core';
import { TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpTestServer } from '../../testing/http-server';
import { startTestChain, type TestChain } from '../../testing/chain';

let chain: TestChain;
let server: HttpTestServer;
let client: TonClient;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-compat-tonclient-tx', rounds: 3 });
  server = await chain.serve();
  client = new TonClient({ endpoint: `${server.url}/api/v2/jsonRPC` });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await chain?.close();
});

const address = (name: string) => Address.parse(chain.account(name).address);
const keys = (name: string) => {
  const secretKey = Buffer.from(chain.account(name).secret_key_hex!, 'hex');
  return { secretKey, publicKey: secretKey.subarray(32) };
};
const ids = (txs: Transaction[]) => txs.map((t) => `${t.lt}:${t.hash().toString('hex')}`);

describe('TonClient over /api/v2/jsonRPC: blocks, transactions, sending', () => {
  it('getMasterchainInfo, getWorkchainShards and getShardTransactions', async () => {
    const info = await client.getMasterchainInfo();
    expect(info.latestSeqno).toBe(chain.devnet.chain.lastSeqno);
    expect(info.workchain).toBe(-1);
    const shards = await client.getWorkchainShards(info.latestSeqno);
    expect(shards).toEqual([{ workchain: 0, shard: '-9223372036854775808', seqno: chain.devnet.chain.lastSeqno }]);
    // The block of alice's newest transaction lists it.
    const [newest] = await client.getTransactions(address('alice'), { limit: 1 });
    const block = await chain.lite.lookupBlockByLt({ workchain: 0, shard: '-9223372036854775808', lt: newest!.lt });
    const txs = await client.getShardTransactions(0, block.id.seqno, '-9223372036854775808');
    expect(txs.some((t) => t.account.equals(address('alice')) && t.lt === newest!.lt.toString() && t.hash === newest!.hash().toString('base64'))).toBe(true);
  });

  it('getTransactions pages without gaps, and getTransaction finds one by lt and hash', async () => {
    const whole = await client.getTransactions(address('alice'), { limit: 30 });
    expect(whole).toHaveLength(30); // more than one liteserver page (16)
    const first = await client.getTransactions(address('alice'), { limit: 12 });
    const last = first[first.length - 1]!;
    const rest = await client.getTransactions(address('alice'), { limit: 18, lt: last.lt.toString(), hash: last.hash().toString('base64') });
    expect([...ids(first), ...ids(rest)]).toEqual(ids(whole));
    const one = await client.getTransaction(address('alice'), whole[20]!.lt.toString(), whole[20]!.hash().toString('base64'));
    expect(one && one.hash().equals(whole[20]!.hash())).toBe(true);
  });

  it('tryLocateResultTx and tryLocateSourceTx on a genesis transfer', async () => {
    const history = await client.getTransactions(address('alice'), { limit: 1000 });
    const funding = history[history.length - 1]!;
    const msg = funding.inMessage!;
    if (msg.info.type !== 'internal') throw new Error('expected the funding transfer');
    const createdLt = msg.info.createdLt;
    const result = await client.tryLocateResultTx(msg.info.src, msg.info.dest, createdLt.toString());
    expect(result.hash().equals(funding.hash())).toBe(true);
    const source = await client.tryLocateSourceTx(msg.info.src, msg.info.dest, createdLt.toString());
    expect(source.address.toString(16).padStart(64, '0')).toBe(address('faucet').hash.toString('hex'));
    expect([...source.outMessages.values()].some((m) => m.info.type === 'internal' && m.info.createdLt === createdLt)).toBe(true);
  });

  it('estimateExternalMessageFee, then open(WalletContractV4).sendTransfer lands with the gas it estimated', async () => {
    const k = keys('alice');
    const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: k.publicKey }));
    const seqno = await wallet.getSeqno();
    // A fixed valid_until: createTransfer and sendTransfer must sign the same body (the default is now + 60 s,
    // which differs between the two calls when a second boundary falls between them).
    const timeout = Math.floor(Date.now() / 1000) + 600;
    const args = { seqno, secretKey: k.secretKey, timeout, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to: address('bob'), value: toNano('0.3'), body: comment('tonclient v4') })] };
    const body = wallet.createTransfer(args);
    const fees = await client.estimateExternalMessageFee(wallet.address, { body, initCode: null, initData: null, ignoreSignature: true });
    await wallet.sendTransfer(args);
    await chain.seal();
    const [tx] = await client.getTransactions(wallet.address, { limit: 1 });
    expect(tx!.inMessage!.body.hash().equals(body.hash())).toBe(true);
    const d = tx!.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('expected an ordinary transaction');
    expect(fees.source_fees.gas_fee).toBe(Number(d.computePhase.gasFees));
    expect(fees.source_fees.fwd_fee).toBe(Number(d.actionPhase!.totalFwdFees));
    expect(await wallet.getSeqno()).toBe(seqno + 1);
  });

  it('open(WalletContractV5R1).sendTransfer lands too', async () => {
    const k = keys('bob');
    const wallet = client.open(WalletContractV5R1.create({ workchain: 0, publicKey: k.publicKey }));
    const seqno = await wallet.getSeqno();
    await wallet.sendTransfer({
      seqno,
      secretKey: k.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: address('alice'), value: toNano('0.2'), body: comment('tonclient v5') })],
    });
    await chain.seal();
    const [tx] = await client.getTransactions(wallet.address, { limit: 1 });
    const out = [...tx!.outMessages.values()][0]!;
    expect(out.info.dest!.toString()).toBe(address('alice').toString());
    expect(out.body.beginParse().skip(32).loadStringTail()).toBe('tonclient v5');
    expect(await wallet.getSeqno()).toBe(seqno + 1);
  });
});

