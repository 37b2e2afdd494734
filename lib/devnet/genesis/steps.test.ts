import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENESIS_STEPS } from './steps';

describe('GENESIS_STEPS', () => {
  it("are the steps README.md's table describes, in its order", () => {
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('| step | accounts'));
    const rows = table.split('\n').slice(2).filter((l) => l.startsWith('| '));
    const described = rows.map((l) => l.split(' | ')[0].slice(2).trim());
    expect(GENESIS_STEPS.map((s) => s.name)).toEqual(described);
  });
});
