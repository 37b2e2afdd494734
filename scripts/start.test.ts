// The launcher's first job: refuse a bad configuration with one clear line and exit code 1.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    // Only PATH from outside, so no DATABASE_URL or PORT of the test run leaks in.
    env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('npm start with invalid configuration', () => {
  it.each([
    ['PORT', { PORT: 'abc' }],
    ['TON_NETWORK', { TON_NETWORK: 'moon' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['API_WORKERS', { API_WORKERS: 'all' }],
  ])('exits 1 with one line naming %s', (name, env) => {
    const r = start(env);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
  });
});
