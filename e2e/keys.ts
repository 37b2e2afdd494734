// The API keys e2e specs use, made by e2e/create-keys.ts before `npm start` in the run's data directory.
import fs from 'node:fs';
import path from 'node:path';

export interface E2eKeys {
  /** v2 and v3, a generous rate. */
  full: string;
  /** v3 only, 2 requests per second. */
  v3Slow: string;
  /** For the specs that send thousands of requests from one address (fuzzing, hostile traffic): measured past the limiter. */
  load: string;
}

export const keysFile = (dataDir: string) => path.join(dataDir, 'e2e-keys.json');

export const e2eKeys = (): E2eKeys => JSON.parse(fs.readFileSync(keysFile(process.env.ATLAS_E2E_DATA_DIR!), 'utf8')) as E2eKeys;
