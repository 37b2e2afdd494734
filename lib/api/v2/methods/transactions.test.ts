import { Address, beginCell, Cell, loadTransaction, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedTransfer } from '../../../testing/devnet';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { genesisWallet } from '../../../testing/wallets';
import { MODES } from '../../../testing/api';

type Obj = Record<string, unknown>;
type Tx = {
  '@type': string;
  account: string;
  address: { account_address: string };
  data: string;
  utime: number;
  transaction_id: { lt: string; hash: string };
  fee: string;
  storage_fee: string;
  other_fee: string;
  in_msg?: Obj;
  out_msgs: Obj[];
};

const COMMENT = 'hello atlas ✓';
// A body that is neither a comment nor an encrypted one: op 0x12345678 and 12 more bits.
const RAW_BODY = beginCell().storeUint(0x12345678, 32).storeUint(0xabc, 12).endCell();
const TRANSFERS = 20;

let chain: TestChain;
let alice: Address;
let bob: Address;
let commentTxHash: string;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-transactions', rounds: 2 });
  const w = await genesisWallet(chain, 'alice');
  alice = w.address;
  bob = Address.parse(chain.account('bob').address);
  // More transactions on alice than one liteServer.getTransactions call returns (16).
  for (let i = 0; i < TRANSFERS; i++) {
    const body = i === 0 ? COMMENT : i === 1 ? RAW_BODY : undefined;
    await chain.devnet.chain.sendExternal(await signedTransfer(w, [{ to: bob, value: toNano('0.01') + BigInt(i), body }]));
    if (i === 0) {
      await chain.seal();
      const state = await chain.lite.getAccountState(alice, (await chain.lite.getMasterchainInfo()).last);
      commentTxHash = Buffer.from(state.lastTx!.hash.toString(16).padStart(64, '0'), 'hex').toString('base64');
    }
  }
  await chain.seal();
}, 120_000);
afterAll(() => chain?.close());

const friendly = (a: Address) => a.toString({ bounceable: true, urlSafe: true });

async function all(mode: (typeof MODES)[number], limit: number): Promise<Tx[]> {
  const r = await chain.callV2(mode, 'getTransactions', { address: friendly(alice), limit });
  expect(r.status).toBe(200);
  return r.body.result as Tx[];
}

