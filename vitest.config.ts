import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { engineDependentTests, findTestFiles, testScope } from './lib/testing/engine-scope';

// Tests that compare @ton/core's own code with the fast versions Atlas installs over it: each needs a
// fresh copy of @ton/core (the original still in place when it starts), so they run isolated.
const PATCHES_TON_CORE = ['lib/ton/fast-*.test.ts'];
const NOT_TEST_DIRS = ['node_modules', 'e2e', '.next', '.atlas'];
const NOT_TESTS = NOT_TEST_DIRS.map((d) => `${d}/**`);
const TESTS = ['**/*.test.ts'];

// ATLAS_TEST_SCOPE=engine (CI's PostgreSQL run, after a full run on PGlite): only the test files that
// depend on the database engine, by lib/testing/engine-scope.ts's rule (their imports reach
// lib/db/database.ts, or they name DATABASE_URL); the rest runs the same on any engine and ran already.
const root = fileURLToPath(new URL('./', import.meta.url));
const engineOnly = testScope() === 'engine';
const engineTests = () => engineDependentTests(root, findTestFiles(root, NOT_TEST_DIRS));

export default defineConfig({
  resolve: { alias: { '@': root } },
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
        // With @ton/core's fast paths installed at start, as every production entry point does.
        test: {
          name: 'unit',
          include: engineOnly ? engineTests() : TESTS,
          exclude: [...NOT_TESTS, ...PATCHES_TON_CORE],
          isolate: false,
          setupFiles: ['./lib/testing/vitest-setup.ts'],
        },
      },
      // The @ton/core patches read no database: not in the engine scope.
      ...(engineOnly ? [] : [{ extends: true as const, test: { name: 'ton-core-patches', include: PATCHES_TON_CORE, isolate: true } }]),
    ],
  },
});
