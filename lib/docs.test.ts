// The docs stay true to the code: the README's folder table describes every lib/ folder and names none
// that is gone, and every lib/… path that a comment or a Markdown document names exists. A newcomer reads
// these before the code; a file moved or a folder added without them fails here instead of misleading.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', '.git', '.next', '.atlas', '.reports', 'test-results', 'playwright-report']);
/** Made at install (Prisma Client): its comments are Prisma's, not ours. */
const SKIP_PATHS = new Set(['lib/db/generated']);
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

/** The `lib/<folder>/` entries of the README's folder table (the table under `| Folder | What |`). */
function tableFolders(readme: string): string[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => /^\|\s*Folder\s*\|\s*What\s*\|/.test(l));
  if (start < 0) throw new Error('README has no `| Folder | What |` table');
  const folders: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const first = line.split('|')[1] ?? '';
    for (const m of first.matchAll(/`lib\/([\w-]+)\/`/g)) folders.push(m[1]!);
  }
  return folders;
}

/** Folders the table leaves out, and folders it names that do not exist. */
function folderDrift(readme: string, folders: string[]): { missing: string[]; extra: string[] } {
  const named = new Set(tableFolders(readme));
  return { missing: folders.filter((f) => !named.has(f)).sort(), extra: [...named].filter((f) => !folders.includes(f)).sort() };
}

/**
 * What a source file says to a reader: its comments (line and block) and, with `strings`, its string
 * literals too (an error message that cites a file). Tests' strings are fixtures (planted paths), not prose.
 */
function proseOf(source: string, strings: boolean): string[] {
  const out: string[] = [];
  // Strings and template literals are matched first, so that '//' in a URL is not taken for a comment.
  const token = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  for (const m of source.matchAll(token)) if (strings || m[0].startsWith('/')) out.push(m[0]);
  return out;
}

/** The lib/… paths a text names (a glob like lib/ton/fast-*.test.ts is not a path). */
function namedLibPaths(text: string): string[] {
  const paths: string[] = [];
  for (const m of text.matchAll(/(?<![\w@./-])lib\/[\w\-./[\]*]+/g)) {
    const p = m[0].replace(/[.,:;)\]]+$/, '');
    if (!p.includes('*')) paths.push(p);
  }
  return paths;
}

/** Whether a named path exists: `x/` a folder, `x.ts` (or .md …) a file, a bare `x` a module or a folder. */
function pathExists(root: string, p: string): boolean {
  const at = join(root, p);
  if (p.endsWith('/')) return existsSync(at) && statSync(at).isDirectory();
  if (/\.(tsx?|mjs|js|md|json|prisma|sql)$/.test(p)) return existsSync(at) && statSync(at).isFile();
  return ['', '.ts', '.tsx'].some((ext) => existsSync(at + ext));
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(ROOT, path);
    if (SKIP_DIRS.has(entry.name) || SKIP_PATHS.has(rel)) continue;
    if (entry.isDirectory()) yield* walk(path);
    else if (SOURCE.test(entry.name) || entry.name.endsWith('.md')) yield rel;
  }
}

/** Every lib/… path named in a comment (or a string, outside tests) or in a Markdown file, that does not exist. */
function stalePaths(root: string): string[] {
  const stale: string[] = [];
  for (const file of walk(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const parts = file.endsWith('.md') ? [text] : proseOf(text, !/\.test\.tsx?$/.test(file));
    for (const part of parts) for (const p of namedLibPaths(part)) if (!pathExists(root, p)) stale.push(`${file}: ${p}`);
  }
  return [...new Set(stale)].sort();
}

const libFolders = () =>
  readdirSync(join(ROOT, 'lib'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

describe('README folder table', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('describes every lib folder and names none that does not exist', () => {
    expect(folderDrift(readme, libFolders())).toEqual({ missing: [], extra: [] });
  });

  it('catches a folder missing from the table and a row for a folder that is gone', () => {
    const withoutTon = readme.replace(/^\| `lib\/ton\/` \|.*\n/m, '');
    expect(withoutTon).not.toBe(readme);
    const folders = tableFolders(readme);
    expect(folderDrift(withoutTon, folders)).toEqual({ missing: ['ton'], extra: [] });
    const withGhost = readme.replace(/^(\| `lib\/ton\/` \|.*\n)/m, '$1| `lib/ghost/` | gone |\n');
    expect(folderDrift(withGhost, folders)).toEqual({ missing: [], extra: ['ghost'] });
  });
});

describe('paths named in comments and documents', () => {
  it('every lib/… path a comment, a message or a Markdown file names exists', () => {
    expect(stalePaths(ROOT)).toEqual([]);
  });

  it('reads comments (and strings outside tests), and tells a stale path from a real one', () => {
    const source = [
      "// cites lib/api/test-chain.ts and lib/ton/address.ts; /* block: lib/pending/codec.ts */",
      "const fixture = 'lib/not-a-comment.ts'; const url = 'https://example.org/lib/x.ts';",
      '/** see lib/api/v3/queries/ and lib/ton/fast-*.test.ts */',
    ].join('\n');
    const named = proseOf(source, false).flatMap(namedLibPaths);
    expect(named).toEqual(['lib/api/test-chain.ts', 'lib/ton/address.ts', 'lib/pending/codec.ts', 'lib/api/v3/queries/']);
    expect(named.filter((p) => !pathExists(ROOT, p))).toEqual(['lib/api/test-chain.ts', 'lib/pending/codec.ts']);
    expect(proseOf(source, true).flatMap(namedLibPaths)).toContain('lib/not-a-comment.ts');
  });
});
