import { expect, test } from '@playwright/test';
import { formatReport, runFuzz, saveReport } from '../lib/fuzz/run';
import { e2eKeys } from './keys';

// A fixed-seed fuzz run against the e2e server (the full-size run is `npm run bench -- --only fuzz`).
// HTTP-only: the mobile project ignores this file (playwright.config.ts).
const REQUESTS = 3000;

test('fuzzing: no unexpected 5xx, no request over 5 s, the indexer keeps advancing', async ({ request, baseURL }, info) => {
  test.setTimeout(150_000);
  // The indexer must be following the chain before its progress can be judged.
  await expect.poll(async () => (await (await request.get('/api/health')).json()).indexer, { timeout: 60_000 }).toMatch(/^ok: live at seqno \d+/);

  // Under the load key: the run measures the routes, not the anonymous limit of 127.0.0.1.
  const report = await runFuzz({ url: baseURL!, requests: REQUESTS, seed: 'npm-test', concurrency: 4, apiKey: e2eKeys().load });
  const text = formatReport(report, baseURL!, 20).join('\n');
  await info.attach('fuzz-report.txt', { body: text, contentType: 'text/plain' });
  // Every finding with its request, for replaying the ones the text above leaves out.
  saveReport(report, '.reports/fuzz-e2e.json');

  // A run answered mostly 429 would test the rate limiter only.
  expect(report.verdicts['limited'] ?? 0, `the e2e server rate-limited most of the fuzz run\n${text}`).toBeLessThan(REQUESTS / 2);
  expect(report.verdicts['ok'] ?? 0, text).toBeGreaterThan(REQUESTS / 10);
  expect(report.verdicts['unexpected 5xx'] ?? 0, text).toBe(0);
  expect(report.verdicts['hang'] ?? 0, text).toBe(0);
  expect(report.indexer?.advanced, text).toBe(true);
  expect(report.healthAfter, text).toBe('ok');
  expect(report.failures, text).toEqual([]);
});
