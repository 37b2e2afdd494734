// /traces, /events, /actions and /balanceChanges over a real devnet indexed into the real database:
// the genesis' jetton transfers, comments, bounce, failed call and deploys, end to end from the chain
// through trace assembly and the classifier to v3 JSON.
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_JETTON_AMOUNTS, GENESIS_TEXTS } from '../../../devnet/genesis/genesis';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { modelProblems } from '../../../testing/v3';
import { rawUpper } from '../../../ton/address';
import { type ActionJson, ActionsResponse } from '../models/actions';
import { EventsResponse, type TraceJson, TracesResponse } from '../models/traces';
import type { TransactionJson } from '../models/transactions';

let chain: TestChain;
type Traces = { traces: TraceJson[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };
type Actions = { actions: ActionJson[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-traces', rounds: 2, index: true });
}, 240_000);
afterAll(() => chain?.close());

const acc = (name: string) => rawUpper(Address.parseRaw(chain.account(name).address));
const traces = async (q: Record<string, string | number | boolean | string[] | undefined>, headers?: Record<string, string>) => {
  const r = await chain.callV3<Traces>('traces', q, { headers });
  expect(r.status, r.text).toBe(200);
  expect(modelProblems(r.body, TracesResponse)).toEqual([]);
  return r.body.traces;
};
const actions = async (q: Record<string, string | number | boolean | string[] | undefined>, headers?: Record<string, string>) => {
  const r = await chain.callV3<Actions>('actions', q, { headers });
  expect(r.status, r.text).toBe(200);
  expect(modelProblems(r.body, ActionsResponse)).toEqual([]);
  return r.body.actions;
};
const errorOf = async (path: string, q: Record<string, string | number | string[]>) => {
  const r = await chain.callV3<{ error: string }>(path, q);
  return [r.status, r.body.error] as const;
};

/** The one jetton_transfer alice sent carol in the genesis. */
async function aliceToCarol(): Promise<ActionJson> {
  const found = (await actions({ account: acc('carol'), action_type: 'jetton_transfer', limit: 1000 })).filter((a) => a.details.sender === acc('alice'));
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('GET /traces', () => {
  it('answers a jetton transfer\'s trace whole: tree, lt order, counters and every transaction with its trace_id', async () => {
    const transfer = await aliceToCarol();
    const [trace, ...more] = await traces({ tx_hash: transfer.transactions[0]! });
    expect(more).toEqual([]);
    expect(trace!.trace_id).toBe(transfer.trace_id);
    expect(trace!.trace_info).toEqual({ trace_state: 'complete', messages: 4, transactions: 5, pending_messages: 0, classification_state: 'ok' });
    const txs = trace!.transactions!;
    const order = trace!.transactions_order!;
    expect(order.map((h) => txs[h]!.account)).toEqual([acc('alice'), acc('alice_jetton'), acc('carol_jetton'), acc('carol'), acc('alice')]);
    for (const t of Object.values(txs)) expect(t.trace_id).toBe(trace!.trace_id);
    expect(BigInt(trace!.start_lt)).toBe(BigInt(txs[order[0]!]!.lt));
    expect(BigInt(trace!.end_lt!)).toBe(BigInt(txs[order[4]!]!.lt));
    // The tree: the wallet's external, its jetton wallet, the receiver's jetton wallet, then the notification and the excess.
    const root = trace!.trace!;
    expect(root).toMatchObject({ tx_hash: order[0], in_msg_hash: trace!.external_hash });
    expect(root.children).toHaveLength(1);
    const receiverWallet = root.children![0]!.children![0]!;
    expect(receiverWallet.tx_hash).toBe(order[2]);
    expect(receiverWallet.children!.map((c) => c.tx_hash).sort()).toEqual([order[3], order[4]].sort());
    // Leaves that sent nothing have [] children.
    expect(receiverWallet.children!.find((c) => c.tx_hash === order[4])!.children).toEqual([]);
    expect(trace!.actions).toBeUndefined();
  });

  it('finds a trace by trace_id, by its external message hash and its normalized hash, and by account', async () => {
    const transfer = await aliceToCarol();
    const [byId] = await traces({ trace_id: transfer.trace_id! });
    expect(byId!.trace_id).toBe(transfer.trace_id);
    const [byExt] = await traces({ msg_hash: byId!.external_hash! });
    expect(byExt!.trace_id).toBe(transfer.trace_id);
    const ext = await chain.callV3<{ messages: { hash: string; hash_norm?: string }[] }>('messages', { msg_hash: byId!.external_hash! });
    const norm = ext.body.messages[0]!.hash_norm!;
    expect(norm).toBeDefined();
    expect((await traces({ msg_hash: norm }))[0]!.trace_id).toBe(transfer.trace_id);

    const carol = await traces({ account: acc('carol'), limit: 1000 });
    expect(carol.map((t) => t.trace_id)).toContain(transfer.trace_id);
    for (const t of carol) expect(Object.values(t.transactions!).some((x) => x.account === acc('carol'))).toBe(true);
    // end_lt desc by default, asc on request, and paging walks the same list.
    const ends = carol.map((t) => BigInt(t.end_lt!));
    expect(ends).toEqual([...ends].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const asc = await traces({ account: acc('carol'), limit: 1000, sort: 'asc' });
    expect(asc.map((t) => t.trace_id)).toEqual([...carol].reverse().map((t) => t.trace_id));
    const page2 = await traces({ account: acc('carol'), limit: 2, offset: 2 });
    expect(page2.map((t) => t.trace_id)).toEqual(carol.slice(2, 4).map((t) => t.trace_id));
  });

  it('filters by masterchain block, lt and time ranges', async () => {
    const all = await traces({ limit: 1000 });
    const total = await chain.db!.db.prisma.trace.count();
    expect(all).toHaveLength(total);
    const seqno = Number(all.at(-1)!.mc_seqno_end);
    const inBlock = await traces({ mc_seqno: seqno, limit: 1000 });
    expect(inBlock.length).toBeGreaterThan(0);
    expect(inBlock.map((t) => t.trace_id).sort()).toEqual(all.filter((t) => t.mc_seqno_end === String(seqno)).map((t) => t.trace_id).sort());
    expect(await errorOf('traces', { mc_seqno: 999_999 })).toEqual([404, 'masterchain block 999999 not found']);

    const mid = all[Math.floor(all.length / 2)]!;
    const upTo = await traces({ end_lt: mid.end_lt!, limit: 1000 });
    expect(upTo.map((t) => t.trace_id)).toEqual(all.filter((t) => BigInt(t.end_lt!) <= BigInt(mid.end_lt!)).map((t) => t.trace_id));
    const from = await traces({ start_lt: mid.end_lt!, limit: 1000, sort: 'asc' });
    expect(from.every((t) => BigInt(t.end_lt!) >= BigInt(mid.end_lt!))).toBe(true);
    const byTime = await traces({ start_utime: mid.end_utime!, limit: 1000 });
    expect(byTime.every((t) => t.end_utime! >= mid.end_utime!)).toBe(true);
    expect(byTime.length).toBeGreaterThan(0);
    expect(await traces({ start_utime: 2 ** 40 })).toEqual([]);
  });

  it('answers bad input with 422', async () => {
    const [status, error] = await errorOf('traces', { account: acc('alice'), trace_id: (await aliceToCarol()).trace_id! });
    expect([status, error]).toEqual([422, 'only one of account, trace_id, tx_hash, msg_hash should be specified']);
    expect((await errorOf('traces', { trace_id: 'not-a-hash' }))[0]).toBe(422);
    expect((await errorOf('traces', { account: 'nobody' }))[0]).toBe(422);
    expect(await errorOf('traces', { limit: 1001 })).toEqual([422, 'limit is not allowed: 1001 > 1000']);
    expect(await errorOf('traces', { sort: 'up' })).toEqual([422, 'wrong value for sort parameter']);
  });

  it('adds the actions with include_actions, and /events always does, under `events`', async () => {
    const transfer = await aliceToCarol();
    const [trace] = await traces({ trace_id: transfer.trace_id!, include_actions: true });
    const types = trace!.actions!.map((a) => a.type);
    expect(types).toContain('jetton_transfer');
    // Ordered by start_lt within the trace; no accounts outside /actions.
    const starts = trace!.actions!.map((a) => BigInt(a.start_lt));
    expect(starts).toEqual([...starts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const a of trace!.actions!) expect(a.accounts).toBeUndefined();

    const r = await chain.callV3<{ events: TraceJson[] }>('events', { trace_id: transfer.trace_id! });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['events', 'address_book', 'metadata']);
    expect(modelProblems(r.body, EventsResponse)).toEqual([]);
    expect(r.body.events[0]!.actions!.map((a) => a.action_id)).toEqual(trace!.actions!.map((a) => a.action_id));
  });
});

describe('GET /actions', () => {
  it('classifies the devnet\'s jetton transfer, with the comment, amounts and wallets', async () => {
    const a = await aliceToCarol();
    expect(a.success).toBe(true);
    expect(a.details).toMatchObject({
      asset: acc('jetton_minter'),
      sender: acc('alice'),
      receiver: acc('carol'),
      sender_jetton_wallet: acc('alice_jetton'),
      receiver_jetton_wallet: acc('carol_jetton'),
      amount: GENESIS_JETTON_AMOUNTS.aliceToCarol.toString(),
      comment: GENESIS_TEXTS.jettonToCarol,
      is_encrypted_comment: false,
      query_id: '7',
      response_destination: acc('alice'),
    });
    expect(a.finality).toBe('finalized');
  });

  it('classifies TON transfers with plain and encrypted comments, a bounced transfer, a failed call and deploys', async () => {
    const bob = await actions({ account: acc('bob'), action_type: 'ton_transfer', limit: 1000 });
    const plain = bob.find((a) => a.details.comment === GENESIS_TEXTS.unicode)!;
    expect(plain).toMatchObject({ success: true, details: { source: acc('alice'), destination: acc('bob'), value: '1500000000', encrypted: false } });
    const encrypted = bob.find((a) => a.details.encrypted === true)!;
    expect(encrypted.details).toMatchObject({ source: acc('alice'), destination: acc('bob'), value: '200000000' });

    // carol's bounceable transfer to an account that does not exist: failed, and the bounce comes back.
    const carol = await actions({ account: acc('carol'), limit: 1000 });
    const bounced = carol.find((a) => a.type === 'ton_transfer' && a.details.comment === 'are you there?')!;
    expect(bounced.success).toBe(false);
    const back = carol.find((a) => a.trace_id === bounced.trace_id && a.details.destination === acc('carol') && a.type === 'call_contract')!;
    expect(back.details.opcode).toBe('0xffffffff');

    // An opcode the minter does not know: the call fails.
    const failed = (await actions({ account: acc('jetton_minter'), action_type: 'call_contract', limit: 1000 })).find((a) => a.details.opcode === '0x0badc0de' && a.details.source === acc('admin'))!;
    expect(failed).toMatchObject({ success: false, details: { destination: acc('jetton_minter'), value: '100000000' } });

    const deploys = await actions({ action_type: 'contract_deploy', limit: 1000 });
    expect(deploys.map((a) => a.details.destination)).toEqual(expect.arrayContaining([acc('alice'), acc('jetton_minter'), acc('carol_jetton')]));
    const mints = await actions({ action_type: 'jetton_mint', limit: 1000 });
    expect(mints.map((a) => [a.details.receiver, a.details.amount])).toEqual(
      expect.arrayContaining([
        [acc('alice'), GENESIS_JETTON_AMOUNTS.mintAlice.toString()],
        [acc('bob'), GENESIS_JETTON_AMOUNTS.mintBob.toString()],
      ]),
    );
    // (Traffic burns too.)
    const burns = await actions({ action_type: 'jetton_burn', limit: 1000 });
    expect(burns.map((a) => [a.details.owner, a.details.amount])).toEqual(expect.arrayContaining([[acc('bob'), GENESIS_JETTON_AMOUNTS.bobBurn.toString()]]));
  });

  it('filters by account, transaction, message, action and trace ids, and orders by trace_end_lt', async () => {
    const transfer = await aliceToCarol();
    const carol = await actions({ account: acc('carol'), limit: 1000, include_accounts: true });
    for (const a of carol) expect(a.accounts).toContain(acc('carol'));
    const keys = carol.map((a) => BigInt(a.trace_end_lt));
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));

    const byTx = await actions({ tx_hash: transfer.transactions[0]! });
    expect(byTx.map((a) => a.action_id)).toContain(transfer.action_id);
    for (const a of byTx) expect(a.transactions).toContain(transfer.transactions[0]);
    const [trace] = await traces({ trace_id: transfer.trace_id! });
    expect((await actions({ msg_hash: trace!.external_hash! })).map((a) => a.action_id)).toContain(transfer.action_id);
    expect((await actions({ action_id: transfer.action_id })).map((a) => a.action_id)).toEqual([transfer.action_id]);
    // trace_id discards the other filters (here a type and an lt range that would exclude it).
    const ofTrace = await actions({ trace_id: transfer.trace_id!, action_type: 'jetton_burn', end_lt: '1', limit: 1000 });
    expect(ofTrace.length).toBeGreaterThan(0);
    expect(ofTrace.every((a) => a.trace_id === transfer.trace_id)).toBe(true);
    const seqno = transfer.trace_mc_seqno_end;
    const inBlock = await actions({ mc_seqno: seqno, limit: 1000 });
    expect(inBlock.every((a) => a.trace_mc_seqno_end === seqno)).toBe(true);
    expect(inBlock.map((a) => a.action_id)).toContain(transfer.action_id);
    expect(await errorOf('actions', { mc_seqno: 999_999 })).toEqual([404, 'masterchain block 999999 not found']);

    // lt and time ranges are on the trace's end.
    const all = await actions({ limit: 1000 });
    const fromLt = await actions({ start_lt: transfer.trace_end_lt, limit: 1000 });
    expect(fromLt.map((a) => a.action_id).sort()).toEqual(all.filter((a) => BigInt(a.trace_end_lt) >= BigInt(transfer.trace_end_lt)).map((a) => a.action_id).sort());
    const toLt = await actions({ end_lt: transfer.trace_end_lt, limit: 1000 });
    expect(toLt.map((a) => a.action_id).sort()).toEqual(all.filter((a) => BigInt(a.trace_end_lt) <= BigInt(transfer.trace_end_lt)).map((a) => a.action_id).sort());
    const byTime = await actions({ end_utime: transfer.trace_end_utime, limit: 1000, sort: 'asc' });
    expect(byTime.every((a) => a.trace_end_utime <= transfer.trace_end_utime)).toBe(true);
    expect(byTime.map((a) => a.action_id)).toContain(transfer.action_id);
  });

  it('filters by type, excludes types, honours supported_action_types and X-Actions-Version, and checks type names', async () => {
    const all = await actions({ limit: 1000 });
    const without = await actions({ exclude_action_type: ['ton_transfer', 'call_contract'], limit: 1000 });
    expect(without.length).toBe(all.filter((a) => a.type !== 'ton_transfer' && a.type !== 'call_contract').length);
    expect(without.some((a) => a.type === 'ton_transfer')).toBe(false);
    // Every devnet type is in v2; v1, which every client gets, lacks the vesting and multisig ones (the
    // genesis' vesting send and whitelist, its multisig orders): a v1 client gets everything else, and the
    // messages those actions hold as plain TON transfers and contract calls instead.
    const v2Only = (type: string) => type.startsWith('vesting_') || type.startsWith('multisig_');
    const v1 = await actions({ supported_action_types: 'v1', limit: 1000 });
    expect(v1.some((a) => v2Only(a.type))).toBe(false);
    const v1Ids = new Set(v1.map((a) => a.action_id));
    for (const a of all) if (!v2Only(a.type)) expect(v1Ids.has(a.action_id), a.type).toBe(true);
    expect(all.some((a) => a.type === 'vesting_send_message')).toBe(true);
    expect((await actions({ limit: 1000 }, { 'X-Actions-Version': 'v2' })).length).toBe(all.length);
    expect(await errorOf('actions', { action_type: 'ton transfer' })).toEqual([422, 'action_type contains invalid characters']);
    expect(await errorOf('actions', { exclude_action_type: 'x;y' })).toEqual([422, 'exclude_action_type contains invalid characters']);
  });

  it('fills transactions_full with include_transactions', async () => {
    const transfer = await aliceToCarol();
    const [a] = await actions({ action_id: transfer.action_id, include_transactions: true });
    expect(a!.transactions_full!.map((t: TransactionJson) => t.hash).sort()).toEqual([...a!.transactions].sort());
    for (const t of a!.transactions_full!) expect(t.trace_id).toBe(transfer.trace_id);
  });
});

describe('GET /balanceChanges', () => {
  it('sums a jetton transfer trace\'s TON moves and fees per account, and the jetton amounts per owner', async () => {
    const transfer = await aliceToCarol();
    const [trace] = await traces({ trace_id: transfer.trace_id! });
    const r = await chain.callV3<{ changes: Record<string, number>; fees: Record<string, number>; jettons: Record<string, Record<string, string>> }>('balanceChanges', {
      trace_id: transfer.trace_id!,
    });
    expect(r.status, r.text).toBe(200);
    const want = new Map<string, { change: bigint; fees: bigint }>();
    for (const t of Object.values(trace!.transactions!)) {
      const w = want.get(t.account) ?? { change: 0n, fees: 0n };
      const received = t.in_msg?.source ? BigInt(t.in_msg.value ?? 0) : 0n;
      const sent = t.out_msgs.filter((m) => m.destination).reduce((s, m) => s + BigInt(m.value ?? 0), 0n);
      w.change += received - sent - BigInt(t.total_fees);
      w.fees += BigInt(t.total_fees);
      want.set(t.account, w);
    }
    expect(r.body.fees).toEqual(Object.fromEntries([...want].map(([k, v]) => [k, Number(v.fees)])));
    expect(r.body.changes).toEqual(Object.fromEntries([...want].map(([k, v]) => [k, Number(v.change)])));
    const amount = GENESIS_JETTON_AMOUNTS.aliceToCarol;
    expect(r.body.jettons).toEqual({ [acc('alice')]: { [acc('jetton_minter')]: (-amount).toString() }, [acc('carol')]: { [acc('jetton_minter')]: amount.toString() } });

    // By action_id alone: the same jetton move, the TON of that action's transactions only.
    const one = await chain.callV3<{ changes: Record<string, number>; jettons: unknown }>('balanceChanges', { action_id: transfer.action_id });
    expect(one.status).toBe(200);
    expect(one.body.jettons).toEqual(r.body.jettons);
    expect(Object.keys(one.body.changes).sort()).toEqual([...new Set(transfer.transactions.map((h) => trace!.transactions![h]!.account))].sort());
  });

  it('answers missing, unknown and malformed ids with 400, 404 and 422, and an action of another trace with nulls', async () => {
    const transfer = await aliceToCarol();
    expect(await errorOf('balanceChanges', {})).toEqual([400, 'trace_id or action_id is required']);
    const unknown = Buffer.alloc(32, 7).toString('base64');
    expect(await errorOf('balanceChanges', { action_id: unknown })).toEqual([404, 'action_id not found']);
    expect(await errorOf('balanceChanges', { trace_id: unknown })).toEqual([404, 'trace not found']);
    expect((await errorOf('balanceChanges', { trace_id: 'abc' }))[0]).toBe(422);
    const other = (await traces({ limit: 5 })).find((t) => t.trace_id !== transfer.trace_id)!;
    const r = await chain.callV3('balanceChanges', { trace_id: other.trace_id!, action_id: transfer.action_id });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ changes: null, fees: null, jettons: null });
  });
});

describe('trace_id on transactions', () => {
  it('every transaction /transactions answers carries its trace_id and the trace\'s external hash', async () => {
    const r = await chain.callV3<{ transactions: TransactionJson[] }>('transactions', { limit: 1000 });
    expect(r.body.transactions.length).toBeGreaterThan(50);
    for (const t of r.body.transactions) expect(t.trace_id).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const transfer = await aliceToCarol();
    const [trace] = await traces({ trace_id: transfer.trace_id! });
    const mine = r.body.transactions.filter((t) => t.trace_id === transfer.trace_id);
    expect(mine).toHaveLength(5);
    for (const t of mine) expect(t.trace_external_hash).toBe(trace!.external_hash);
  });
});
