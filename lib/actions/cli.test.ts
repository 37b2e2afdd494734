// `npm run classify -- FILE...`: one JSON object keyed by path, records with raw upper-case addresses
// and integers past 2^53 as decimal strings.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '../..');
const trace = (id: string) => `lib/testing/fixtures/ton-actions/traces/${id}.json`;

describe('npm run classify', () => {
  it('prints every given path with its action records', () => {
    const a = trace('5B6Ex8kvs5Qb8lcTKPbFhlz2yhVv7aUIvkvngzWK6dI=');
    const b = trace('Ugmymow0mpGDSuNUKC1YHkd28o7qceVvYtokZ--D-3E=');
    const out = JSON.parse(execFileSync('node', ['--import', 'tsx', 'scripts/classify.ts', a, b], { cwd: ROOT, encoding: 'utf8' }));
    expect(Object.keys(out)).toEqual([a, b]);
    const register = out[a].find((x: { type: string }) => x.type === 'cocoon_client_register');
    expect(register.source).toMatch(/^0:[0-9A-F]{64}$/);
    expect(register.cocoon_client_register_data.nonce).toBe('11924145372215500834'); // > 2^53: a string
    expect(register.start_lt).toBeTypeOf('number');
    expect(out[b]).toEqual([expect.objectContaining({ type: 'ton_transfer', success: false, value: 17192063 })]);
  });
  it('writes the whole JSON into a pipe read slower than it is written (every fixture trace, megabytes)', async () => {
    const dir = path.join(ROOT, 'lib/testing/fixtures/ton-actions/traces');
    const files = fs.readdirSync(dir).map((f) => path.join('lib/testing/fixtures/ton-actions/traces', f));
    const child = spawn('node', ['--import', 'tsx', 'scripts/classify.ts', ...files], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    // The reader starts late, like `| jq` still starting up: the writer fills the pipe's buffer first.
    child.stdout.pause();
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((r) => setTimeout(r, 1500));
    child.stdout.resume();
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(0);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.length).toBeGreaterThan(256 * 1024);
    expect(Object.keys(JSON.parse(text))).toHaveLength(files.length);
  }, 30_000);
  it('exits 1 with a message for an unreadable file', () => {
    expect(() => execFileSync('node', ['--import', 'tsx', 'scripts/classify.ts', 'no-such-file.json'], { cwd: ROOT, stdio: 'pipe' })).toThrow(/no-such-file/);
  });
});
