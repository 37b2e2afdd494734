import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests that compare @ton/core's own code with the fast versions Atlas installs over it: each needs a
// fresh copy of @ton/core (the original still in place when it starts), so they run isolated.
const PATCHES_TON_CORE = ['lib/ton/fast-*.test.ts'];
const NOT_TESTS = ['node_modules/**', 'e2e/**', '.next/**', '.atlas/**'];

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    exclude: NOT_TESTS,
    environment: 'node',
    // Two cores: keep parallelism modest; integration tests share PostgreSQL.
    maxWorkers: 2,
    // The JSON report lets .ci/run add up every suite's counts.
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
    // Generous: suites start real devnets and databases, and CI runs them on two busy cores.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        // The rest share each worker's module cache: importing the TVM, Prisma and the TL schemas once per
        // worker rather than once per file halves the suite's time. Test files keep no state in modules
        // they share (each opens its own database, devnet and server).
        test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...NOT_TESTS, ...PATCHES_TON_CORE], isolate: false },
      },
      { extends: true, test: { name: 'ton-core-patches', include: PATCHES_TON_CORE, isolate: true } },
    ],
  },
});
