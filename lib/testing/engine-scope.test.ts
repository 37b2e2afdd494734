// The rule that decides what CI's PostgreSQL run repeats (ATLAS_TEST_SCOPE=engine): on small projects
// made here, each way a test can reach the database module, and on this repository, every test that opens a
// database the known ways.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineDependentTests, findTestFiles, testScope } from './engine-scope';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'atlas-scope-'));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('engineDependentTests', () => {
  it('follows static, dynamic, re-exported, aliased and index imports through helpers and cycles to lib/db/database.ts', () => {
    const root = project({
      'lib/db/database.ts': 'export const openDatabase = () => 1;\n',
      'lib/db/index.ts': "export * from './database';\n",
      'lib/codec.ts': 'export const decode = (x: string) => x;\n',
      'lib/testing/helper.ts': "import { openDatabase } from '../db/database';\nexport const open = openDatabase;\n",
      'lib/cycle-a.ts': "import { b } from './cycle-b';\nexport const a = () => b;\n",
      'lib/cycle-b.ts': "import { a } from './cycle-a';\nimport { decode } from './codec';\nimport { open } from './testing/helper';\nexport const b = () => [a, decode, open];\n",
      'lib/helper.test.ts': "import { open } from './testing/helper';\nopen();\n",
      'lib/dynamic.test.ts': "it('x', async () => {\n  const { openDatabase } = await import('./db/database');\n  openDatabase();\n});\n",
      'lib/db/index.test.ts': "import { openDatabase } from '.';\nopenDatabase();\n",
      'lib/alias.test.ts': "import { openDatabase } from '@/lib/db/database';\nopenDatabase();\n",
      'lib/cycle.test.ts': "import { a } from './cycle-a';\na();\n",
      'lib/required.test.ts': "const db = require('./db/database');\ndb.openDatabase();\n",
      'lib/codec.test.ts': "import { decode } from './codec';\ndecode('x');\n",
      'lib/types-only.test.ts': "import type { openDatabase } from './db/database';\nexport type { openDatabase } from './db/database';\nlet f: typeof openDatabase;\n",
      'lib/package.test.ts': "import pg from 'pg';\nvoid pg;\n",
    });
    const tests = findTestFiles(root, []);
    expect(engineDependentTests(root, tests).sort()).toEqual(
      ['lib/alias.test.ts', 'lib/cycle.test.ts', 'lib/db/index.test.ts', 'lib/dynamic.test.ts', 'lib/helper.test.ts', 'lib/required.test.ts'].sort(),
    );
  });

  it('counts a test that names the engine variable itself (a process it starts inherits the engine)', () => {
    const root = project({
      'lib/db/database.ts': 'export {};\n',
      'lib/child.test.ts': "spawn('node', ['x.js'], { env: { DATABASE_URL: url } });\n",
      'lib/config.test.ts': 'expect(config().databaseUrl).toBeUndefined();\n',
      'lib/other.test.ts': "expect(parse('DATABASE_URLS')).toBe(1);\n",
    });
    expect(engineDependentTests(root, findTestFiles(root, [])).sort()).toEqual(['lib/child.test.ts', 'lib/config.test.ts']);
  });

  it('in this repository: every test that opens a database, a fixture database or a test chain depends on the engine; a codec test does not', () => {
    const root = path.resolve(__dirname, '../..');
    const tests = findTestFiles(root, ['e2e']);
    const dependent = new Set(engineDependentTests(root, tests));
    const opening = tests.filter((f) => /\b(createTestDatabase|createScratchDatabase|fixtureDatabase|openDatabase|startTestChain)\(/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(opening.length).toBeGreaterThan(40);
    expect(opening.filter((f) => !dependent.has(f))).toEqual([]);
    expect(dependent.has('lib/ton/boc.test.ts')).toBe(false);
    expect(dependent.has('lib/devnet/chain.test.ts')).toBe(false);
  });
});

describe('findTestFiles', () => {
  it('lists *.test.ts files, leaving out the given top-level directories, node_modules and dot-directories', () => {
    const root = project({
      'lib/a.test.ts': '',
      'lib/a.ts': '',
      'lib/deep/b.test.ts': '',
      'lib/node_modules/x/c.test.ts': '',
      '.next/d.test.ts': '',
      'e2e/e.test.ts': '',
      'scripts/f.test.ts': '',
    });
    expect(findTestFiles(root, ['e2e'])).toEqual(['lib/a.test.ts', 'lib/deep/b.test.ts', 'scripts/f.test.ts']);
  });
});

describe('testScope', () => {
  it('is all unless ATLAS_TEST_SCOPE says engine, and refuses anything else', () => {
    expect(testScope({})).toBe('all');
    expect(testScope({ ATLAS_TEST_SCOPE: '' })).toBe('all');
    expect(testScope({ ATLAS_TEST_SCOPE: 'all' })).toBe('all');
    expect(testScope({ ATLAS_TEST_SCOPE: 'engine' })).toBe('engine');
    expect(() => testScope({ ATLAS_TEST_SCOPE: 'postgres' })).toThrow('Invalid ATLAS_TEST_SCOPE="postgres": expected "all" or "engine"');
  });
});
