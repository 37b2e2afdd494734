// The parse worker against real mainnet blocks: the records it hands back (read from lazily hashed cells,
// lib/ton/lazy-cells.ts) are the ones parseBlock makes on this thread from eagerly hashed ones, Buffers
// included, and bytes that are not the block asked for are refused.
import { afterAll, describe, expect, it } from 'vitest';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';
import { BlockParser } from './block-parser';
import { parseBlock } from './parse-block';

const parser = new BlockParser();
afterAll(() => parser.close());

describe('BlockParser', () => {
  it('parses on a worker thread, into the same records as parseBlock', async () => {
    const boc = fixtureBytes(BLOCK_FIXTURES.shard71398501);
    const local = parseBlock(boc, 46991999);
    const [a, b] = await Promise.all([
      parser.parse(boc, local.block, 46991999),
      parser.parse(fixtureBytes(BLOCK_FIXTURES.master46991999), parseBlock(fixtureBytes(BLOCK_FIXTURES.master46991999), 1).block, 46991999),
    ]);
    expect(parser.mode).toBe('worker');
    expect(a.parsed).toEqual(local);
    expect(Buffer.isBuffer(a.parsed.transactions[0]!.hash)).toBe(true);
    expect(Buffer.isBuffer(a.parsed.contents[0]!.boc)).toBe(true);
    expect(a.prevs.map((p) => [p.workchain, p.shard, p.seqno])).toEqual([[0, 0x8000000000000000n, 71398500]]);
    expect(Buffer.isBuffer(a.prevs[0]!.rootHash)).toBe(true);
    expect(a.shardTops).toEqual([]);
    // The masterchain block names each shard's newest block.
    expect(b.shardTops.length).toBeGreaterThan(0);
    expect(b.shardTops.every((s) => s.workchain === 0 && Buffer.isBuffer(s.rootHash))).toBe(true);
  });

  it('parses blocks given together on as many workers as it may start, each into its own records', async () => {
    const two = new BlockParser(undefined, { workers: 2 });
    try {
      const names = [BLOCK_FIXTURES.shard71398501, BLOCK_FIXTURES.shard52111590, BLOCK_FIXTURES.master46991999, BLOCK_FIXTURES.shard52111590];
      const local = names.map((n) => parseBlock(fixtureBytes(n), 46991999));
      const parsed = await Promise.all(names.map((n, i) => two.parse(fixtureBytes(n), local[i]!.block, 46991999)));
      expect(two.workers).toBe(2);
      expect(parsed.map((p) => p.parsed)).toEqual(local);
      // One block at a time keeps to one idle worker: no third one starts.
      await two.parse(fixtureBytes(names[1]!), local[1]!.block, 46991999);
      expect(two.workers).toBe(2);
    } finally {
      await two.close();
    }
  });

  it('refuses bytes whose file hash is not the one asked for (another block, or one byte changed), and keeps working', async () => {
    const boc = fixtureBytes(BLOCK_FIXTURES.shard52111590);
    const id = parseBlock(boc, 1).block;
    await expect(parser.parse(boc, { ...id, fileHash: Buffer.alloc(32) }, 1)).rejects.toThrow(/file hash mismatch/);
    await expect(parser.parse(fixtureBytes(BLOCK_FIXTURES.shard71398501), id, 1)).rejects.toThrow(/file hash mismatch/);
    const changed = Buffer.from(boc);
    changed[changed.length - 100]! ^= 1;
    await expect(parser.parse(changed, id, 1)).rejects.toThrow(/file hash mismatch/);
    const ok = await parser.parse(boc, id, 1);
    expect(ok.parsed.transactions).toHaveLength(30);
  });
});
