// Transaction routes over the real database holding the mainnet fixture blocks.
import { Cell } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { jettonWalletCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { type TransactionJson, TransactionsResponse } from '../models/transactions';
import { fixtureDatabase, insertAccountState, MC_SEQNO, modelProblems, type FixtureDatabase } from '../../../testing/v3';

let db: FixtureDatabase;
type Txs = { transactions: TransactionJson[]; address_book: Record<string, { user_friendly: string | null; domain: null; interfaces: string[] | null }> };

const T17 = 'RjneeV/2mtb+5c1JiULr996W4GkwHcYVT8piJsLzX4k=';
const MULTI_OUT = 'Z++5Q6xTzXi0N+Yspg0tLKHaxydfnPgNkH7KCN+bkt0=';
const RECEIVER = 'DeN768mQjiBCxkqhaskRv3r/vQVUXdFQtf2uz8JELhI=';
const SENDER = 'EA/juhvZ0Z6uggFSAbbt+vp3/v2VxwJg/1pZA990PL4=';
const DELIVERED_MSG = 'vB4U61xshgBYpXyioYC2hamrfxn3YDXEoeNzxLExHo0=';
const EXT_IN_MSG = '9+lmx8EMf+/bYyf1FhHAel0aalhK+aUvvgxbXUYTNQo=';
const EXT_IN_NORM = 'mI6IVR5gsQMNxOU2k1zSJ/IUSfQVb98XGeSJBigbKbE=';
const EXT_IN_TX = '2Sjor9VtYljtI/BHok2Cfeyazj6Bt/P/EBgh3mGOOEM=';
const COMMENT_TX = 'SlcNWm+1PsNyVjcJSim4vG0IPZ4TiuYq3OhGdfrYG1U=';
const BUSY = '0:18AA8E2EED51747DAE033C079B93883D941CAD8F65459F2EE9CD7474B6B8ED5D';
const JETTON_HOLDER = '0:89F356BD10B3C8609187C5ABCD7BB1D5840C7F8A88E73DEBFF8E64FFD8F12010';
const WALLET_OWNER = '0:5CE2C350CB2D47E9BC727C7066E8FAFAFD5A2BC7D361701BEE44A9ECCF818528';

let allTxs: { hash: string; lt: bigint; account: string; mc: number | null }[];
let t17State: Buffer;

beforeAll(async () => {
  db = await fixtureDatabase();
  allTxs = db.all.flatMap((b) => b.transactions.map((t) => ({ hash: t.hash.toString('base64'), lt: t.lt, account: t.account, mc: t.mcBlockSeqno })));
  const p = db.db.prisma;
  // Account states for the address book rules: a standard wallet (non-bounceable) and a jetton wallet.
  const v4 = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 1) });
  await insertAccountState(p, { address: WALLET_OWNER, balance: 5n * 10n ** 9n, code: v4.init.code, data: v4.init.data });
  await insertAccountState(p, { address: JETTON_HOLDER, balance: 10n ** 7n, code: Cell.fromBase64(jettonWalletCode.codeBoc), data: Cell.EMPTY });
  // The state t17 left behind, so its account_state_after is a full object.
  const t17 = db.shards[0]!.transactions[17]!;
  t17State = t17.accountStateHashAfter;
  await insertAccountState(p, { address: t17.account, balance: 123456789n, status: 'uninit' }, { stateHash: t17State, latest: false });
});
afterAll(() => db.drop());

const sorted = (xs: typeof allTxs, dir: 'asc' | 'desc') =>
  [...xs].sort((a, b) => (a.lt === b.lt ? (a.account < b.account ? -1 : 1) : (a.lt < b.lt ? -1 : 1) * (dir === 'asc' ? 1 : -1)));
const hashes = (r: Txs) => r.transactions.map((t) => t.hash);

