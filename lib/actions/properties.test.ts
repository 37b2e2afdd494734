// Properties of the classifier over arbitrary input: generated traces (any shape, real bodies of every
// opcode the fixtures hold, cut short or noise) and real traces damaged. It never throws, and no
// transaction falls out of the actions: each one is in some action's tx_hashes, except an external's
// (or tick-tock's) transaction whose messages reached no other transaction of the trace (an action
// needs a message between two transactions; a failed external's intended messages are actions, though).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../fuzz/rng';
import { damageTrace, poolOf, randomTrace } from '../testing/random-traces';
import type { Input } from '../testing/trace-mutations';
import { protocolScenarios } from '../testing/protocol-traces';
import { PROTOCOL_ADDRESSES } from './addresses';
import { classify } from './classify';
import { traceFromDocument } from './fixture';
import { toJson } from './json';

const DIR = path.join(__dirname, '../testing/fixtures/ton-actions/traces');
// The real traces and the synthetic protocol traces (flows the real ones hold no example of).
const REAL: Input[] = [
  ...fs
    .readdirSync(DIR)
    .sort()
    .map((f) => traceFromDocument(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')))),
  ...protocolScenarios().map((s) => s.input),
];
const POOL = poolOf(REAL, PROTOCOL_ADDRESSES);

/** Transactions no action holds, that should be held by one. */
function uncovered(input: Input): string[] {
  const actions = classify(input.trace, input.interfaces);
  // Every action serialises (no BoC or bigint the JSON layer cannot write).
  for (const a of actions) JSON.stringify(toJson(a));
  const covered = new Set(actions.flatMap((a) => a.tx_hashes));
  const delivered = new Set(input.trace.transactions.flatMap((t) => (t.inMsg ? [t.inMsg.hash] : [])));
  // An external (or tick-tock) start whose messages reached no transaction of the trace: no action has it.
  const silentStart = (t: (typeof input.trace.transactions)[number]) => (t.inMsg === null || t.inMsg.source === null) && !t.outMsgs.some((m) => delivered.has(m.hash));
  return input.trace.transactions.filter((t) => !covered.has(t.hash) && !silentStart(t)).map((t) => t.hash);
}

describe('generated traces: classified without throwing, every transaction in an action', () => {
  for (let batch = 0; batch < 10; batch++) {
    it(`batch ${batch}`, () => {
      const rng = seededRng(`generated:${batch}`);
      for (let i = 0; i < 100; i++) {
        const input = randomTrace(rng, POOL);
        expect(uncovered(input), `trace ${batch}/${i}`).toEqual([]);
      }
    });
  }
});

describe('real traces damaged: classified without throwing, every transaction in an action', () => {
  for (const [k, input] of REAL.entries()) {
    it(input.trace.traceId, () => {
      const rng = seededRng(`damaged:${k}`);
      expect(uncovered(input), 'undamaged').toEqual([]);
      for (let i = 0; i < 20; i++) {
        let damaged = damageTrace(input, rng, POOL);
        if (rng.chance(0.5)) damaged = damageTrace(damaged, rng, POOL);
        expect(uncovered(damaged), `damage ${i}`).toEqual([]);
      }
    });
  }
});
