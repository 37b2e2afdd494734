// E2E runs against `npm start` (a real build, real server, real database) in Debian's Chromium; on
// machines without /usr/bin/chromium, Playwright's own browser is used.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { testScope } from './lib/testing/engine-scope';

// ATLAS_E2E_PORT lets several checkouts run their e2e suites side by side.
const PORT = Number(process.env.ATLAS_E2E_PORT ?? 3100);
const systemChromium = '/usr/bin/chromium';
const launchOptions = {
  executablePath: fs.existsSync(systemChromium) ? systemChromium : undefined,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};
// A fresh data directory per run, so the embedded database starts empty. Workers load this config
// again: they inherit the directory through the environment (tests read devnet/genesis.json there).
const dataDir = process.env.ATLAS_E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-e2e-'));
process.env.ATLAS_E2E_DATA_DIR = dataDir;

// ATLAS_TEST_SCOPE=engine (CI's PostgreSQL run, after a full run on PGlite) leaves out what checks
// presentation, which does not depend on the database engine (lib/testing/engine-scope.ts): the layout spec
// (overlaps, overflow, axe, screenshots) and the mobile project (the same pages at a phone's size; the
// server renders the same data for any browser). The desktop project still reads every page and API
// through the engine.
const engineOnly = testScope() === 'engine';
// shards.spec.ts starts an Atlas of its own (on PGlite whatever the suite's engine): the engine run would repeat it unchanged.
const desktop = { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions }, testIgnore: engineOnly ? ['**/layout.spec.ts', '**/shards.spec.ts'] : [] };
const mobile = { name: 'mobile', use: { ...devices['Pixel 7'], launchOptions }, testIgnore: /(api|fuzz|cors-clients)\.spec\.ts$/, grepInvert: /@desktop-only/ };

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.reports/playwright.json' }]],
  timeout: 30_000,
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'retain-on-failure', launchOptions },
  projects: engineOnly ? [desktop] : [desktop, mobile],
  webServer: {
    // The API keys the specs use are created first, in the same data directory (e2e/create-keys.ts).
    command: 'node --import tsx e2e/create-keys.ts && npm start',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    // A seeded devnet with fast blocks; ADNL on any free port so a developer's own `npm start` can keep running.
    // The default anonymous rate limit: the explorer's pages must work at it, so loopback (where the browser
    // runs) is limited here as a visitor's address would be (RATE_LIMIT_EXEMPT_LOOPBACK=off). Specs that send
    // thousands of requests (fuzzing, hostile traffic) use a key of their own (e2e/keys.ts).
    // LITE_VERIFY=on: every lite answer the pages, the APIs and the indexer read is checked against the devnet's
    // signed blocks, and the account page's live balance says "verified by proof" (e2e/explorer.spec.ts).
    // API_WORKERS=1: the specs count per-process budgets (a burst past a key's limit must meet a 429), and on
    // CI's PostgreSQL run several workers would each count their own; lib/cluster/cluster.test.ts covers the cluster.
    env: { API_WORKERS: '1', PORT: String(PORT), ATLAS_DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEVNET_SEED: 'atlas-e2e', DEVNET_BLOCK_MS: '1000', DEVNET_ADNL_PORT: '0', LITE_VERIFY: 'on', RATE_LIMIT_EXEMPT_LOOPBACK: 'off' },
  },
});
