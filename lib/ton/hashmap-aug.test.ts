import { Builder, Cell, Dictionary, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  AugDictCodec,
  augDictDelete,
  augDictGet,
  augDictCutPrefix,
  augDictJoinSiblings,
  augDictRootExtra,
  augDictSet,
  buildAugDictRoot,
  dictKeyPath,
  loadAugDictRoot,
  loadHashmapAugE,
  loadHmLabel,
  storeHashmapAugE,
  storeHmLabel,
} from './hashmap-aug';

/** Deterministic PRNG so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomKey(rand: () => number, bits: number): bigint {
  let k = 0n;
  for (let i = 0; i < bits; i += 16) k = (k << 16n) | BigInt(Math.floor(rand() * 65536));
  return k & ((1n << BigInt(bits)) - 1n);
}

function shuffle<T>(xs: T[], rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Values are uint32; extras are (count, sum, max) so forks depend on both children and their order is irrelevant. */
interface Stat {
  count: number;
  sum: bigint;
  max: number;
}
const statCodec: AugDictCodec<number, Stat> = {
  loadValue: (s) => s.loadUint(32),
  storeValue: (v) => (b: Builder) => {
    b.storeUint(v, 32);
  },
  loadExtra: (s) => ({ count: s.loadUint(32), sum: s.loadUintBig(64), max: s.loadUint(32) }),
  storeExtra: (e) => (b: Builder) => {
    b.storeUint(e.count, 32).storeUint(e.sum, 64).storeUint(e.max, 32);
  },
  combine: (a, b) => ({ count: a.count + b.count, sum: a.sum + b.sum, max: Math.max(a.max, b.max) }),
  empty: () => ({ count: 0, sum: 0n, max: 0 }),
  leafExtra: (v) => ({ count: 1, sum: BigInt(v), max: v }),
};

/** No extra bits at all: the augmented layout degenerates to a plain Hashmap. */
const plainCodec: AugDictCodec<number, null> = {
  loadValue: (s) => s.loadUint(32),
  storeValue: (v) => (b: Builder) => {
    b.storeUint(v, 32);
  },
  loadExtra: () => null,
  storeExtra: () => () => {},
  combine: () => null,
  empty: () => null,
  leafExtra: () => null,
};

function fullRoot(map: Map<bigint, number>, bits: number): Cell | null {
  return buildAugDictRoot(
    Array.from(map, ([k, v]) => [k, { value: v }] as const),
    bits,
    statCodec,
  ).root;
}

describe('HmLabel', () => {
  it('round-trips every label length for several key widths', () => {
    for (const maxLen of [0, 1, 2, 5, 15, 32, 64, 96, 255, 256]) {
      for (let len = 0; len <= maxLen; len += Math.max(1, Math.floor(maxLen / 20))) {
        for (const bits of [0n, (1n << BigInt(len)) - 1n, len > 1 ? 1n : 0n]) {
          const b = beginCell();
          storeHmLabel(b, len, bits, maxLen);
          const s = b.endCell().beginParse();
          expect(loadHmLabel(s, maxLen)).toEqual({ len, bits });
          expect(s.remainingBits).toBe(0);
        }
      }
    }
  });

  it('picks hml_same only when strictly shortest, like the node', () => {
    // 256-bit keys: length field is 9 bits. A run of 5 equal bits costs 12 as
    // hml_same vs 12 as hml_short: tie goes to short; 6 bits: same (12 < 14).
    const enc = (len: number, bits: bigint) => {
      const b = beginCell();
      storeHmLabel(b, len, bits, 256);
      return b.endCell().bits.toString();
    };
    const five = beginCell().storeBit(0).storeUint(0b111110, 6).storeUint(0, 5).endCell().bits.toString();
    expect(enc(5, 0n)).toBe(five);
    expect(enc(6, 0n)).toBe(beginCell().storeUint(0b110, 3).storeUint(6, 9).endCell().bits.toString());
    // 16 mixed bits: long (2 + 9 + 16 = 27) beats short (34).
    expect(enc(16, 0x1234n)).toBe(beginCell().storeUint(0b10, 2).storeUint(16, 9).storeUint(0x1234, 16).endCell().bits.toString());
  });
});

