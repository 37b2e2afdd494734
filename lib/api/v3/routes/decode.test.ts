// GET and POST /decode: opcodes and bodies in every accepted spelling, every error, and hostile bodies
// (oversized, too deep, DAGs with exponentially many paths, garbage) answered quickly in the documented shape.
import { Address, beginCell, Cell } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { bocBase64 } from '../../../actions/cells';
import { LIMITS } from '../../../limits';
import { testApi } from '../../../testing/api';
import { textCommentBody } from '../../../devnet/contracts/common';
import { jettonTransferBody } from '../../../devnet/contracts/jetton';
import { nftTransferBody } from '../../../devnet/contracts/nft';
import { DecodeResponse } from '../models/messages';
import { modelProblems } from '../../../testing/v3';

// /decode reads neither the chain nor the index.
const api = testApi({});
afterAll(() => api.close());

type Decoded = { opcodes: string[]; bodies: Record<string, unknown>[] };
const ALICE = Address.parse(`0:${'a1'.repeat(32)}`);
const RAW_ALICE = `0:${'A1'.repeat(32)}`;
const transfer = jettonTransferBody({ amount: 42n, destination: ALICE, responseDestination: null, forwardTonAmount: 1n, forwardPayload: textCommentBody('hi 👋'), queryId: 5n });
const b64 = (c: Cell) => bocBase64(c, false);

/** Both methods, same answer: GET with repeated keys, POST with a JSON body. */
async function both(opcodes: string[], bodies: string[]) {
  const get = await api.callV3<Decoded>('decode', { opcodes, bodies });
  const post = await api.postV3<Decoded>('decode', { opcodes, bodies });
  expect(post.status).toBe(get.status);
  expect(post.body).toEqual(get.body);
  return get;
}

describe('opcodes', () => {
  it('every spelling names its constructor; an opcode without a schema is "unknown"', async () => {
    const r = await both(['0x0f8a7ea5', '0F8A7EA5', '7362d09c', '0xd53276db', '-718113061', '3576854235', '0', '0x5fcc3d14', '0x4eb1f0f9', '0xdeadbeef'], []);
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, DecodeResponse)).toEqual([]);
    expect(r.body).toEqual({
      opcodes: ['jetton_transfer', 'jetton_transfer', 'jetton_notify', 'excess', 'excess', 'excess', 'text_comment', 'nft_transfer', 'change_dns_record', 'unknown'],
      bodies: [],
    });
  });

  it('an opcode that is no 32-bit number is a 422 naming its index', async () => {
    for (const [bad, shown] of [['xyz', 'xyz'], ['0x1ffffffff', '0x1ffffffff'], ['-2147483649', '-2147483649'], ['1'.repeat(200), `${'1'.repeat(80)}…`]] as const) {
      const r = await both(['0x0', bad], []);
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ error: `invalid opcode format at index 1: ${shown}` });
    }
  });
});

describe('bodies', () => {
  it('base64 and hex BoCs decode positionally, nested payloads included', async () => {
    const nft = nftTransferBody({ newOwner: ALICE, responseDestination: ALICE, forwardAmount: 0n });
    const r = await both([], [b64(transfer), transfer.toBoc().toString('hex'), bocBase64(nft), b64(Cell.EMPTY)]);
    expect(r.status).toBe(200);
    const jt = {
      '@type': 'jetton_transfer',
      query_id: '5',
      amount: '42',
      destination: RAW_ALICE,
      response_destination: null,
      custom_payload: null,
      forward_ton_amount: '1',
      forward_payload: { '@type': 'text_comment', text: 'hi 👋' },
    };
    expect(r.body.bodies).toEqual([jt, jt, expect.objectContaining({ '@type': 'nft_transfer', new_owner: RAW_ALICE }), { '@type': 'empty_cell' }]);
    // A comment keeps the decoder's own shape here (no back-compatible rewrite).
    const c = await both([], [b64(textCommentBody('plain'))]);
    expect(c.body.bodies).toEqual([{ '@type': 'text_comment', text: 'plain' }]);
  });

  it('a GET body whose + was not percent-encoded (so it arrives as a space) still decodes', async () => {
    let withPlus = transfer;
    for (let q = 6n; !b64(withPlus).includes('+'); q++) withPlus = jettonTransferBody({ amount: 42n, destination: ALICE, responseDestination: null, queryId: q });
    const r = await api.callV3<Decoded>('decode', `bodies=${b64(withPlus).replace(/=/g, '%3D')}`);
    expect(r.status).toBe(200);
    expect(r.body.bodies[0]).toMatchObject({ '@type': 'jetton_transfer', amount: '42' });
  });

  it('what is not a known body answers {"error"} in its place, the others still decode', async () => {
    const unknown = beginCell().storeUint(0xdeadbeef, 32).endCell();
    const short = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 16).endCell();
    const r = await both([], [b64(unknown), 'hello', 'te6garbage', 'abc', b64(short), '', b64(transfer)]);
    expect(r.status).toBe(200);
    const errors = r.body.bodies.map((b) => b.error);
    expect(errors[0]).toBe('unknown opcode 0xdeadbeef');
    expect(errors[1]).toBe('body is neither a base64 BoC (te6…) nor a hex BoC');
    expect(errors[2]).toMatch(/^body is not a bag of cells|^body is not base64/);
    expect(errors[3]).toBe('body is neither a base64 BoC (te6…) nor a hex BoC');
    expect(errors[4]).toMatch(/^invalid jetton_transfer body/);
    expect(errors[5]).toBe('body is neither a base64 BoC (te6…) nor a hex BoC');
    expect(r.body.bodies[6]).toMatchObject({ '@type': 'jetton_transfer' });
  });
});

