import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { longFunctions } from './function-length';

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('function-length check', () => {
  const root = mkdtempSync(join(tmpdir(), 'atlas-fnlen-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'lib/x'), { recursive: true });
  mkdirSync(join(root, 'lib/db/generated'), { recursive: true });
  // 3 lines of frame + the body: 148 → 150 lines (allowed), 149 → 151 lines (too long).
  writeFileSync(join(root, 'lib/x/ok.ts'), `export function fits() {\n${body(148)}\n}\n`);
  writeFileSync(
    join(root, 'lib/x/long.ts'),
    `export const handler = () => {\n${body(149)}\n};\nclass Chain {\n  #seal() {\n${body(160)}\n  }\n}\n`,
  );
  writeFileSync(join(root, 'lib/x/long.test.ts'), `describe('x', () => {\n${body(300)}\n});\n`);
  writeFileSync(join(root, 'lib/db/generated/client.ts'), `export function gen() {\n${body(300)}\n}\n`);

  it('lists functions, methods and arrows over 150 lines, longest first, with their names and places', () => {
    expect(longFunctions(root)).toEqual([
      { file: 'lib/x/long.ts', line: 153, name: 'Chain.#seal', lines: 162 },
      { file: 'lib/x/long.ts', line: 1, name: 'handler', lines: 151 },
    ]);
  });
});