describe('GET /transactions', () => {
  it('pages every transaction, lt desc then account, default limit 100, every object in toncenter key order', async () => {
    const r = await db.callV3<Txs>('transactions');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['transactions', 'address_book']);
    expect(r.body.transactions).toHaveLength(100);
    expect(modelProblems(r.body, TransactionsResponse)).toEqual([]);
    expect(hashes(r.body)).toEqual(sorted(allTxs, 'desc').slice(0, 100).map((t) => t.hash));
    const all = await db.callV3<Txs>('transactions', { limit: 1000, sort: 'asc' });
    expect(all.body.transactions).toHaveLength(302);
    expect(modelProblems(all.body, TransactionsResponse)).toEqual([]);
    expect(hashes(all.body)).toEqual(sorted(allTxs, 'asc').map((t) => t.hash));
  });

  it('spot check: an aborted transaction with storage, credit and skipped compute phases', async () => {
    const r = await db.callV3<Txs>('transactions', { hash: T17 });
    const t = r.body.transactions[0]!;
    expect(Object.keys(t)).toEqual([
      'account', 'hash', 'lt', 'now', 'mc_block_seqno', 'trace_id', 'trace_external_hash', 'prev_trans_hash', 'prev_trans_lt', 'orig_status', 'end_status', 'total_fees',
      'total_fees_extra_currencies', 'description', 'block_ref', 'in_msg', 'out_msgs', 'account_state_before', 'account_state_after', 'emulated', 'finality',
    ]);
    const src = db.shards[0]!.transactions[17]!;
    expect(t).toMatchObject({
      account: '0:14145F2E12EE35B94A90B8B8FF157CDBD348AA707D29A43E25BB930CDB1D7B2D',
      hash: T17,
      lt: '76734069000013',
      now: src.now,
      mc_block_seqno: MC_SEQNO,
      prev_trans_hash: src.prevTransHash.toString('base64'),
      prev_trans_lt: String(src.prevTransLt),
      total_fees: '1001',
      total_fees_extra_currencies: null,
      block_ref: { workchain: 0, shard: '8000000000000000', seqno: 71398501 },
      out_msgs: [],
      emulated: false,
      finality: 'finalized',
    });
    expect(t.description).toEqual({
      type: 'ord',
      aborted: true,
      destroyed: false,
      credit_first: true,
      storage_ph: { storage_fees_collected: '1001', storage_fees_due: '31401', status_change: 'unchanged' },
      credit_ph: { credit: '1' },
      compute_ph: { skipped: true, reason: 'no_gas' },
    });
    expect(Object.keys(t.description)).toEqual(['type', 'aborted', 'destroyed', 'credit_first', 'storage_ph', 'credit_ph', 'compute_ph']);
    expect(Object.keys(t.description.storage_ph!)).toEqual(['storage_fees_collected', 'storage_fees_due', 'status_change']);
    // before: not indexed → only the hash; after: the stored state
    expect(t.account_state_before).toEqual({
      hash: src.accountStateHashBefore.toString('base64'),
      balance: null,
      extra_currencies: null,
      account_status: null,
      frozen_hash: null,
      data_hash: null,
      code_hash: null,
    });
    expect(t.account_state_after).toEqual({
      hash: t17State.toString('base64'),
      balance: '123456789',
      extra_currencies: null,
      account_status: 'uninit',
      frozen_hash: null,
      data_hash: null,
      code_hash: null,
    });
    // Its trace is the one /traces answers for it, which holds it.
    const traces = (await db.callV3<{ traces: { trace_id: string; transactions_order: string[] }[] }>('traces', { tx_hash: T17 })).body.traces;
    expect(traces.map((x) => x.trace_id)).toEqual([t.trace_id]);
    expect(traces[0]!.transactions_order).toContain(T17);
  });

  it('in_msg and out_msgs: fields, encodings, out_msgs by created_lt', async () => {
    const t = (await db.callV3<Txs>('transactions', { hash: MULTI_OUT })).body.transactions[0]!;
    const inMsg = t.in_msg!;
    expect(inMsg).toMatchObject({
      source: expect.stringMatching(/^0:[0-9A-F]{64}$/),
      destination: WALLET_OWNER,
      value: '997987464',
      created_lt: '76734069000006',
      opcode: '0x178d4519',
      decoded_opcode: 'jetton_internal_transfer',
      bounced: false,
      import_fee: null,
    });
    expect(typeof inMsg.created_at).toBe('string');
    expect(Object.keys(inMsg)).toEqual([
      'hash', 'source', 'destination', 'value', 'value_extra_currencies', 'fwd_fee', 'ihr_fee', 'extra_flags', 'created_lt', 'created_at', 'opcode',
      'decoded_opcode', 'ihr_disabled', 'bounce', 'bounced', 'import_fee', 'message_content', 'init_state',
    ]);
    const body = inMsg.message_content!;
    expect(Object.keys(body)).toEqual(['hash', 'body', 'decoded']);
    expect(Cell.fromBase64(body.body).hash().toString('base64')).toBe(body.hash);
    expect(t.out_msgs.map((m) => [m.created_lt, m.opcode, m.destination, m.value])).toEqual([
      ['76734069000008', '0x7362d09c', JETTON_HOLDER, '100000000'],
      ['76734069000009', '0xd53276db', JETTON_HOLDER, '896997164'],
    ]);
  });

  it('jetton bodies of a real mint decode in in_msg and out_msgs, and agree with each other', async () => {
    const t = (await db.callV3<Txs>('transactions', { hash: MULTI_OUT })).body.transactions[0]!;
    const internal = t.in_msg!.message_content!.decoded!;
    // A mint: the master's internal_transfer comes from addr_none.
    expect(internal).toMatchObject({ '@type': 'jetton_internal_transfer', from: null, forward_ton_amount: '100000000' });
    expect(internal.amount).toMatch(/^[1-9][0-9]*$/);
    expect(t.out_msgs.map((m) => m.decoded_opcode)).toEqual(['jetton_notify', 'excess']);
    const [notify, excess] = t.out_msgs.map((m) => m.message_content!.decoded!);
    // The wallet notifies its owner of the amount it received, from the same sender, with the same query id.
    expect(notify).toMatchObject({ '@type': 'jetton_notify', query_id: internal.query_id, amount: internal.amount, sender: internal.from });
    expect(excess).toEqual({ '@type': 'excess', query_id: internal.query_id });
  });

  it('text comments decode in toncenter\'s back-compatible shape', async () => {
    const t = (await db.callV3<Txs>('transactions', { hash: COMMENT_TX })).body.transactions[0]!;
    const m = t.in_msg!;
    expect(m.opcode).toBe('0x00000000');
    expect(m.decoded_opcode).toBe('text_comment');
    const s = Cell.fromBase64(m.message_content!.body).beginParse();
    s.skip(32);
    expect(m.message_content!.decoded).toEqual({ '@type': 'text_comment', comment: s.loadStringTail(), type: 'text_comment' });
    expect(Object.keys(m.message_content!.decoded!)).toEqual(['@type', 'comment', 'type']);
  });

  it('external-in messages: null source, hash_norm, signed opcode printed unsigned', async () => {
    const t = (await db.callV3<Txs>('transactions', { hash: EXT_IN_TX })).body.transactions[0]!;
    expect(t.in_msg).toMatchObject({ hash: EXT_IN_MSG, source: null, value: null, created_lt: null, created_at: null, import_fee: '0', opcode: '0xb13c31d9', hash_norm: EXT_IN_NORM });
    expect(Object.keys(t.in_msg!).at(-1)).toBe('hash_norm');
  });

  it('address_book: account, in_msg source, out_msg destinations; wallet rule and interfaces', async () => {
    const r = await db.callV3<Txs>('transactions', { hash: MULTI_OUT });
    const t = r.body.transactions[0]!;
    expect(Object.keys(r.body.address_book)).toEqual([...new Set([t.account, t.in_msg!.source!, JETTON_HOLDER])].sort());
    // a standard wallet code: non-bounceable, interface by code hash
    expect(r.body.address_book[WALLET_OWNER]).toEqual({
      user_friendly: Address.parseRaw(WALLET_OWNER).toString({ bounceable: false, urlSafe: true }),
      domain: null,
      interfaces: ['wallet_v4r2'],
    });
    // any other code: bounceable, interfaces from its get-methods
    expect(r.body.address_book[JETTON_HOLDER]).toEqual({
      user_friendly: Address.parseRaw(JETTON_HOLDER).toString({ bounceable: true, urlSafe: true }),
      domain: null,
      interfaces: ['jetton_wallet'],
    });
    // never seen: non-bounceable, no interfaces
    expect(r.body.address_book[t.in_msg!.source!]).toEqual({
      user_friendly: Address.parseRaw(t.in_msg!.source!).toString({ bounceable: false, urlSafe: true }),
      domain: null,
      interfaces: [],
    });
  });

  it('X-No-Address-Book (header or query) empties the book', async () => {
    expect((await db.callV3<Txs>('transactions', { hash: MULTI_OUT }, { headers: { 'X-No-Address-Book': 'true' } })).body.address_book).toEqual({});
    expect((await db.callV3<Txs>('transactions', { hash: MULTI_OUT, X_No_Address_Book: '1' })).body.address_book).toEqual({});
  });

  it('one account: account then lt {sort}; any address form; several accounts in any list syntax', async () => {
    const busy = sorted(allTxs.filter((t) => t.account === BUSY), 'desc').map((t) => t.hash);
    expect(busy).toHaveLength(4);
    expect(hashes((await db.callV3<Txs>('transactions', { account: BUSY })).body)).toEqual(busy);
    const friendly = Address.parseRaw(BUSY).toString({ bounceable: true, urlSafe: false });
    expect(hashes((await db.callV3<Txs>('transactions', { account: friendly, sort: 'asc' })).body)).toEqual([...busy].reverse());
    const two = sorted(allTxs.filter((t) => t.account === BUSY || t.account === WALLET_OWNER), 'desc').map((t) => t.hash);
    expect(hashes((await db.callV3<Txs>('transactions', { account: [BUSY, WALLET_OWNER] })).body)).toEqual(two);
    expect(hashes((await db.callV3<Txs>('transactions', `Account%5B%5D=${BUSY}&account[]=${WALLET_OWNER}`)).body)).toEqual(two);
    expect(hashes((await db.callV3<Txs>('transactions', { account: `${BUSY},${WALLET_OWNER}` })).body)).toEqual(two);
    const excl = await db.callV3<Txs>('transactions', { account: [BUSY, WALLET_OWNER], exclude_account: WALLET_OWNER });
    expect(hashes(excl.body)).toEqual(busy);
  });

  it.each([
    ['hash list, hash {sort}', { hash: [T17, MULTI_OUT], sort: 'asc' }, () => [T17, MULTI_OUT].sort((a, b) => Buffer.compare(Buffer.from(a, 'base64'), Buffer.from(b, 'base64')))],
    ['lt: lt, then account {sort}', { lt: '76734069000013' }, () => allTxs.filter((t) => t.lt === 76734069000013n).sort((a, b) => (a.account < b.account ? 1 : -1)).map((t) => t.hash)],
    ['masterchain block', { workchain: -1, shard: '8000000000000000', seqno: MC_SEQNO }, () => sorted(allTxs.filter((t) => t.account.startsWith('-1:')), 'desc').map((t) => t.hash)],
    ['lt range', { start_lt: '56269616000000', end_lt: '56269617000000', limit: 1000 }, () => sorted(db.shards[1]!.transactions.map((t) => ({ hash: t.hash.toString('base64'), lt: t.lt, account: t.account, mc: 0 })), 'desc').map((t) => t.hash)],
  ])('filter: %s', async (_, query, expected) => {
    const r = await db.callV3<Txs>('transactions', query as Record<string, string>);
    expect(r.status).toBe(200);
    expect(hashes(r.body)).toEqual(expected());
  });

  it('time filters order by now, then lt', async () => {
    const s2 = db.shards[1]!.block.genUtime;
    const r = await db.callV3<Txs>('transactions', { start_utime: Number(s2), end_utime: Number(s2), limit: 1000, sort: 'asc' });
    const want = db.all.flatMap((b) => b.transactions).filter((t) => BigInt(t.now) === s2);
    expect(r.body.transactions).toHaveLength(want.length);
    const keys = r.body.transactions.map((t) => [t.now, BigInt(t.lt)] as const);
    expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)));
  });

  it('mc_seqno: 404 when the masterchain block is not indexed', async () => {
    expect((await db.callV3<Txs>('transactions', { mc_seqno: MC_SEQNO, limit: 5 })).body.transactions).toHaveLength(5);
    const r = await db.callV3('transactions', { mc_seqno: 1 });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'masterchain block 1 not found' });
  });

  it.each([
    [{ account: 'nope' }, 'failed to decode: schema: error converting value for index 0 of "account"'],
    [{ account: [BUSY, 'x,y'] }, 'failed to decode: schema: error converting value for index 1 of "account"'],
    [{ hash: 'abc' }, 'failed to decode: schema: error converting value for index 0 of "hash"'],
    [{ lt: '-1' }, 'failed to decode: schema: error converting value for "lt"'],
    [{ limit: 5000 }, 'limit is not allowed: 5000 > 1000'],
    [{ sort: 'sideways' }, 'wrong value for sort parameter'],
  ])('422 for %j', async (query, error) => {
    const r = await db.callV3('transactions', query as Record<string, string>);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error });
  });
});

