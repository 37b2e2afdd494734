import { createHash } from 'node:crypto';
import { beginCell, Cell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { describe, expect, it } from 'vitest';
import { installFastCellHash } from './fast-hash';
import { createMerkleProof } from './merkle';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';

/** Every cell of a tree, depth first, with its hash and depth at every level. */
function census(root: Cell): string[] {
  const out: string[] = [];
  const walk = (c: Cell) => {
    out.push([0, 1, 2, 3].map((l) => `${c.hash(l).toString('hex')}/${c.depth(l)}`).join(' '));
    c.refs.forEach(walk);
  };
  walk(root);
  return out;
}

// A real block, and a Merkle proof of its header: exotic cells, and ordinary cells of level 1 (over pruned branches).
const block = () => Cell.fromBoc(fixtureBytes(BLOCK_FIXTURES.shard52111590))[0]!;
const proof = (root: Cell) => {
  const p = createMerkleProof(root, { cells: [root.refs[0]!] });
  expect(p.refs[0]!.mask.value).toBe(1);
  return p;
};

describe('installFastCellHash', () => {
  it('swaps in native SHA-256 and the ordinary-cell hash without changing any hash or depth', () => {
    const built = () => beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8)).endCell();
    const before = { built: census(built()), block: census(block()), proof: census(proof(block())) };
    expect(installFastCellHash()).toBe(true);
    expect(census(built())).toEqual(before.built);
    expect(census(block())).toEqual(before.block);
    expect(census(proof(block()))).toEqual(before.proof);
    for (const input of [Buffer.alloc(0), Buffer.from('abc'), Buffer.alloc(1000, 7)]) {
      expect(sha256_sync(input).equals(createHash('sha256').update(input).digest())).toBe(true);
    }
    expect(sha256_sync('héllo').equals(createHash('sha256').update('héllo', 'utf8').digest())).toBe(true);
    expect(installFastCellHash()).toBe(true); // idempotent
  });
});
