import { Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { bocRootData, cellFromBase64, deserializeBoc, serializeBoc } from './boc';
import { fixtureBytes, fixtureRoot } from '../testing/fixtures';

const FILES = [
  'block_0_8000000000000000_71398501.boc',
  'block_0_6000000000000000_52111590.boc',
  'block_-1_8000000000000000_46991999.boc',
  'config_46991999.boc',
  'config_mainnet.boc',
];

/** Header fields of a serialized bag of cells (generic b5ee9c72 format). */
function header(buf: Buffer) {
  expect(buf.readUInt32BE(0)).toBe(0xb5ee9c72);
  const flags = buf[4];
  const rs = flags & 7;
  const os = buf[5];
  const read = (off: number, n: number) => {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + buf[off + i];
    return v;
  };
  const cells = read(6, rs);
  const roots = read(6 + rs, rs);
  const dataSize = read(6 + 3 * rs, os);
  const rootsOff = 6 + 3 * rs + os;
  const rootIdx = Array.from({ length: roots }, (_, i) => read(rootsOff + i * rs, rs));
  const indexOff = rootsOff + roots * rs;
  const hasIdx = !!(flags & 0x80);
  const index = hasIdx ? Array.from({ length: cells }, (_, i) => read(indexOff + i * os, os)) : [];
  return {
    hasIdx,
    hasCrc: !!(flags & 0x40),
    hasCache: !!(flags & 0x20),
    rs,
    os,
    cells,
    roots,
    dataSize,
    rootIdx,
    index,
    dataOff: indexOff + (hasIdx ? cells * os : 0),
  };
}

function countUnique(roots: Cell[]): { cells: number; parents: Map<string, number> } {
  const seen = new Set<string>();
  const parents = new Map<string, number>();
  const stack = [...roots];
  for (const r of roots) parents.set(r.hash().toString('hex'), (parents.get(r.hash().toString('hex')) ?? 0) + 1);
  while (stack.length) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    for (const r of c.refs) {
      const rh = r.hash().toString('hex');
      parents.set(rh, (parents.get(rh) ?? 0) + 1);
      stack.push(r);
    }
  }
  return { cells: seen.size, parents };
}

describe('serializeBoc', () => {
  for (const file of FILES) {
    it(`${file}: re-serializes with the file's flags and reads back identically`, () => {
      const original = fixtureBytes(file);
      const h0 = header(original);
      const root = fixtureRoot(file);
      const out = serializeBoc(root, { idx: h0.hasIdx, crc32: h0.hasCrc, cacheBits: h0.hasCache });
      const h1 = header(out);
      expect({ idx: h1.hasIdx, crc: h1.hasCrc, cache: h1.hasCache }).toEqual({ idx: h0.hasIdx, crc: h0.hasCrc, cache: h0.hasCache });
      expect(h1.cells).toBe(h0.cells);
      expect(h1.rs).toBe(h0.rs);
      expect(h1.os).toBe(h0.os);
      if (!h0.hasIdx) {
        // Same cells, same encodings: same size (these files carry no stored hashes).
        expect(out.length).toBe(original.length);
        expect(h1.dataSize).toBe(h0.dataSize);
      }
      const back = Cell.fromBoc(out);
      expect(back.length).toBe(1);
      expect(back[0].hash()).toEqual(root.hash());
    });
  }

  it('writes several roots sharing cells once, in the given root order', () => {
    const shared = beginCell().storeUint(0xdeadbeef, 32).endCell();
    const a = beginCell().storeUint(1, 8).storeRef(shared).endCell();
    const b = beginCell().storeUint(2, 8).storeRef(shared).storeRef(a).endCell();
    const c = beginCell().storeUint(3, 8).endCell();
    const roots = [b, c, a, shared];
    for (const opts of [{}, { idx: true }, { idx: true, cacheBits: true }, { crc32: false }]) {
      const boc = serializeBoc(roots, opts);
      const h = header(boc);
      expect(h.roots).toBe(4);
      expect(h.cells).toBe(4);
      const back = deserializeBoc(boc);
      expect(back.map((x) => x.hash().toString('hex'))).toEqual(roots.map((x) => x.hash().toString('hex')));
    }
  });

  it('round-trips a multi-root bag of real blocks and configs', () => {
    // The big block is left out to keep the suite fast; it is covered above.
    const roots = FILES.slice(1).map(fixtureRoot);
    const boc = serializeBoc(roots, { idx: true, crc32: true });
    const back = Cell.fromBoc(boc);
    expect(back.map((r) => r.hash())).toEqual(roots.map((r) => r.hash()));
    expect(header(boc).cells).toBe(countUnique(roots).cells);
  });

  it('index offsets and cache bits follow the node format', () => {
    const roots = [fixtureRoot('block_0_6000000000000000_52111590.boc')];
    const boc = serializeBoc(roots, { idx: true, crc32: true, cacheBits: true });
    const h = header(boc);
    // Offsets are cumulative end positions, doubled with the cache bit in the low bit.
    let prev = 0;
    let cached = 0;
    for (const entry of h.index) {
      const end = Math.floor(entry / 2);
      expect(end).toBeGreaterThan(prev);
      prev = end;
      cached += entry & 1;
    }
    expect(prev).toBe(h.dataSize);
    expect(boc.length).toBe(h.dataOff + h.dataSize + 4);
    // A cell is marked when it is reached more than once.
    const { parents } = countUnique(roots);
    expect(cached).toBe([...parents.values()].filter((n) => n > 1).length);
    expect(Cell.fromBoc(boc)[0].hash()).toEqual(roots[0].hash());
  });

  it('detects corruption through the CRC32-C like @ton/core', () => {
    const boc = serializeBoc(beginCell().storeUint(42, 64).endCell());
    const bad = Buffer.from(boc);
    bad[bad.length - 6] ^= 1;
    expect(() => Cell.fromBoc(bad)).toThrow(/CRC32C/);
    expect(() => serializeBoc([], {})).toThrow();
    expect(() => serializeBoc(Cell.EMPTY, { cacheBits: true })).toThrow(/index/);
  });

  it('matches @ton/core for a single root when both write the same flags (reading back)', () => {
    const root = fixtureRoot('config_46991999.boc');
    const ours = serializeBoc(root, { idx: false, crc32: true });
    const theirs = root.toBoc({ idx: false, crc32: true });
    expect(ours.length).toBe(theirs.length);
    expect(Cell.fromBoc(ours)[0].hash()).toEqual(Cell.fromBoc(theirs)[0].hash());
  });
});

