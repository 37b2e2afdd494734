import { Address, Cell, CellType, beginCell, storeShardAccount } from '@ton/core';
import { createShardAccount } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { createMerkleUpdate, merkleUpdateHashes } from '../ton';
import { RawShardAccounts, shardAccountCell, type RawShardAccount } from './accounts';
import { applyMerkleUpdate, diffMerkleUpdate } from './merkle-update';

const code = beginCell().storeUint(0xc0de, 16).storeRef(beginCell().storeUint(1, 8)).endCell();

function account(i: number, lt: bigint): [bigint, RawShardAccount] {
  const addr = new Address(0, Buffer.from(BigInt(i * 7919 + 13).toString(16).padStart(64, '0'), 'hex'));
  const data = beginCell().storeUint(i, 32).storeUint(lt, 64).endCell();
  const sa = createShardAccount({ address: addr, code, data, balance: 1000n + BigInt(i) });
  sa.account!.storage.lastTransLt = lt;
  const acc = beginCell().store(storeShardAccount(sa)).endCell().refs[0];
  return [BigInt('0x' + addr.hash.toString('hex')), { account: acc, lastTransHash: Buffer.alloc(32, i & 0xff), lastTransLt: lt }];
}

const stateOf = (d: RawShardAccounts) => beginCell().storeUint(0x9023afe2, 32).storeRef(d.toCell()).storeRef(code).endCell();

/** Every pruned cell on the new side must be a cell the old side shows (kept or pruned there). */
function newSidePrunedAreExposed(update: Cell): boolean {
  const exposed = new Set<string>();
  const walk = (c: Cell, into: Set<string>, collectPruned: boolean, out: string[]) => {
    into.add(c.hash(0).toString('hex'));
    if (c.type === CellType.PrunedBranch) {
      if (collectPruned) out.push(c.hash(0).toString('hex'));
      return;
    }
    for (const r of c.refs) walk(r, into, collectPruned, out);
  };
  walk(update.refs[0], exposed, false, []);
  const pruned: string[] = [];
  walk(update.refs[1], new Set(), true, pruned);
  return pruned.every((h) => exposed.has(h));
}

describe('diffMerkleUpdate / applyMerkleUpdate', () => {
  const d = new RawShardAccounts();
  for (let i = 0; i < 300; i++) d.set(...account(i, 1n));
  const oldRoot = stateOf(d);

  it.each([
    ['changed accounts', (x: RawShardAccounts) => [5, 77, 120].forEach((i) => x.set(...account(i, 9n)))],
    ['new accounts', (x: RawShardAccounts) => [1000, 1001, 2000].forEach((i) => x.set(...account(i, 9n)))],
    ['deleted accounts', (x: RawShardAccounts) => [3, 4, 250].forEach((i) => x.delete(account(i, 1n)[0]))],
    ['a mix', (x: RawShardAccounts) => {
      x.set(...account(7, 5n));
      x.delete(account(8, 1n)[0]);
      x.set(...account(5000, 5n));
    }],
    ['nothing', () => {}],
  ])('%s: same hashes as lib/ton, valid, and applying it gives the new state', (_name, change) => {
    const x = d.clone();
    change(x);
    const newRoot = stateOf(x);
    const update = diffMerkleUpdate(oldRoot, newRoot);
    const reference = merkleUpdateHashes(createMerkleUpdate(oldRoot, newRoot));
    const got = merkleUpdateHashes(update);
    expect(got.oldHash.equals(oldRoot.hash())).toBe(true);
    expect(got.newHash.equals(newRoot.hash())).toBe(true);
    expect(got).toEqual(reference);
    expect(newSidePrunedAreExposed(update)).toBe(true);
    expect(applyMerkleUpdate(oldRoot, update).hash().equals(newRoot.hash())).toBe(true);
    // it is small: far below the 600+ cells of the state
    const count = (c: Cell, seen = new Set<string>()): number => {
      const k = c.hash().toString('hex');
      if (seen.has(k)) return 0;
      seen.add(k);
      return 1 + c.refs.reduce((n, r) => n + count(r, seen), 0);
    };
    expect(count(update)).toBeLessThan(150);
  });

  it("refuses a state that is not the update's old state", () => {
    const x = d.clone();
    x.set(...account(1, 3n));
    const update = diffMerkleUpdate(oldRoot, stateOf(x));
    expect(() => applyMerkleUpdate(stateOf(x), update)).toThrow(/not the update's old state/);
  });

  it('keeps shared code cells of new accounts resolvable', () => {
    // A new account whose code is shared with existing ones: the old side never shows that code
    // under a changed cell, so the new side keeps it whole instead of pruning it.
    const x = d.clone();
    x.set(...account(9999, 2n));
    const update = diffMerkleUpdate(oldRoot, stateOf(x));
    expect(newSidePrunedAreExposed(update)).toBe(true);
    expect(applyMerkleUpdate(oldRoot, update).hash().equals(stateOf(x).hash())).toBe(true);
    expect(shardAccountCell(account(9999, 2n)[1]).refs[0].hash().equals(account(9999, 2n)[1].account.hash())).toBe(true);
  });
});
