// `npm run classify -- FILE...`: classifies trace documents in the ton-actions fixture format
// (lib/testing/fixtures/ton-actions/README.md) and prints one JSON object mapping each path to its
// action records (addresses raw upper case; integers as JSON numbers up to 2^53, decimal strings beyond).
import fs from 'node:fs';
import { classify } from '../lib/actions/classify';
import { traceFromDocument } from '../lib/actions/fixture';
import { toJson, type Json } from '../lib/actions/json';
import { installFastTonCore } from '../lib/ton/fast-core';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: npm run classify -- FILE...\n');
  process.exit(2);
}
installFastTonCore();
const out: Record<string, Json> = {};
let failed = false;
for (const file of files) {
  try {
    const { trace, interfaces } = traceFromDocument(JSON.parse(fs.readFileSync(file, 'utf8')));
    out[file] = classify(trace, interfaces).map(toJson);
  } catch (e) {
    process.stderr.write(`${file}: ${(e as Error).message}\n`);
    failed = true;
  }
}
// No process.exit after the write: through a pipe stdout drains asynchronously, and exiting would cut
// the JSON off at the pipe's buffer. The exit code is set instead and the process ends once it drained.
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
process.exitCode = failed ? 1 : 0;
