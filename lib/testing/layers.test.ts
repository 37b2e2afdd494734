// The direction of dependencies is enforced, not hoped for: the lint rule (eslint.config.mjs, from
// lib/layers.json) fails on an import planted against it, and the code as it is has no upward import and no
// two folders importing each other.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { directoryOf, fileImports, folderGraph, folderOf } from './import-graph';

const root = join(import.meta.dirname, '../..');
const planted: string[] = [];

/** Writes `source` to a new file in `dir` (relative to the root; `name`, a random tag, `ext`), lints it, and removes it afterwards. */
async function lintPlanted(dir: string, name: string, ext: string, source: string): Promise<string[]> {
  const file = join(root, dir, `${name}-${randomBytes(4).toString('hex')}${ext}`);
  planted.push(file);
  writeFileSync(file, source);
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const restricted = (messages: string[]) => messages.filter((m) => m.startsWith('import/no-restricted-paths'));

afterAll(() => {
  for (const file of planted) rmSync(file, { force: true });
});

describe('the layer rule (eslint import/no-restricted-paths over lib/layers.json)', () => {
  it('fails on an upward import, relative or through the @/ alias', async () => {
    const source = `import { v2Error } from '../api/v2/envelope';\nimport { services } from '@/lib/runtime';\nexport const planted = [v2Error, services];\n`;
    const messages = restricted(await lintPlanted('lib/ton', 'planted-upward', '.ts', source));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('"../api/v2/envelope" imported in restricted zone. lib/ton may import only the layers below it');
    expect(messages[1]).toContain('"@/lib/runtime" imported in restricted zone');
  }, 120_000);

  it('fails on an import between peers, into test code, and into the devnet from outside the wiring', async () => {
    const peer = await lintPlanted('lib/db', 'planted-peer', '.ts', `import { LIMITS } from '../limits';\nimport { applyCors } from '../http/cors';\nexport const x = [LIMITS, applyCors];\n`);
    expect(restricted(peer)).toEqual([expect.stringContaining('"../http/cors" imported in restricted zone. lib/db may import only')]);
    const tools = await lintPlanted('lib/api', 'planted-tools', '.ts', `import { startDevnet } from '../devnet';\nimport { testApi } from '../testing/api';\nexport const x = [startDevnet, testApi];\n`);
    expect(restricted(tools)).toHaveLength(2);
    const devnet = await lintPlanted('lib/devnet', 'planted-devnet', '.ts', `import { LIMITS } from '../limits';\nimport { accountAt } from '../chain/account-state';\nexport const x = [LIMITS, accountAt];\n`);
    expect(restricted(devnet)).toEqual([expect.stringContaining('"../chain/account-state" imported in restricted zone. lib/devnet is a chain of its own')]);
  }, 120_000);

  it('lets imports point down, and lets tests import anything', async () => {
    const down = await lintPlanted('lib/api', 'planted-down', '.ts', `import { accountAt } from '../chain/account-state';\nimport { LIMITS } from '@/lib/limits';\nexport const x = [accountAt, LIMITS];\n`);
    expect(restricted(down)).toEqual([]);
    const test = await lintPlanted('lib/ton', 'planted-up', '.test.ts', `import { v2Error } from '../api/v2/envelope';\nexport const x = v2Error;\n`);
    expect(restricted(test)).toEqual([]);
  }, 120_000);
});

describe('the import graph of the production code', () => {
  const imports = fileImports(root);

  it('has no upward or sideways import between layers', () => {
    const report = folderGraph(imports);
    expect(report.upward.map((i) => `${i.from} → ${i.to}`)).toEqual([]);
    expect(report.sideways.map((i) => `${i.from} → ${i.to}`)).toEqual([]);
  });

  it('has no two folders that import each other, as layers or directory by directory', () => {
    expect(folderGraph(imports, folderOf).cycles).toEqual([]);
    expect(folderGraph(imports, directoryOf).cycles).toEqual([]);
  });
});
