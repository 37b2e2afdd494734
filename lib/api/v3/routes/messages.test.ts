// GET /messages over the real database holding the mainnet fixture blocks.
import { Cell } from '@ton/core';
import { jettonWalletCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../chain/records';
import { type MessageJson, MessagesResponse } from '../models/messages';
import { fixtureDatabase, insertAccountState, modelProblems, type FixtureDatabase } from '../../../testing/v3';

let db: FixtureDatabase;
type Msgs = { messages: MessageJson[]; address_book: Record<string, unknown>; metadata: Record<string, unknown> };

const RECEIVER = 'DeN768mQjiBCxkqhaskRv3r/vQVUXdFQtf2uz8JELhI=';
const SENDER = 'EA/juhvZ0Z6uggFSAbbt+vp3/v2VxwJg/1pZA990PL4=';
const DELIVERED_MSG = 'vB4U61xshgBYpXyioYC2hamrfxn3YDXEoeNzxLExHo0=';
const EXT_IN_MSG = '9+lmx8EMf+/bYyf1FhHAel0aalhK+aUvvgxbXUYTNQo=';
const EXT_IN_NORM = 'mI6IVR5gsQMNxOU2k1zSJ/IUSfQVb98XGeSJBigbKbE=';
const JETTON_HOLDER = '0:89F356BD10B3C8609187C5ABCD7BB1D5840C7F8A88E73DEBFF8E64FFD8F12010';

/** One entry per message hash, as the route groups them, with its effective lt. */
interface Expected {
  hash: string;
  rows: MessageRecord[];
  lt: bigint;
}
let unique: Expected[];

beforeAll(async () => {
  db = await fixtureDatabase();
  await insertAccountState(db.db.prisma, { address: JETTON_HOLDER, balance: 10n ** 7n, code: Cell.fromBase64(jettonWalletCode.codeBoc), data: Cell.EMPTY });
  const byHash = new Map<string, MessageRecord[]>();
  for (const m of db.all.flatMap((b) => b.messages)) {
    const k = m.msgHash.toString('base64');
    byHash.set(k, [...(byHash.get(k) ?? []), m]);
  }
  unique = [...byHash].map(([hash, rows]) => ({ hash, rows, lt: rows[0]!.createdLt ?? rows.reduce((lt, r) => (r.txLt < lt ? r.txLt : lt), rows[0]!.txLt) }));
});
afterAll(() => db.drop());

const order = (xs: Expected[], dir: 'asc' | 'desc') =>
  [...xs].sort((a, b) => {
    const c = a.lt === b.lt ? Buffer.compare(Buffer.from(a.hash, 'base64'), Buffer.from(b.hash, 'base64')) : a.lt < b.lt ? -1 : 1;
    return dir === 'asc' ? c : -c;
  });
const hashes = (r: Msgs) => r.messages.map((m) => m.hash);

describe('GET /messages', () => {
  it('one entry per message, effective lt desc, in toncenter key order', async () => {
    const r = await db.callV3<Msgs>('messages');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['messages', 'address_book', 'metadata']);
    expect(modelProblems(r.body, MessagesResponse)).toEqual([]);
    expect(hashes(r.body)).toEqual(order(unique, 'desc').slice(0, 100).map((m) => m.hash));
    const all = await db.callV3<Msgs>('messages', { limit: 1000, sort: 'asc' });
    expect(hashes(all.body)).toEqual(order(unique, 'asc').map((m) => m.hash));
    expect(modelProblems(all.body, MessagesResponse)).toEqual([]);
  });

  it('pages by limit and offset without gaps or repeats, in both orders and within a filter', async () => {
    // A page is read off the filter's index (queries/messages.ts): the pages put together must be the whole list.
    const source = order(unique, 'desc').find((m) => m.rows[0]!.source)!.rows[0]!.source!;
    for (const [params, want] of [
      [{}, unique],
      [{ source }, unique.filter((m) => m.rows[0]!.source === source)],
      [{ direction: 'in' }, unique.filter((m) => m.rows.some((r) => r.direction === 'in'))],
    ] as const) {
      for (const sort of ['asc', 'desc'] as const) {
        const got: string[] = [];
        for (let offset = 0; offset < want.length + 7; offset += 7) got.push(...hashes((await db.callV3<Msgs>('messages', { ...params, sort, limit: 7, offset })).body));
        expect(got, `${JSON.stringify(params)} ${sort}`).toEqual(order([...want], sort).map((m) => m.hash));
      }
    }
  });

  it('a delivered message names its sending and its receiving transaction', async () => {
    const r = await db.callV3<Msgs>('messages', { msg_hash: DELIVERED_MSG });
    expect(r.body.messages).toHaveLength(1);
    const m = r.body.messages[0]!;
    expect(m).toMatchObject({ hash: DELIVERED_MSG, in_msg_tx_hash: RECEIVER, out_msg_tx_hash: SENDER });
    expect(Object.keys(m).slice(-4)).toEqual(['in_msg_tx_hash', 'out_msg_tx_hash', 'message_content', 'init_state']);
    expect(Object.keys(r.body.address_book).sort()).toEqual([...new Set([m.source, m.destination])].sort());
    // direction narrows to one side of it
    const inOnly = (await db.callV3<Msgs>('messages', { msg_hash: DELIVERED_MSG, direction: 'in' })).body.messages[0]!;
    expect(inOnly.in_msg_tx_hash).toBe(RECEIVER);
    expect('out_msg_tx_hash' in inOnly).toBe(false);
  });

  it('legacy `hash` is used only without msg_hash; invalid values are ignored', async () => {
    expect(hashes((await db.callV3<Msgs>('messages', { hash: DELIVERED_MSG })).body)).toEqual([DELIVERED_MSG]);
    expect(hashes((await db.callV3<Msgs>('messages', { hash: DELIVERED_MSG, msg_hash: EXT_IN_MSG })).body)).toEqual([EXT_IN_MSG]);
    expect((await db.callV3<Msgs>('messages', { hash: 'garbage' })).body.messages).toHaveLength(100);
  });

  it('external-in messages: by normalized hash, source=null, only/exclude externals', async () => {
    const norm = (await db.callV3<Msgs>('messages', { msg_hash: EXT_IN_NORM })).body.messages;
    expect(norm.map((m) => [m.hash, m.hash_norm, m.source])).toEqual([[EXT_IN_MSG, EXT_IN_NORM, null]]);
    const externals = unique.filter((u) => u.rows[0]!.source === null).map((u) => u.hash).sort();
    expect(hashes((await db.callV3<Msgs>('messages', { source: 'null', limit: 1000 })).body).sort()).toEqual(externals);
    expect(hashes((await db.callV3<Msgs>('messages', { only_externals: true, limit: 1000 })).body).sort()).toEqual(externals);
    const internal = await db.callV3<Msgs>('messages', { exclude_externals: 'T', limit: 1000 });
    expect(internal.body.messages).toHaveLength(unique.length - externals.length);
    expect((await db.callV3<Msgs>('messages', { destination: 'null' })).body.messages).toEqual([]);
  });

  it.each([
    ['source', (u: Expected) => u.rows[0]!.source === JETTON_HOLDER, { source: JETTON_HOLDER }],
    ['destination', (u: Expected) => u.rows[0]!.destination === JETTON_HOLDER, { destination: JETTON_HOLDER }],
    ['opcode', (u: Expected) => u.rows[0]!.opcode === 0x7362d09c, { opcode: '0x7362d09c' }],
    ['body hash', (u: Expected) => u.hash === DELIVERED_MSG || u.rows[0]!.bodyHash.equals(unique.find((x) => x.hash === DELIVERED_MSG)!.rows[0]!.bodyHash), {}],
    ['lt range', (u: Expected) => u.rows[0]!.createdLt !== null && u.rows[0]!.createdLt! >= 76734069000010n && u.rows[0]!.createdLt! <= 76734069000020n, { start_lt: '76734069000010', end_lt: '76734069000020' }],
    ['direction out', (u: Expected) => u.rows.some((r) => r.direction === 'out'), { direction: 'out' }],
  ])('filter: %s', async (name, keep, query) => {
    let q: Record<string, string> = { ...query, limit: '1000' };
    if (name === 'body hash') q = { body_hash: unique.find((x) => x.hash === DELIVERED_MSG)!.rows[0]!.bodyHash.toString('hex'), limit: '1000' };
    const r = await db.callV3<Msgs>('messages', q);
    expect(r.status).toBe(200);
    const want = unique.filter(keep).map((u) => u.hash).sort();
    expect(want.length).toBeGreaterThan(0);
    expect(hashes(r.body).sort()).toEqual(want);
  });

  it('time filters select on created_at and order by it', async () => {
    const at = db.shards[1]!.messages.find((m) => m.createdAt !== null)!.createdAt!;
    const r = await db.callV3<Msgs>('messages', { start_utime: String(at), end_utime: String(at), limit: 1000, sort: 'asc' });
    const want = unique.filter((u) => u.rows[0]!.createdAt === at);
    expect(hashes(r.body).sort()).toEqual(want.map((u) => u.hash).sort());
    expect(r.body.messages.every((m) => m.created_at === String(at))).toBe(true);
  });

  it('metadata lists token contracts among sources and destinations; X-No-Metadata empties it', async () => {
    const r = await db.callV3<Msgs>('messages', { destination: JETTON_HOLDER });
    expect(r.body.metadata).toEqual({ [JETTON_HOLDER]: { is_indexed: false, token_info: [] } });
    const off = await db.callV3<Msgs>('messages', { destination: JETTON_HOLDER }, { headers: { 'X-No-Metadata': '1' } });
    expect(off.body.metadata).toEqual({});
    expect(Object.keys(off.body.address_book).length).toBeGreaterThan(0);
  });

  it('422 for a bad direction, address or limit', async () => {
    expect((await db.callV3('messages', { direction: 'sideways' })).body).toEqual({ error: 'direction should be one of: in, out' });
    expect((await db.callV3('messages', { source: 'nobody' })).body).toEqual({ error: 'failed to decode: schema: error converting value for "source"' });
    expect((await db.callV3('messages', { limit: 1001 })).status).toBe(422);
  });
});