describe('limits and hostile bodies', () => {
  it('more than 1000 opcodes or bodies is a 422 with toncenter\'s message; exactly 1000 is fine', async () => {
    const ops = Array(1001).fill('0');
    expect((await api.postV3('decode', { opcodes: ops })).body).toEqual({ error: 'opcodes list exceeds maximum length of 1000' });
    expect((await api.postV3('decode', { bodies: Array(1001).fill('00') })).body).toEqual({ error: 'bodies list exceeds maximum length of 1000' });
    const get = await api.callV3('decode', { opcodes: ops });
    expect(get.status).toBe(422);
    expect(get.body).toEqual({ error: 'opcodes list exceeds maximum length of 1000' });
    const thousand = await api.postV3<Decoded>('decode', { opcodes: ops.slice(1), bodies: Array(1000).fill(b64(transfer)) });
    expect(thousand.status).toBe(200);
    expect(thousand.body.bodies).toHaveLength(1000);
  });

  it('a POST that is not a JSON object of string lists is a 422', async () => {
    expect((await api.postV3('decode', '{"opcodes": [1, 2]}')).status).toBe(422);
    expect((await api.postV3('decode', '[]')).status).toBe(422);
    expect((await api.postV3('decode', 'opcodes=0', { 'content-type': 'text/plain' })).status).toBe(422);
    const empty = await api.postV3('decode', {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ opcodes: [], bodies: [] });
  });

  it('oversized and too deep BoCs are refused by the client BoC limits, per body', async () => {
    let deep = beginCell().endCell();
    for (let i = 0; i <= LIMITS.cellDepth; i++) deep = beginCell().storeUint(0, 32).storeRef(deep).endCell();
    const big = Array.from({ length: 40 }, (_, i) => beginCell().storeUint(i, 32).storeBuffer(Buffer.alloc(123, i)).endCell());
    let wide = beginCell().endCell();
    for (let i = 0; i < big.length; i += 4) wide = beginCell().storeRef(wide).storeRef(big[i]!).storeRef(big[i + 1]!).storeRef(big[i + 2]!).endCell();
    const hugeHex = 'b5ee9c72' + 'ab'.repeat(LIMITS.bocBytes);
    const r = await api.postV3<Decoded>('decode', { bodies: [b64(deep), hugeHex] });
    expect(r.status).toBe(200);
    expect(r.body.bodies[0]!.error).toMatch(/cells deep; at most 512/);
    expect(r.body.bodies[1]!.error).toMatch(/bytes; at most 65536/);
  });

  it('the bodies of one request are decoded up to 256 KiB of BoCs together; the rest answer an error unparsed', async () => {
    // ~44 KiB each: six fit, the seventh does not.
    const big = Array.from({ length: 300 }, (_, i) => beginCell().storeUint(i, 32).storeBuffer(Buffer.alloc(120, i % 251)).endCell());
    let tree = beginCell().endCell();
    for (let i = 0; i < big.length; i += 3) tree = beginCell().storeRef(tree).storeRef(big[i]!).storeRef(big[i + 1]!).storeRef(big[i + 2]!).endCell();
    const one = b64(tree);
    expect(one.length).toBeGreaterThan(40_000);
    const r = await api.postV3<Decoded>('decode', { bodies: [...Array(8).fill(one), b64(transfer)] });
    expect(r.status).toBe(200);
    const within = Math.floor(LIMITS.decodeBytes / Math.floor((one.length * 3) / 4));
    expect(within).toBeGreaterThan(0);
    expect(within).toBeLessThan(8);
    r.body.bodies.slice(0, within).forEach((b) => expect(b.error).toMatch(/^unknown body/)); // parsed: a root of refs only
    r.body.bodies.slice(within).forEach((b) => expect(b.error).toBe('the bodies of one request may hold 262144 bytes together; decode the rest in another request'));
  });

  it('a DAG with 2^300 paths inside a payload decodes in bounded time', async () => {
    let dag = beginCell().storeUint(0xdeadbeef, 32).endCell();
    for (let i = 0; i < 300; i++) dag = beginCell().storeUint(i, 16).storeRef(dag).storeRef(dag).endCell();
    const body = jettonTransferBody({ amount: 1n, destination: ALICE, responseDestination: null, forwardPayload: dag });
    const started = performance.now();
    const r = await api.postV3<Decoded>('decode', { bodies: Array(10).fill(b64(body)) });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(r.status).toBe(200);
    // The payload is no known body: it comes back as its own BoC, the same cells.
    const payload = r.body.bodies[0]!.forward_payload as string;
    expect(Cell.fromBase64(payload).hash().equals(dag.hash())).toBe(true);
  });
});
