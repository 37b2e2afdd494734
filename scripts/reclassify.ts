// `npm run reclassify`: re-classifies the stored traces an older classifier (or none) produced, in
// batches, logging progress. Safe to interrupt and run again: it resumes with the traces still stale.
import { CLASSIFIER_VERSION } from '../lib/actions/model';
import { configuredTarget, openDatabase } from '../lib/db/database';
import { migrate } from '../lib/db/migrate';
import { reclassify } from '../lib/indexer/reclassify';
import { installFastTonCore } from '../lib/ton/fast-core';
import { loadConfigOrExit } from './cli';

const cfg = loadConfigOrExit();
installFastTonCore();
const db = await openDatabase(configuredTarget(cfg));
let code = 0;
try {
  await migrate(db);
  const started = Date.now();
  const done = await reclassify(db.prisma, {
    onBatch: ({ done, total }) => console.log(`atlas reclassify: ${done} of ${total} traces (classifier version ${CLASSIFIER_VERSION})`),
  });
  console.log(`atlas reclassify: ${done} traces re-classified in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  console.error(`atlas reclassify: ${(err as Error).message}`);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
