// The ton-actions fixture cases (57 real mainnet traces with toncenter's expected actions), scored by
// the fixture README's rules: one test per case.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { classify } from './classify';
import { traceFromDocument } from './fixture';
import { toJson } from './json';
import { scoreExpected, type ExpectedAction, type Value } from './scoring';

const DIR = path.join(__dirname, '../testing/fixtures/ton-actions');

/** Case file trace ids are URL-safe base64; trace file names too. */
function loadTrace(id: string) {
  const doc = JSON.parse(fs.readFileSync(path.join(DIR, 'traces', `${id}.json`), 'utf8'));
  return traceFromDocument(doc);
}

export function scoreCase(traceId: string, expected: ExpectedAction[]): string[] {
  const { trace, interfaces } = loadTrace(traceId);
  const actions = classify(trace, interfaces).map((a) => toJson(a) as Value);
  return expected.map((e) => scoreExpected(e, actions)).filter((x): x is string => x !== null);
}

for (const file of fs.readdirSync(path.join(DIR, 'cases')).sort()) {
  const doc = parse(fs.readFileSync(path.join(DIR, 'cases', file), 'utf8'), { intAsBigInt: true }) as {
    cases: Record<string, { 'trace-id': string; 'expected-actions': ExpectedAction[] }>;
  };
  describe(file, () => {
    for (const [name, c] of Object.entries(doc.cases)) {
      it(name, () => {
        expect(scoreCase(c['trace-id'], c['expected-actions'])).toEqual([]);
      });
    }
  });
}
