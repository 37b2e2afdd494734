// The parser against real mainnet blocks: every transaction and message it yields must agree with
// @ton/core's own reading of the same cells.
import { createHash } from 'node:crypto';
import { Cell, Dictionary, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { loadBlock } from '../ton';
import { BLOCK_FIXTURES, fixtureBytes } from '../testing/fixtures';
import { parseBlock } from './parse-block';

const CASES = [
  { file: BLOCK_FIXTURES.shard71398501, workchain: 0, seqno: 71398501, txs: 269, accounts: 234, rootHash: '244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241' },
  { file: BLOCK_FIXTURES.shard52111590, workchain: 0, seqno: 52111590, txs: 30, accounts: 23, rootHash: 'd350895e85ffd081f564e5d138f374a9b52b53aee0035b07ce5a5d6388b73b45' },
  { file: BLOCK_FIXTURES.master46991999, workchain: -1, seqno: 46991999, rootHash: 'cbebaa6ac4270c987c90c5ed930ff37f9b73c705999585d6d8c1c5e9fa3dd6e3' },
];

/** Every transaction cell of a block by hash, read independently of the parser under test. */
function transactionCells(boc: Buffer): Map<string, Cell> {
  const b = loadBlock(Cell.fromBoc(boc)[0]!.beginParse());
  const out = new Map<string, Cell>();
  for (const { value: ab } of b.extra.accountBlocks.entries.values()) {
    for (const { value: tx } of ab.transactions.entries.values()) out.set(tx.hash().toString('hex'), tx);
  }
  return out;
}

describe.each(CASES)('mainnet block $workchain:$seqno', (c) => {
  const boc = fixtureBytes(c.file);
  const parsed = parseBlock(boc, c.workchain === -1 ? c.seqno : 66519406);
  const cells = transactionCells(boc);

  it('has the block identity and header of the real block', () => {
    expect(parsed.block.rootHash.toString('hex')).toBe(c.rootHash);
    // The fixtures are re-serialized BoCs, so their sha256 is not mainnet's file hash; the rule still holds.
    expect(parsed.block.fileHash.equals(createHash('sha256').update(boc).digest())).toBe(true);
    expect(parsed.block).toMatchObject({ workchain: c.workchain, seqno: c.seqno, txCount: parsed.transactions.length });
    expect(parsed.block.startLt).toBeLessThan(parsed.block.endLt);
    expect(parsed.block.prevBlocks).toHaveLength(1);
    expect(parsed.block.prevBlocks[0]!.seqno).toBe(c.seqno - 1);
  });

  it('yields every transaction once, ordered by account then lt', () => {
    if (c.txs) expect(parsed.transactions).toHaveLength(c.txs);
    if (c.accounts) expect(new Set(parsed.transactions.map((t) => t.account)).size).toBe(c.accounts);
    expect(new Set(parsed.transactions.map((t) => t.hash.toString('hex')))).toEqual(new Set(cells.keys()));
    const keys = parsed.transactions.map((t) => `${t.account}/${t.lt.toString().padStart(20, '0')}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('matches @ton/core for hash, lt, fees, phases and messages of each transaction', () => {
    for (const t of parsed.transactions) {
      const cell = cells.get(t.hash.toString('hex'))!;
      const tx = loadTransaction(cell.beginParse());
      expect(t.account).toBe(`${c.workchain}:${tx.address.toString(16).padStart(64, '0').toUpperCase()}`);
      expect(t.lt).toBe(tx.lt);
      expect(t.lt >= parsed.block.startLt && t.lt < parsed.block.endLt).toBe(true);
      expect(t.now).toBe(tx.now);
      expect(t.totalFees).toBe(tx.totalFees.coins);
      expect(t.prevTransLt).toBe(tx.prevTransactionLt);
      expect(BigInt(`0x${t.prevTransHash.toString('hex')}`)).toBe(tx.prevTransactionHash);
      expect(t.accountStateHashBefore.equals(tx.stateUpdate.oldHash)).toBe(true);
      expect(t.accountStateHashAfter.equals(tx.stateUpdate.newHash)).toBe(true);

      const d = tx.description;
      if (d.type === 'generic' || d.type === 'tick-tock') {
        expect(t.description.aborted).toBe(d.aborted);
        const cp = d.computePhase;
        if (cp.type === 'vm') {
          expect(t.description.compute_ph).toMatchObject({ skipped: false, exit_code: cp.exitCode, gas_used: cp.gasUsed.toString(), gas_fees: cp.gasFees.toString(), success: cp.success });
        } else {
          expect(t.description.compute_ph).toEqual({ skipped: true, reason: cp.reason.replace('-', '_') });
        }
        if (d.actionPhase) expect(t.description.action).toMatchObject({ result_code: d.actionPhase.resultCode, tot_actions: d.actionPhase.totalActions });
        else expect(t.description.action).toBeUndefined();
        if (d.storagePhase) expect(t.description.storage_ph?.storage_fees_collected).toBe(d.storagePhase.storageFeesCollected.toString());
      }

      const mine = parsed.messages.filter((m) => m.txHash.equals(t.hash));
      expect(mine.filter((m) => m.direction === 'in')).toHaveLength(tx.inMessage ? 1 : 0);
      expect(mine.filter((m) => m.direction === 'out')).toHaveLength(tx.outMessagesCount);
      if (tx.inMessage) {
        const m = mine.find((x) => x.direction === 'in')!;
        expect(m.bodyHash.equals(tx.inMessage.body.hash())).toBe(true);
        if (tx.inMessage.info.type === 'internal') expect(m.value).toBe(tx.inMessage.info.value.coins);
        else expect(m.msgHashNorm).not.toBeNull();
      }
      const outs = mine.filter((x) => x.direction === 'out');
      // the message cells as stored in out_msgs, read by @ton/core: their hashes are the message hashes
      const io = cell.refs[0]!.beginParse();
      if (io.loadBit()) io.loadRef();
      const stored = io.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
      for (const [i, key] of [...tx.outMessages.keys()].sort((a, b) => a - b).entries()) {
        const om = tx.outMessages.get(key)!;
        if (om.info.type === 'internal') expect(outs[i]!.createdLt).toBe(om.info.createdLt);
        expect(outs[i]!.msgHash.equals(stored.get(key)!.hash())).toBe(true);
      }
    }
  });

  it('stores each body and init state once, with hashes that match their BoCs', () => {
    const byHash = new Map(parsed.contents.map((x) => [x.hash.toString('hex'), x]));
    expect(byHash.size).toBe(parsed.contents.length);
    for (const m of parsed.messages) {
      const body = byHash.get(m.bodyHash.toString('hex'))!;
      expect(Cell.fromBoc(body.boc)[0]!.hash().equals(m.bodyHash)).toBe(true);
      if (m.initStateHash) expect(byHash.has(m.initStateHash.toString('hex'))).toBe(true);
    }
  });
});

describe('message details', () => {
  it('reads opcodes, bounce flags and text comments of real messages', () => {
    const parsed = parseBlock(fixtureBytes(BLOCK_FIXTURES.shard71398501), null);
    const withOpcode = parsed.messages.filter((m) => m.opcode !== null);
    expect(withOpcode.length).toBeGreaterThan(0);
    // Internal messages always carry both flags; external ones never do.
    for (const m of parsed.messages) {
      expect(m.bounce === null).toBe(m.source === null || m.destination === null);
    }
    // Text comments (op 0) decode from the stored body.
    const comment = parsed.messages.find((m) => m.opcode === 0)!;
    expect(comment).toBeDefined();
    const body = Cell.fromBoc(parsed.contents.find((x) => x.hash.equals(comment.bodyHash))!.boc)[0]!.beginParse();
    expect(body.loadUint(32)).toBe(0);
    expect(body.loadStringTail().length).toBeGreaterThan(0);
  });
});