describe('HashmapAug writer', () => {
  it('lays out labels exactly like @ton/core Dictionary (itself matching the node)', () => {
    const rand = rng(1);
    for (const bits of [8, 16, 32, 64, 256]) {
      for (const n of [1, 2, 3, 17, 200]) {
        const dict = Dictionary.empty(Dictionary.Keys.BigUint(bits), Dictionary.Values.Uint(32));
        const entries: [bigint, { value: number }][] = [];
        while (dict.size < Math.min(n, 2 ** Math.min(bits, 20) / 2)) {
          const k = randomKey(rand, bits);
          if (dict.has(k)) continue;
          const v = Math.floor(rand() * 2 ** 32);
          dict.set(k, v);
          entries.push([k, { value: v }]);
        }
        const expected = beginCell().storeDictDirect(dict).endCell();
        const { root } = buildAugDictRoot(entries, bits, plainCodec);
        expect(root!.hash().toString('hex')).toBe(expected.hash().toString('hex'));
      }
    }
  });

  it('reads back what it writes, with the HashmapAugE extra of the whole dictionary', () => {
    const rand = rng(2);
    const map = new Map<bigint, number>();
    while (map.size < 300) map.set(randomKey(rand, 64), Math.floor(rand() * 1e9));
    const cell = beginCell()
      .store(storeHashmapAugE(Array.from(map, ([k, v]) => [k, { value: v }] as const), 64, statCodec))
      .endCell();
    const read = loadHashmapAugE(cell.beginParse(), 64, statCodec);
    expect([...read.entries.keys()]).toEqual([...map.keys()].sort((a, b) => (a < b ? -1 : 1)));
    for (const [k, e] of read.entries) {
      expect(e.value).toBe(map.get(k));
      expect(e.extra).toEqual({ count: 1, sum: BigInt(e.value), max: e.value });
    }
    const values = [...map.values()];
    expect(read.extra).toEqual({
      count: 300,
      sum: values.reduce((a, v) => a + BigInt(v), 0n),
      max: Math.max(...values),
    });
  });

  it('writes an empty HashmapAugE as a zero bit and the empty extra', () => {
    const cell = beginCell().store(storeHashmapAugE([], 256, statCodec)).endCell();
    expect(cell.bits.length).toBe(1 + 128);
    expect(cell.refs.length).toBe(0);
    expect(loadHashmapAugE(cell.beginParse(), 256, statCodec)).toEqual({ entries: new Map(), extra: statCodec.empty() });
  });

  it('rejects duplicate and oversized keys', () => {
    expect(() => buildAugDictRoot([[1n, { value: 1 }], [1n, { value: 2 }]], 8, statCodec)).toThrow(/duplicate/);
    expect(() => buildAugDictRoot([[256n, { value: 1 }]], 8, statCodec)).toThrow(/fit/);
  });
});

