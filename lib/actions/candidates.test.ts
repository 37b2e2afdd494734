// The speed-up in `candidates` (a multi-opcode anchor's nodes merged from the per-opcode lists instead of
// filtering every node) must hand each matcher the same nodes in the same order, and so the same actions.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolScenarios } from '../testing/protocol-traces';
import { candidates, opcodeIndex } from './classify';
import { traceFromDocument } from './fixture';
import { MATCHERS } from './protocols';
import { ANY, TON } from './protocols/matcher';
import { buildTree } from './tree';
import { beginCell } from '@ton/core';
import { TraceBuilder } from '../testing/trace-builder';
import { WHALES } from './protocols/whales';

const DIR = path.join(__dirname, '../testing/fixtures/ton-actions/traces');
/** A wallet's one request of three messages: a comment, a whales deposit, a comment (one anchor, two opcodes, interleaved). */
function mixed() {
  const b = new TraceBuilder('candidates-mixed');
  const root = b.external(b.address());
  const comment = beginCell().storeUint(0, 32).storeStringTail('hello').endCell();
  b.send(root, b.address(), { body: comment });
  b.send(root, b.address(), { body: beginCell().storeUint(WHALES.deposit, 32).storeUint(1, 64).storeCoins(0).endCell() });
  b.send(root, b.address(), { body: comment });
  return { id: 'mixed opcodes of one anchor', input: b.input() };
}

const INPUTS = [
  mixed(),
  ...fs.readdirSync(DIR).sort().map((f) => ({ id: f, input: traceFromDocument(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'))) })),
  ...protocolScenarios().map((s) => ({ id: s.id, input: s.input })),
];

let merges = 0;

describe('multi-opcode anchors: merged lists equal the filter over every node', () => {
  for (const { id, input } of INPUTS) {
    it(id, () => {
      const { nodes } = buildTree(input.trace.transactions);
      nodes.forEach((n, i) => (n.pos = i));
      const index = opcodeIndex(nodes);
      for (const m of MATCHERS) {
        if (m.anchor === ANY || m.anchor === TON || m.anchor.length < 2) continue;
        const anchor = m.anchor;
        const filtered = nodes.filter((n) => n.opcode !== null && anchor.includes(n.opcode));
        expect(candidates(anchor, nodes, index, () => [])).toEqual(filtered);
        if (new Set(filtered.map((n) => n.opcode)).size > 1) merges++;
      }
    });
  }
  // The merge (nodes of several of an anchor's opcodes in one trace, order restored) is what is checked.
  it('some traces hold nodes of several opcodes of one anchor', () => {
    expect(merges).toBeGreaterThan(0);
  });
});