describe.each(MODES)('getTransactions over %s', (mode) => {
  it('walks newest first across liteserver pages, each transaction linking to the next', async () => {
    const txs = await all(mode, 1000);
    expect(txs.length).toBeGreaterThan(16 + TRANSFERS);
    const state = await chain.lite.getAccountState(alice, (await chain.lite.getMasterchainInfo()).last);
    expect(txs[0]!.transaction_id.lt).toBe(state.lastTx!.lt.toString());
    for (let i = 0; i + 1 < txs.length; i++) {
      const tx = loadTransaction(Cell.fromBoc(Buffer.from(txs[i]!.data, 'base64'))[0]!.beginParse());
      expect(tx.prevTransactionLt.toString()).toBe(txs[i + 1]!.transaction_id.lt);
      expect(Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex').toString('base64')).toBe(txs[i + 1]!.transaction_id.hash);
    }
    // The oldest one has no predecessor: the walk reached the start of history.
    const oldest = loadTransaction(Cell.fromBoc(Buffer.from(txs[txs.length - 1]!.data, 'base64'))[0]!.beginParse());
    expect(oldest.prevTransactionLt).toBe(0n);
  });

  it('has the ext.transaction shape with 64-bit numbers as strings', async () => {
    const [t] = await all(mode, 1);
    expect(t).toMatchObject({
      '@type': 'ext.transaction',
      address: { '@type': 'accountAddress', account_address: friendly(alice) },
      account: `0:${alice.hash.toString('hex').toUpperCase()}`,
      transaction_id: { '@type': 'internal.transactionId' },
    });
    expect(BigInt(t!.fee)).toBe(BigInt(t!.storage_fee) + BigInt(t!.other_fee));
    expect(t!.in_msg).toMatchObject({ '@type': 'ext.message', source: '', destination: friendly(alice), value: '0', created_lt: '0' });
    expect(t!.out_msgs[0]).toMatchObject({ '@type': 'ext.message', source: friendly(alice), destination: friendly(bob) });
    expect(typeof t!.out_msgs[0]!.fwd_fee).toBe('string');
  });

  it('pages from an inclusive lt+hash start', async () => {
    const whole = await all(mode, 23);
    const first = await all(mode, 12);
    const last = first[first.length - 1]!;
    const r = await chain.callV2(mode, 'getTransactions', { address: alice.toRawString(), limit: 12, lt: last.transaction_id.lt, hash: last.transaction_id.hash });
    const second = r.body.result as Tx[];
    expect(second[0]).toEqual(last);
    expect([...first, ...second.slice(1)].map((t) => t.transaction_id)).toEqual(whole.map((t) => t.transaction_id));
  });

  it('stops before to_lt (exclusive)', async () => {
    const txs = await all(mode, 10);
    const r = await chain.callV2(mode, 'getTransactions', { address: friendly(alice), limit: 10, to_lt: txs[5]!.transaction_id.lt });
    expect((r.body.result as Tx[]).map((t) => t.transaction_id)).toEqual(txs.slice(0, 5).map((t) => t.transaction_id));
  });

  it('decodes a comment as msg.dataText and any other body as msg.dataRaw', async () => {
    const txs = await all(mode, 40);
    const withComment = txs.find((t) => t.transaction_id.hash === commentTxHash)!;
    expect(withComment.out_msgs[0]).toMatchObject({
      msg_data: { '@type': 'msg.dataText', text: Buffer.from(COMMENT).toString('base64') },
      message: COMMENT,
    });
    const raw = txs.find((t) => (t.out_msgs[0]?.msg_data as Obj | undefined)?.body === RAW_BODY.toBoc().toString('base64'))!;
    expect(raw.out_msgs[0]).toMatchObject({
      msg_data: { '@type': 'msg.dataRaw', init_state: '' },
      body_hash: RAW_BODY.hash().toString('base64'),
      // the root cell's 44 data bits, padded with zero bits to 6 bytes
      message: `${Buffer.from('12345678abc0', 'hex').toString('base64')}\n`,
    });
    // The wallet's external: a raw body (signature, seqno, actions).
    expect((withComment.in_msg!.msg_data as Obj)['@type']).toBe('msg.dataRaw');
  });

  it('archival is accepted (true or false) and answers the same history; a non-boolean is 422', async () => {
    const txs = await all(mode, 5);
    for (const archival of [true, false, 'true']) {
      const r = await chain.callV2(mode, 'getTransactions', { address: friendly(alice), limit: 5, archival });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect((r.body.result as Tx[]).map((t) => t.transaction_id)).toEqual(txs.map((t) => t.transaction_id));
    }
    expect((await chain.callV2(mode, 'getTransactions', { address: friendly(alice), archival: 'maybe' })).status).toBe(422);
  });

  it.each([
    ['lt without hash', { lt: '1000' }, /lt and hash must be given together/],
    ['hash without lt', { hash: 'ab'.repeat(32) }, /lt and hash must be given together/],
    ['a bad hash', { lt: '1000', hash: 'xyz' }, /invalid hash/],
    ['limit 0', { limit: 0 }, /limit/],
    ['limit 1001', { limit: 1001 }, /limit/],
    ['negative lt', { lt: -1, hash: 'ab'.repeat(32) }, /lt/],
  ])('422 for %s', async (_, extra, message) => {
    const r = await chain.callV2(mode, 'getTransactions', { address: friendly(alice), ...extra });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422 });
    expect(r.body.error).toMatch(message);
  });

  it('422 for a missing or invalid address', async () => {
    expect((await chain.callV2(mode, 'getTransactions', {})).status).toBe(422);
    expect((await chain.callV2(mode, 'getTransactions', { address: 'invalid' })).status).toBe(422);
  });

  it('404 when the start (lt, hash) names no transaction of the account', async () => {
    const [newest] = await all(mode, 1);
    for (const method of ['getTransactions', 'getTransactionsStd']) {
      const r = await chain.callV2(mode, method, { address: friendly(alice), lt: newest!.transaction_id.lt, hash: '00'.repeat(32) });
      expect([method, r.status, r.body.error]).toEqual([method, 404, expect.stringMatching(/^no transaction of 0:[0-9a-f]{64} has lt \d+ and hash 0{64}$/)]);
    }
  });

  it('an account without transactions has none', async () => {
    const r = await chain.callV2(mode, 'getTransactions', { address: `0:${'00'.repeat(31)}01` });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual([]);
  });

  it('getTransactionsStd gives raw.transactions and the next older id', async () => {
    const txs = await all(mode, 6);
    const r = await chain.callV2(mode, 'getTransactionsStd', { address: friendly(alice), limit: 5 });
    expect(r.status).toBe(200);
    const res = r.body.result as { transactions: Tx[]; previous_transaction_id: Obj };
    expect(res.transactions.map((t) => t.transaction_id)).toEqual(txs.slice(0, 5).map((t) => t.transaction_id));
    expect(res.transactions[0]).toMatchObject({ '@type': 'raw.transaction', in_msg: { '@type': 'raw.message', source: { '@type': 'accountAddress', account_address: '' } } });
    expect(res.transactions[0]).not.toHaveProperty('account');
    expect(res.previous_transaction_id).toEqual(txs[5]!.transaction_id);
  });
});

