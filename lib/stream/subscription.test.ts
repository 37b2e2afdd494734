import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { supportedActionTypes } from '../api/v3/action-types';
import { friendly, rawUpper } from '../ton/address';
import { normalizeHash, parseSubscription, parseUnsubscribe, subscriptionFromQuery } from './subscription';

const A = new Address(0, Buffer.alloc(32, 0xab));
const B = new Address(-1, Buffer.alloc(32, 0x01));
const HASH = Buffer.alloc(32, 0x5c);
const opts = { maxAddresses: 3 };
const error = (input: unknown, o = opts) => {
  const r = parseSubscription(input, o);
  return r.ok ? null : r.error;
};

describe('parseSubscription', () => {
  it('takes any address form to the raw form, once each, with toncenter\'s defaults', () => {
    const r = parseSubscription({ types: ['transactions', 'actions'], addresses: [friendly(A, { bounceable: true }), rawUpper(A).toLowerCase(), friendly(B, { bounceable: false, urlSafe: true })] }, opts);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([...r.value.addresses]).toEqual([rawUpper(A), rawUpper(B)]);
    expect(r.value.minFinality).toBe('finalized');
    expect(r.value.includeAddressBook).toBe(false);
    expect(r.value.actionTypes).toBeNull();
    expect([...r.value.supported].sort()).toEqual(supportedActionTypes(undefined, null));
  });

  it('takes trace hashes in base64, url-safe base64 or hex, as standard base64', () => {
    for (const form of [HASH.toString('base64'), HASH.toString('base64url'), HASH.toString('hex')]) {
      const r = parseSubscription({ types: ['trace'], trace_external_hash_norms: [form], min_finality: 'pending' }, opts);
      expect(r.ok && [...r.value.traces]).toEqual([HASH.toString('base64')]);
    }
    expect(normalizeHash('AAAA')).toBeNull();
  });

  it('expands supported_action_types, and takes X-Actions-Version when the body names none', () => {
    const r = parseSubscription({ types: ['actions'], addresses: [rawUpper(A)], supported_action_types: ['v1'], action_types: ['jetton_transfer'] }, opts);
    expect(r.ok && [...r.value.supported].sort()).toEqual(supportedActionTypes(['v1'], null));
    expect(r.ok && [...r.value.actionTypes!]).toEqual(['jetton_transfer']);
    const h = parseSubscription({ types: ['actions'], addresses: [rawUpper(A)] }, { ...opts, actionsVersion: 'v2' });
    expect(h.ok && [...h.value.supported].sort()).toEqual(supportedActionTypes(['v2'], null));
  });

  it('refuses what cannot be a subscription, each time saying what is wrong', () => {
    const addr = [rawUpper(A)];
    expect(error({})).toBe('types are required for subscription');
    expect(error({ types: [] })).toBe('types are required for subscription');
    expect(error({ types: 'transactions' })).toBe('types: expected a list');
    expect(error({ types: ['transfers'], addresses: addr })).toMatch(/^invalid event type: "transfers" \(one of transactions, actions, trace/);
    expect(error({ types: ['transactions'] })).toBe('addresses are required for subscription');
    expect(error({ types: ['transactions'], addresses: ['EQ-not-an-address'] })).toBe('invalid address: "EQ-not-an-address"');
    expect(error({ types: ['transactions'], addresses: ['7:' + 'AB'.repeat(32)] })).toMatch(/workchain 7, which does not exist/);
    expect(error({ types: ['transactions'], addresses: [42] })).toBe('addresses.0: expected string');
    expect(error({ types: ['trace'] })).toBe('trace_external_hash_norms are required for trace subscription');
    expect(error({ types: ['transactions'], addresses: addr, trace_external_hash_norms: [HASH.toString('hex')] })).toBe('trace_external_hash_norms requires type "trace"');
    expect(error({ types: ['trace'], trace_external_hash_norms: ['xyz'] })).toMatch(/^invalid trace_external_hash_norm: "xyz"/);
    expect(error({ types: ['trace'], trace_external_hash_norms: [' '] })).toBe('trace_external_hash_norms contains an empty value');
    expect(error({ types: ['transactions'], addresses: addr, min_finality: 'final' })).toBe('invalid min_finality: "final" (one of pending, confirmed, finalized)');
    expect(error({ types: ['transactions'], addresses: addr, include_metadata: 'yes' })).toBe('include_metadata: expected boolean');
    expect(error({ types: ['actions'], addresses: addr, action_types: ["jetton_transfer'--"] })).toBe('action_types contains invalid characters');
    expect(error('{"types":')).toBe('request: expected object');
  });

  it('counts addresses and trace hashes together against the limit', () => {
    const four = [1, 2, 3, 4].map((i) => rawUpper(new Address(0, Buffer.alloc(32, i))));
    expect(error({ types: ['transactions'], addresses: four })).toBe('too many addresses: 4 > max 3 (addresses and trace_external_hash_norms together)');
    expect(error({ types: ['transactions', 'trace'], addresses: four.slice(0, 2), trace_external_hash_norms: [HASH.toString('hex'), Buffer.alloc(32, 1).toString('hex')] })).toMatch(/^too many addresses: 4 > max 3/);
    // The same address in three forms is one address.
    expect(error({ types: ['transactions'], addresses: [...four.slice(0, 3), friendly(Address.parseRaw(four[0]!), { bounceable: true })] })).toBeNull();
  });

  it('echoes the request id, also with an error', () => {
    expect(parseSubscription({ id: '7', types: ['blocks'] }, opts)).toMatchObject({ ok: true, id: '7' });
    expect(parseSubscription({ id: 8, types: [] }, opts)).toMatchObject({ ok: false, id: 8 });
  });

  it('needs no address for Atlas\'s blocks, nor for trace_invalidated by trace hash', () => {
    expect(error({ types: ['blocks'] })).toBeNull();
    expect(error({ types: ['trace_invalidated'], trace_external_hash_norms: [HASH.toString('hex')] })).toBeNull();
    expect(error({ types: ['trace_invalidated'] })).toBe('addresses are required for subscription');
  });
});

describe('parseUnsubscribe', () => {
  it('needs an address or a trace hash, each valid', () => {
    expect(parseUnsubscribe({ addresses: [friendly(A, { bounceable: true })] })).toEqual({ ok: true, value: { addresses: [rawUpper(A)], traces: [] }, id: undefined });
    expect(parseUnsubscribe({ id: 'u' })).toEqual({ ok: false, error: 'addresses or trace_external_hash_norms are required', id: 'u' });
    expect(parseUnsubscribe({ addresses: ['nope'] })).toMatchObject({ ok: false, error: 'invalid address: "nope"' });
  });
});

describe('subscriptionFromQuery', () => {
  it('reads lists repeated or comma-separated, and flags', () => {
    const q = new URLSearchParams(`types=transactions,actions&addresses=${encodeURIComponent(rawUpper(A))}&addresses=${encodeURIComponent(rawUpper(B))}&min_finality=pending&include_address_book=true&id=q1`);
    const input = subscriptionFromQuery(q);
    expect(input).toEqual({ types: ['transactions', 'actions'], addresses: [rawUpper(A), rawUpper(B)], min_finality: 'pending', include_address_book: true, id: 'q1' });
    const r = parseSubscription(input, opts);
    expect(r.ok && r.value.minFinality).toBe('pending');
    expect(error(subscriptionFromQuery(new URLSearchParams('types=transactions&addresses=x&include_metadata=maybe')))).toBe('include_metadata: expected boolean');
  });
});
