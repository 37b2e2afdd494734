import { Address, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { BLOCK_FIXTURES, fixtureRoot } from '../testing/fixtures';
import { loadBlockInfo, shardIdOf } from './block-info';
import { loadInMsgDescr, loadOutMsgDescr } from './msg-descr';
import {
  SHARD_ALL,
  accountPrefix,
  hypercubeRoute,
  interpolateAddr,
  isRightChild,
  shardChild,
  shardContains,
  shardDepth,
  shardIdentOf,
  shardIsAncestor,
  shardOf,
  shardParent,
  shardSibling,
  shardsIntersect,
} from './shard';

/** Every shard down to `depth`. */
function shardsTo(depth: number): bigint[] {
  const out: bigint[] = [SHARD_ALL];
  for (let i = 0; i < out.length; i++) if (shardDepth(out[i]) < depth) out.push(shardChild(out[i], false), shardChild(out[i], true));
  return out;
}

describe('shard ids', () => {
  it('names the parent, children and sibling of every shard as the tree has them', () => {
    expect(shardChild(SHARD_ALL, false)).toBe(0x4000000000000000n);
    expect(shardChild(SHARD_ALL, true)).toBe(0xc000000000000000n);
    expect(shardChild(0x4000000000000000n, true)).toBe(0x6000000000000000n);
    for (const s of shardsTo(5)) {
      if (s === SHARD_ALL) continue;
      const parent = shardParent(s);
      expect(shardDepth(parent)).toBe(shardDepth(s) - 1);
      expect(shardChild(parent, isRightChild(s))).toBe(s);
      expect(shardSibling(shardSibling(s))).toBe(s);
      expect(shardParent(shardSibling(s))).toBe(parent);
      expect(shardIsAncestor(parent, s)).toBe(true);
      expect(shardIsAncestor(s, parent)).toBe(false);
      expect(shardsIntersect(s, shardSibling(s))).toBe(false);
    }
    expect(() => shardParent(SHARD_ALL)).toThrow();
  });

  it('puts each account in exactly one shard of a layout', () => {
    const layout = [0x2000000000000000n, 0x6000000000000000n, 0xa000000000000000n, 0xe000000000000000n];
    for (const hex of ['00', '3f', '40', '7f', '80', 'bf', 'c0', 'ff']) {
      const prefix = accountPrefix(Buffer.from(hex.padEnd(64, '0'), 'hex'));
      expect(layout.filter((s) => shardContains(s, prefix))).toHaveLength(1);
    }
    expect(shardOf(layout, 0x7fffffffffffffffn)).toBe(0x6000000000000000n);
    expect(shardOf(layout, 0x8000000000000000n)).toBe(0xa000000000000000n);
  });

  it('writes ShardIdent as mainnet blocks carry it (prefix without the tag bit)', () => {
    const info = loadBlockInfo(fixtureRoot(BLOCK_FIXTURES.shard52111590).refs[0].beginParse());
    expect(shardIdentOf(0, 0x6000000000000000n)).toEqual(info.shard);
    expect(BigInt.asUintN(64, shardIdOf(shardIdentOf(0, 0xa000000000000000n)))).toBe(0xa000000000000000n);
  });
});

describe('message routing', () => {
  const prefixOf = (a: Address) => ({ workchain: a.workChain, prefix: accountPrefix(a.hash) });

  it('routes every new message of a mainnet shard block as its envelope says', () => {
    // Shard 0:6000000000000000 (one of four): its exports to other shards go cur 32 → next 36,
    // those within the shard are delivered at once (96 → 96).
    const root = fixtureRoot(BLOCK_FIXTURES.shard52111590);
    const extra = root.refs[3];
    const out = loadOutMsgDescr(extra.refs[1].beginParse());
    const cur = { workchain: 0, shard: 0x6000000000000000n };
    let checked = 0;
    for (const [, e] of out.entries) {
      const m = e.value;
      if (m.type !== 'exportNew' && m.type !== 'exportImm') continue;
      const msg = loadMessage(m.outMsg.msg.beginParse());
      if (msg.info.type !== 'internal') continue;
      const route = hypercubeRoute(prefixOf(msg.info.src), prefixOf(msg.info.dest), cur);
      expect({ cur: m.outMsg.curAddr, next: m.outMsg.nextAddr }).toEqual({
        cur: { kind: 'regular', useDestBits: route.cur },
        next: { kind: 'regular', useDestBits: route.next },
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('imports from other shards only messages whose next hop is in the importing shard', () => {
    const root = fixtureRoot(BLOCK_FIXTURES.shard52111590);
    const ins = loadInMsgDescr(root.refs[3].refs[0].beginParse());
    let fins = 0;
    for (const [, e] of ins.entries) {
      if (e.value.type !== 'importFin') continue;
      const env = e.value.inMsg;
      const msg = loadMessage(env.msg.beginParse());
      if (msg.info.type !== 'internal' || env.nextAddr.kind !== 'regular' || env.curAddr.kind !== 'regular') continue;
      const src = prefixOf(msg.info.src);
      const dest = prefixOf(msg.info.dest);
      expect(shardContains(0x6000000000000000n, interpolateAddr(src, dest, env.nextAddr.useDestBits).prefix)).toBe(true);
      expect(shardContains(0x6000000000000000n, interpolateAddr(src, dest, env.curAddr.useDestBits).prefix)).toBe(false);
      fins++;
    }
    expect(fins).toBeGreaterThan(10);
  });

  it('takes the workchain first, then the address, when interpolating', () => {
    const src = { workchain: 0, prefix: 0x1111111111111111n };
    const dest = { workchain: -1, prefix: 0xeeeeeeeeeeeeeeeen };
    expect(interpolateAddr(src, dest, 0)).toEqual(src);
    expect(interpolateAddr(src, dest, 32)).toEqual({ workchain: -1, prefix: src.prefix });
    expect(interpolateAddr(src, dest, 36)).toEqual({ workchain: -1, prefix: 0xe111111111111111n });
    expect(interpolateAddr(src, dest, 96)).toEqual(dest);
    expect(hypercubeRoute({ workchain: -1, prefix: 1n }, { workchain: 0, prefix: 2n }, { workchain: -1, shard: SHARD_ALL })).toEqual({ cur: 0, next: 32 });
  });

  it('keeps hopping past digits that stay inside a deep shard', () => {
    // Shard with prefix 0x12 (8 bits): a destination 0x13... leaves it only at the second digit.
    const shard = 0x1280000000000000n;
    const route = hypercubeRoute({ workchain: 0, prefix: 0x1234000000000000n }, { workchain: 0, prefix: 0x1334000000000000n }, { workchain: 0, shard });
    expect(route).toEqual({ cur: 36, next: 40 });
  });
});
