// README's limits table is what clients read before they hit a limit: it must say what the code enforces.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits';

const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const table = readme.slice(readme.indexOf('### Input limits'), readme.indexOf('### API keys and rate limits'));

describe('README limits table', () => {
  it('names every limit with its value', () => {
    const shown = new Map([...table.matchAll(/\| ([^|]*?) \(`(\w+)`\) \|/g)].map((m) => [m[2]!, m[1]!]));
    expect([...shown.keys()].sort()).toEqual(Object.keys(LIMITS).sort());
    for (const [name, value] of Object.entries(LIMITS)) {
      const text = shown.get(name)!;
      const number = Number(/^[\d]+/.exec(text.replace(/\s/g, ''))?.[0]);
      const scaled = /KiB/.test(text) ? number * 1024 : /MiB/.test(text) ? number * 1024 * 1024 : number;
      expect([name, scaled]).toEqual([name, value]);
    }
  });
});
