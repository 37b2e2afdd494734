// The trace cache keeps only what cannot change, and stays within its size.
import { describe, expect, it } from 'vitest';
import type { TraceJson } from './models/traces';
import type { TraceRow } from './queries/traces';
import { TraceCache, traceCacheKey } from './trace-cache';

const row = (o: Partial<TraceRow> = {}): TraceRow => ({
  trace_id: new Uint8Array(32).fill(7),
  external_hash: null,
  external_hash_norm: null,
  mc_seqno_start: 1,
  mc_seqno_end: 2,
  start_lt: 10n,
  start_utime: 100,
  end_lt: 20n,
  end_utime: 101,
  state: 'complete',
  transactions: 2,
  messages: 1,
  pending_messages: 0,
  is_incomplete: false,
  classification_state: 'ok',
  classifier_version: 3,
  ...o,
});

/** A trace whose JSON is about `bodyChars` long (one message body). */
const trace = (id: string, bodyChars: number): TraceJson =>
  ({
    trace_id: id,
    transactions: { [id]: { in_msg: { message_content: { body: 'A'.repeat(bodyChars) } }, out_msgs: [] } },
  }) as unknown as TraceJson;

describe('trace cache', () => {
  it('keys only finished traces, and with actions only classified ones, by classifier version and action types', () => {
    expect(traceCacheKey(row(), null)).not.toBeNull();
    expect(traceCacheKey(row({ state: 'pending' }), null)).toBeNull();
    expect(traceCacheKey(row({ state: 'broken' }), null)).toBeNull();
    expect(traceCacheKey(row({ is_incomplete: true }), null)).toBeNull();
    expect(traceCacheKey(row({ classification_state: 'unclassified', classifier_version: null }), ['ton_transfer'])).toBeNull();
    expect(traceCacheKey(row({ classification_state: 'broken' }), ['ton_transfer'])).toBeNull();
    const keys = [
      traceCacheKey(row(), null),
      traceCacheKey(row(), ['ton_transfer']),
      traceCacheKey(row(), ['jetton_transfer', 'ton_transfer']),
      traceCacheKey(row({ classifier_version: 4 }), ['ton_transfer']),
      traceCacheKey(row({ classification_state: 'failed' }), ['ton_transfer']),
    ];
    expect(new Set(keys.slice(0, 4)).size).toBe(4);
    expect(keys[4]).toBe(keys[1]);
  });

  it('stays within its size: the least recently used go first, a trace too large is not kept', () => {
    const cache = new TraceCache(120_000); // about 6,500 bytes a trace below: 18 fit
    for (let i = 0; i < 10; i++) cache.set(`t${i}`, { json: trace(`t${i}`, 3_000), addresses: [] });
    expect(cache.stats.entries).toBe(10);
    cache.get('t0'); // used: now the most recent
    for (let i = 10; i < 20; i++) cache.set(`t${i}`, { json: trace(`t${i}`, 3_000), addresses: [] });
    expect(cache.stats.bytes).toBeLessThanOrEqual(120_000);
    expect(cache.stats.entries).toBe(18);
    expect(cache.get('t0')).toBeDefined();
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.get('t19')?.json.trace_id).toBe('t19');
    cache.set('huge', { json: trace('huge', 50_000), addresses: [] });
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('t19')).toBeDefined();
  });
});
