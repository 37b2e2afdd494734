// Classifier throughput: every fixture trace (lib/testing/fixtures/ton-actions/traces) classified over
// and over on one core, bodies parsed each time (the input is what the index stores: BoC bytes).
import fs from 'node:fs';
import path from 'node:path';
import { classify } from '../lib/actions/classify';
import { traceFromDocument } from '../lib/actions/fixture';
import type { BenchResult } from './support';

export function benchClassify(seconds = 5): BenchResult[] {
  const dir = path.resolve('lib/testing/fixtures/ton-actions/traces');
  const docs = fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  const inputs = () => docs.map(traceFromDocument); // fresh inputs: no parsed body carried over
  for (const { trace, interfaces } of inputs()) classify(trace, interfaces); // warm up
  let traces = 0;
  let txs = 0;
  let spent = 0;
  while (spent < seconds * 1000) {
    const batch = inputs();
    const t0 = performance.now();
    for (const { trace, interfaces } of batch) {
      classify(trace, interfaces);
      txs += trace.transactions.length;
    }
    spent += performance.now() - t0;
    traces += batch.length;
  }
  const s = spent / 1000;
  return [{ name: 'classify', value: +(traces / s).toFixed(0), unit: 'traces/s', note: `${docs.length} fixture traces, ${(txs / s).toFixed(0)} tx/s` }];
}
