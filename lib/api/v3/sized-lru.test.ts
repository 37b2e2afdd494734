import { describe, expect, it } from 'vitest';
import { SizedLru } from './sized-lru';

// Sixteen entries of size 1: an entry may take at most a sixteenth of the budget.
const filled = () => {
  const lru = new SizedLru<number>(16, () => 1);
  for (let i = 0; i < 16; i++) lru.set(`k${i}`, i);
  return lru;
};

describe('SizedLru', () => {
  it('keeps within its budget by dropping the least recently used entry', () => {
    const lru = filled();
    lru.set('new', 16);
    expect(lru.stats).toEqual({ entries: 16, bytes: 16, max_bytes: 16 });
    expect(lru.get('new')).toBe(16);
    expect(lru.get('k0')).toBeUndefined();
    expect(lru.get('k1')).toBe(1);
  });

  it('an entry asked for outlives older ones that were not', () => {
    const lru = filled();
    lru.set('k16', 16); // drops k0
    lru.get('k3');
    for (let i = 17; i < 20; i++) lru.set(`k${i}`, i);
    expect(lru.get('k3')).toBe(3);
    for (const gone of ['k1', 'k2', 'k4']) expect(lru.get(gone)).toBeUndefined();
    expect(lru.get('k5')).toBe(5);
    expect(lru.stats.entries).toBe(16);
  });

  it('a new entry survives the eviction it causes when every other was asked for', () => {
    const lru = filled();
    for (let i = 0; i < 16; i++) lru.get(`k${i}`);
    lru.set('new', 99);
    expect(lru.get('new')).toBe(99);
    expect(lru.stats).toEqual({ entries: 16, bytes: 16, max_bytes: 16 });
  });

  it('an entry asked for between every insertion is never the one dropped', () => {
    const lru = filled();
    for (let i = 16; i < 200; i++) {
      expect(lru.get('k0'), `after ${i - 16} insertions`).toBe(0);
      lru.set(`k${i}`, i);
    }
    expect(lru.stats).toEqual({ entries: 16, bytes: 16, max_bytes: 16 });
    // The others went in insertion order: the newest fifteen are the ones left.
    expect(lru.get('k185')).toBe(185);
    expect(lru.get('k184')).toBeUndefined();
  });

  it('refuses an entry larger than a sixteenth of the budget', () => {
    const lru = new SizedLru<string>(160, (v) => v.length);
    lru.set('big', 'x'.repeat(11));
    lru.set('small', 'x'.repeat(10));
    expect(lru.get('big')).toBeUndefined();
    expect(lru.get('small')).toBe('x'.repeat(10));
  });
});