describe('deserializeBoc', () => {
  const cellsOf = (root: Cell) => {
    const out: string[] = [];
    const walk = (c: Cell) => {
      out.push(`${c.hash().toString('hex')} ${c.type} ${c.bits.length} ${c.bits.toString()} ${c.refs.length}`);
      c.refs.forEach(walk);
    };
    walk(root);
    return out;
  };

  it("reads real blocks and configs into the cells @ton/core's Cell.fromBoc reads", () => {
    for (const name of FILES.slice(1)) {
      const boc = fixtureBytes(name);
      const [mine] = deserializeBoc(boc);
      const [theirs] = Cell.fromBoc(boc);
      expect(cellsOf(mine!)).toEqual(cellsOf(theirs!));
    }
  });

  it('reads every root, with or without index and CRC32-C, and rejects a damaged file', () => {
    const roots = [beginCell().storeUint(7, 5).endCell(), beginCell().storeRef(beginCell().storeBit(1).endCell()).storeBuffer(Buffer.from('atlas')).endCell()];
    for (const opts of [{}, { idx: true }, { crc32: false }, { idx: true, cacheBits: true }]) {
      const back = deserializeBoc(serializeBoc(roots, opts));
      expect(back.map((c) => c.hash())).toEqual(roots.map((c) => c.hash()));
    }
    const boc = serializeBoc(roots);
    boc[boc.length - 6] ^= 1;
    expect(() => deserializeBoc(boc)).toThrow(/CRC32C/);
    expect(() => deserializeBoc(serializeBoc(roots).subarray(0, 20))).toThrow();
  });

  it('cellFromBase64 reads the one root Cell.fromBase64 reads, and refuses a bag of several as it does', () => {
    const roots = [beginCell().storeUint(7, 5).endCell(), beginCell().storeRef(beginCell().storeBit(1).endCell()).endCell()];
    const one = roots[1]!.toBoc().toString('base64');
    expect(cellFromBase64(one).hash()).toEqual(Cell.fromBase64(one).hash());
    const two = serializeBoc(roots).toString('base64');
    expect(() => Cell.fromBase64(two)).toThrow();
    expect(() => cellFromBase64(two)).toThrow(/one root cell, found 2/);
  });
});

describe('bocRootData', () => {
  it("reads the first root's own bits, refs left out, for real blocks and configs", () => {
    for (const name of FILES) {
      const boc = fixtureBytes(name);
      const root = bocRootData(boc);
      expect(root.refs).toHaveLength(0);
      expect(root.bits.toString()).toBe(deserializeBoc(boc)[0]!.bits.toString());
    }
  });

  it('finds the first root wherever it is stored, in every format, with bits not ending on a byte', () => {
    const child = beginCell().storeBit(1).endCell();
    const roots = [beginCell().storeUint(5, 13).storeRef(child).endCell(), beginCell().storeRef(child).storeBuffer(Buffer.from('atlas')).endCell()];
    for (const opts of [{}, { idx: true }, { crc32: false }, { idx: true, cacheBits: true }]) {
      for (const order of [roots, [...roots].reverse()]) {
        expect(bocRootData(serializeBoc(order, opts)).bits.toString()).toBe(order[0]!.bits.toString());
      }
    }
    expect(() => bocRootData(serializeBoc(roots).subarray(0, 12))).toThrow();
  });
});