describe('GET /transactionsByMasterchainBlock', () => {
  it('lists the transactions of the block and its shards, lt {sort}', async () => {
    const r = await db.callV3<Txs>('transactionsByMasterchainBlock', { seqno: MC_SEQNO, limit: 1000 });
    expect(r.status).toBe(200);
    expect(hashes(r.body)).toEqual(sorted(allTxs, 'desc').map((t) => t.hash));
    const page2 = await db.callV3<Txs>('transactionsByMasterchainBlock', { seqno: MC_SEQNO, limit: 10, offset: 10, sort: 'asc' });
    expect(hashes(page2.body)).toEqual(sorted(allTxs, 'asc').slice(10, 20).map((t) => t.hash));
  });

  it('404 for a masterchain block not indexed (seqno missing means 0)', async () => {
    for (const q of [{ seqno: 7 }, {}]) {
      const r = await db.callV3('transactionsByMasterchainBlock', q);
      expect(r.status).toBe(404);
      expect(r.body.error).toMatch(/^masterchain block \d+ not found$/);
    }
  });
});

describe('GET /transactionsByMessage', () => {
  it('finds the sending and the receiving transaction of a message', async () => {
    const both = await db.callV3<Txs>('transactionsByMessage', { msg_hash: DELIVERED_MSG });
    expect(hashes(both.body)).toEqual([RECEIVER, SENDER]);
    expect(modelProblems(both.body, TransactionsResponse)).toEqual([]);
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { msg_hash: DELIVERED_MSG, sort: 'asc' })).body)).toEqual([SENDER, RECEIVER]);
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { msg_hash: DELIVERED_MSG, direction: 'in' })).body)).toEqual([RECEIVER]);
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { msg_hash: DELIVERED_MSG, direction: 'out' })).body)).toEqual([SENDER]);
  });

  it('matches the normalized hash of external messages, and hex input', async () => {
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { msg_hash: EXT_IN_NORM })).body)).toEqual([EXT_IN_TX]);
    const hex = Buffer.from(EXT_IN_MSG, 'base64').toString('hex');
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { msg_hash: `0x${hex}` })).body)).toEqual([EXT_IN_TX]);
  });

  it('by body hash and by opcode (receiving side only)', async () => {
    const msgs = db.all.flatMap((b) => b.messages);
    const jettonIn = msgs.filter((m) => m.opcode === 0x0f8a7ea5 && m.direction === 'in');
    const r = await db.callV3<Txs>('transactionsByMessage', { opcode: '0x0f8a7ea5', limit: 1000 });
    expect(new Set(hashes(r.body))).toEqual(new Set(jettonIn.map((m) => m.txHash.toString('base64'))));
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { opcode: '0f8a7ea5', limit: 1000 })).body)).toEqual(hashes(r.body));
    // nine decimal digits cannot be hex (≤ 8 digits), so they read as decimal
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { opcode: String(0x0f8a7ea5), limit: 1000 })).body)).toEqual(hashes(r.body));
    // eight digits read as hex first: 0x12345678, which no message has
    expect(hashes((await db.callV3<Txs>('transactionsByMessage', { opcode: '12345678' })).body)).toEqual([]);
    const m = msgs.find((x) => x.msgHash.toString('base64') === DELIVERED_MSG)!;
    const byBody = msgs.filter((x) => x.bodyHash.equals(m.bodyHash));
    const r2 = await db.callV3<Txs>('transactionsByMessage', { body_hash: m.bodyHash.toString('base64'), limit: 1000 });
    expect(new Set(hashes(r2.body))).toEqual(new Set(byBody.map((x) => x.txHash.toString('base64'))));
  });

  it('422 without a message filter or with a bad direction', async () => {
    const none = await db.callV3('transactionsByMessage', { direction: 'in' });
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ error: 'at least one of msg_hash, body_hash, opcode should be specified' });
    const bad = await db.callV3('transactionsByMessage', { msg_hash: DELIVERED_MSG, direction: 'both' });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ error: 'direction should be one of: in, out' });
    expect((await db.callV3('transactionsByMessage', { opcode: '0x100000000' })).status).toBe(422);
  });
});

describe('GET /adjacentTransactions', () => {
  it('parent (in), children (out) or both, lt asc', async () => {
    expect(hashes((await db.callV3<Txs>('adjacentTransactions', { hash: RECEIVER, direction: 'in' })).body)).toEqual([SENDER]);
    const children = await db.callV3<Txs>('adjacentTransactions', { hash: SENDER, direction: 'out' });
    expect(hashes(children.body)).toContain(RECEIVER);
    expect(modelProblems(children.body, TransactionsResponse)).toEqual([]);
    const lts = children.body.transactions.map((t) => BigInt(t.lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a < b ? -1 : 1)));
    const any = await db.callV3<Txs>('adjacentTransactions', { hash: RECEIVER, direction: 'sideways' });
    expect(hashes(any.body)).toContain(SENDER);
  });

  it('404 when nothing is adjacent, 422 without a hash', async () => {
    const none = await db.callV3('adjacentTransactions', { hash: T17, direction: 'out' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: 'adjacent transactions not found' });
    expect((await db.callV3('adjacentTransactions', {})).status).toBe(422);
  });
});
