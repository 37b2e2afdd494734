import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'e2e/**', '.next/**', '.atlas/**'],
    environment: 'node',
    // Two cores: keep parallelism modest; integration tests share PostgreSQL.
    maxWorkers: 2,
    // The JSON report lets .ci/run add up every suite's counts.
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
    // Generous: suites start real devnets and databases, and CI runs them on two busy cores.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