describe.each(MODES)('block transactions over %s', (mode) => {
  const blockOf = async (t: Tx) =>
    (await chain.callV2(mode, 'lookupBlock', { workchain: 0, shard: '-9223372036854775808', lt: t.transaction_id.lt })).body.result as Obj;

  it('getBlockTransactions lists short ids and pages with after_lt/after_hash', async () => {
    const [t] = await all(mode, 1);
    const block = await blockOf(t!);
    const r = await chain.callV2(mode, 'getBlockTransactions', { workchain: 0, shard: block.shard, seqno: block.seqno });
    expect(r.status).toBe(200);
    const res = r.body.result as { id: Obj; req_count: number; incomplete: boolean; transactions: Obj[] };
    expect(res).toMatchObject({ '@type': 'blocks.transactions', id: block, req_count: 40, incomplete: false });
    expect(res.transactions).toContainEqual({
      '@type': 'blocks.shortTxId',
      mode: 7,
      account: `0:${alice.hash.toString('hex')}`,
      lt: t!.transaction_id.lt,
      hash: t!.transaction_id.hash,
    });
    // One at a time, with the cursor, gives the same list.
    const paged: Obj[] = [];
    let cursor: Obj = {};
    for (;;) {
      const page = (await chain.callV2(mode, 'getBlockTransactions', { workchain: 0, shard: block.shard, seqno: block.seqno, count: 1, ...cursor })).body.result as typeof res;
      paged.push(...page.transactions);
      if (!page.incomplete) break;
      const last = page.transactions[0]!;
      cursor = { after_lt: last.lt, after_hash: (last.account as string).split(':')[1] };
    }
    // The same ids; each with the mode of the request that listed it, as a node echoes it (135: after a cursor).
    const withoutMode = (ids: Obj[]) => ids.map(({ mode: _mode, ...id }) => id);
    expect(withoutMode(paged)).toEqual(withoutMode(res.transactions));
    expect(paged.map((t) => t.mode)).toEqual(paged.map((_, i) => (i === 0 ? 7 : 135)));
  });

  it('getBlockTransactionsExt gives the transactions themselves', async () => {
    const [t] = await all(mode, 1);
    const block = await blockOf(t!);
    const r = await chain.callV2(mode, 'getBlockTransactionsExt', {
      workchain: 0,
      shard: block.shard,
      seqno: block.seqno,
      root_hash: block.root_hash,
      file_hash: block.file_hash,
    });
    expect(r.status).toBe(200);
    const res = r.body.result as { transactions: Tx[] };
    const mine = res.transactions.find((x) => x.transaction_id.hash === t!.transaction_id.hash)!;
    expect(mine).toMatchObject({ '@type': 'raw.transactionExt', account: `0:${alice.hash.toString('hex').toUpperCase()}`, data: t!.data, fee: t!.fee });
    expect(mine.in_msg).toMatchObject({ '@type': 'raw.message', destination: { '@type': 'accountAddress', account_address: friendly(alice) } });
  });

  it.each([
    ['after_lt without after_hash', { after_lt: 5 }, /after_lt and after_hash must be given together/],
    ['count 0', { count: 0 }, /count/],
    ['count 10001', { count: 10001 }, /count/],
    ['a bad after_hash', { after_lt: 5, after_hash: 'nope' }, /after_hash/],
    ['seqno 0', { seqno: 0 }, /seqno/],
  ])('422 for %s', async (_, extra, message) => {
    const r = await chain.callV2(mode, 'getBlockTransactions', { workchain: 0, shard: '-9223372036854775808', seqno: 1, ...extra });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(message);
  });
});

describe.each(MODES)('tryLocate* over %s', (mode) => {
  // alice's first transaction received the faucet's genesis funding.
  const funding = async () => {
    const txs = await all(mode, 1000);
    const first = txs[txs.length - 1]!;
    const msg = first.in_msg as { source: string; destination: string; created_lt: string; hash: string };
    return { first, msg };
  };

  it.each(['tryLocateTx', 'tryLocateResultTx'])('%s finds the transaction that received a genesis transfer', async (method) => {
    const { first, msg } = await funding();
    expect(Address.parse(msg.source).equals(Address.parse(chain.account('faucet').address))).toBe(true);
    const r = await chain.callV2(mode, method, { source: msg.source, destination: msg.destination, created_lt: msg.created_lt });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual(first);
  });

  it('tryLocateSourceTx finds the transaction that sent it', async () => {
    const { msg } = await funding();
    const r = await chain.callV2(mode, 'tryLocateSourceTx', { source: msg.source, destination: msg.destination, created_lt: msg.created_lt });
    expect(r.status).toBe(200);
    const tx = r.body.result as Tx;
    expect(tx.account).toBe(Address.parse(msg.source).toRawString().toUpperCase());
    expect(tx.out_msgs.map((m) => m.hash)).toContain(msg.hash);
  });

  it('404 when no transaction matches', async () => {
    const { msg } = await funding();
    const r = await chain.callV2(mode, 'tryLocateTx', { source: msg.source, destination: msg.destination, created_lt: (BigInt(msg.created_lt) + 1n).toString() });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ ok: false, code: 404, error: 'transaction was not found' });
  });

  it('422 for missing or bad parameters', async () => {
    const { msg } = await funding();
    expect((await chain.callV2(mode, 'tryLocateTx', { source: msg.source, destination: msg.destination })).status).toBe(422);
    expect((await chain.callV2(mode, 'tryLocateSourceTx', { source: 'bad', destination: msg.destination, created_lt: 1 })).status).toBe(422);
    expect((await chain.callV2(mode, 'tryLocateResultTx', { source: msg.source, destination: msg.destination, created_lt: -1 })).status).toBe(422);
  });
});
