/** Real mainnet BoCs for the tests, kept in the repo (fixtures/mainnet/README.md: what and where from). */
import { Cell } from '@ton/core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'mainnet');

export const BLOCK_FIXTURES = {
  shard71398501: 'block_0_8000000000000000_71398501.boc',
  shard52111590: 'block_0_6000000000000000_52111590.boc',
  master46991999: 'block_-1_8000000000000000_46991999.boc',
} as const;

const cache = new Map<string, Buffer>();

export function fixtureBytes(name: string): Buffer {
  let buf = cache.get(name);
  if (!buf) {
    buf = fs.readFileSync(path.join(FIXTURE_DIR, name));
    cache.set(name, buf);
  }
  return buf;
}

const roots = new Map<string, Cell>();

/** The single root of a fixture, parsed once per test file (parsing the 500 kB block takes ~0.5 s). */
export function fixtureRoot(name: string): Cell {
  let root = roots.get(name);
  if (!root) {
    const all = Cell.fromBoc(fixtureBytes(name));
    if (all.length !== 1) throw new Error(`${name}: expected one root, got ${all.length}`);
    root = all[0];
    roots.set(name, root);
  }
  return root;
}