describe('HashmapAug incremental update', () => {
  for (const bits of [256, 64, 10]) {
    it(`set/delete in random order equals a full rebuild (${bits}-bit keys)`, () => {
      const rand = rng(bits);
      const map = new Map<bigint, number>();
      const target = bits === 10 ? 400 : 300;
      while (map.size < target) map.set(randomKey(rand, bits), Math.floor(rand() * 1e9));

      let root: Cell | null = null;
      const live = new Map<bigint, number>();
      let step = 0;
      for (const k of shuffle([...map.keys()], rand)) {
        root = augDictSet(root, bits, k, map.get(k)!, statCodec);
        live.set(k, map.get(k)!);
        if (++step % 50 === 0) expect(root.hash()).toEqual(fullRoot(live, bits)!.hash());
      }
      expect(root!.hash()).toEqual(fullRoot(map, bits)!.hash());
      expect(augDictRootExtra(root, bits, statCodec).count).toBe(map.size);

      // Overwrite some values in place.
      for (const k of shuffle([...map.keys()], rand).slice(0, 60)) {
        const v = Math.floor(rand() * 1e9);
        map.set(k, v);
        root = augDictSet(root, bits, k, v, statCodec);
      }
      expect(root!.hash()).toEqual(fullRoot(map, bits)!.hash());

      // Deleting an absent key changes nothing.
      let absent = randomKey(rand, bits);
      while (map.has(absent)) absent = randomKey(rand, bits);
      expect(augDictDelete(root, bits, absent, statCodec)).toBe(root);

      // Delete everything in random order, checking against rebuilds along the way.
      step = 0;
      for (const k of shuffle([...map.keys()], rand)) {
        root = augDictDelete(root, bits, k, statCodec);
        map.delete(k);
        if (++step % 37 === 0 || map.size < 3) {
          expect(root?.hash() ?? null).toEqual(fullRoot(map, bits)?.hash() ?? null);
        }
      }
      expect(root).toBeNull();
    });
  }

  it('gets entries and their leaf path', () => {
    const rand = rng(7);
    const map = new Map<bigint, number>();
    while (map.size < 200) map.set(randomKey(rand, 256), Math.floor(rand() * 1e9));
    const root = fullRoot(map, 256);
    for (const [k, v] of map) {
      expect(augDictGet(root, 256, k, statCodec)).toEqual({ value: v, extra: { count: 1, sum: BigInt(v), max: v } });
      const path = dictKeyPath(root, 256, k);
      expect(path[0]).toBe(root);
      expect(path.length).toBeGreaterThan(1);
    }
    expect(augDictGet(root, 256, 12345n, statCodec)).toBeUndefined();
    expect(dictKeyPath(root, 256, 12345n)).toEqual([]);
    expect(loadAugDictRoot(root, 256, statCodec).entries.size).toBe(200);
  });
});

describe('cutting and joining at a key prefix (shard splits and merges)', () => {
  it('cuts exactly the keys under a prefix, cell for cell as a build of them, and joins the halves back', () => {
    const rand = rng(29);
    for (let round = 0; round < 40; round++) {
      const bits = [16, 64, 256][round % 3];
      const map = new Map<bigint, number>();
      const n = round % 7 === 0 ? 1 : 1 + Math.floor(rand() * 60);
      // Keys crowded under a few prefixes so that labels run past the cut point.
      const base = randomKey(rand, bits);
      for (let i = 0; i < n; i++) {
        const k = rand() < 0.5 ? base ^ (randomKey(rand, bits) >> BigInt(bits - 8)) : randomKey(rand, bits);
        map.set(k, Math.floor(rand() * 1e9));
      }
      const root = fullRoot(map, bits);
      for (let depth = 0; depth <= 6; depth++) {
        const parent = randomKey(rand, depth);
        const sub = (len: number, prefix: bigint) => new Map([...map].filter(([k]) => k >> BigInt(bits - len) === prefix));
        const left = augDictCutPrefix(root, bits, parent << 1n, depth + 1);
        const right = augDictCutPrefix(root, bits, (parent << 1n) | 1n, depth + 1);
        expect(left?.hash().toString('hex')).toBe(fullRoot(sub(depth + 1, parent << 1n), bits)?.hash().toString('hex'));
        expect(right?.hash().toString('hex')).toBe(fullRoot(sub(depth + 1, (parent << 1n) | 1n), bits)?.hash().toString('hex'));
        const whole = augDictCutPrefix(root, bits, parent, depth);
        const joined = augDictJoinSiblings(left, right, bits, parent, depth, statCodec);
        expect(joined?.hash().toString('hex')).toBe(whole?.hash().toString('hex'));
        if (joined) expect(augDictRootExtra(joined, bits, statCodec)).toEqual(augDictRootExtra(whole, bits, statCodec));
      }
    }
  });

  it('refuses halves that do not lie under the prefix', () => {
    const map = new Map<bigint, number>([[0x0100n, 1], [0x8100n, 2]]);
    const root = fullRoot(map, 16)!;
    expect(() => augDictJoinSiblings(root, root, 16, 0n, 0, statCodec)).toThrow(/prefix/);
  });
});
