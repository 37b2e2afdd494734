/**
 * What of `npm test` depends on the database engine. CI runs `npm test` twice, on PGlite and on
 * PostgreSQL; the second run sets ATLAS_TEST_SCOPE=engine and repeats only what can come out differently
 * on another engine, the first having run everything:
 *
 * - vitest: the test files whose imports reach lib/db/database.ts, the only code that opens a database
 *   (createTestDatabase, the API, the indexer and the scripts all go through it, and it is where
 *   DATABASE_URL picks the engine), or that name DATABASE_URL or databaseUrl themselves (a process such a
 *   test starts inherits the engine). Imports are followed through every module of the project, static
 *   and dynamic; type-only ones load nothing and are not followed. The rest (codecs, the devnet, the lite
 *   client, …) runs the same on either engine.
 * - Lint and typecheck read the sources, not a database.
 * - Playwright: the layout spec and the mobile project. Both check presentation (overlaps, overflow, axe,
 *   screenshots; the same pages at a phone's size), and the server renders the same data for any browser;
 *   the desktop project still reads every page kind and API through the engine. And the shards spec, which
 *   starts an Atlas of its own on PGlite whatever the engine.
 *
 * vitest.config.ts, playwright.config.ts and scripts/test-static.ts read the scope from here.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TypeScript from 'typescript';

// The TypeScript parser finds the imports; loaded only when the engine scope is asked for (the configs
// import this module on every run).
const load = createRequire(import.meta.url);

export type TestScope = 'all' | 'engine';

/** ATLAS_TEST_SCOPE: unset or `all` runs everything; `engine` what depends on the database engine. */
export function testScope(env: Record<string, string | undefined> = process.env): TestScope {
  const v = env.ATLAS_TEST_SCOPE ?? '';
  if (v === '' || v === 'all') return 'all';
  if (v === 'engine') return 'engine';
  throw new Error(`Invalid ATLAS_TEST_SCOPE="${v}": expected "all" or "engine"`);
}

/** The module that opens databases (see the header). */
const DATABASE_MODULE = 'lib/db/database.ts';
const NAMES_THE_ENGINE = /\bDATABASE_URL\b|\bdatabaseUrl\b/;

/**
 * Which of `testFiles` (paths relative to `root`) depend on the database engine, by the rule of the
 * header. `root` is the project: '@/x' imports resolve to `root/x`, as tsconfig.json's paths say.
 */
export function engineDependentTests(root: string, testFiles: string[]): string[] {
  const imports = new Map<string, string[]>();
  const importsOf = (file: string): string[] => {
    let found = imports.get(file);
    if (!found) {
      found = localImports(root, file);
      imports.set(file, found);
    }
    return found;
  };
  const reachesDatabase = (test: string): boolean => {
    const seen = new Set([test]);
    const todo = [test];
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
      if (file === DATABASE_MODULE) return true;
      for (const next of importsOf(file)) {
        if (seen.has(next)) continue;
        seen.add(next);
        todo.push(next);
      }
    }
    return false;
  };
  return testFiles.filter((f) => NAMES_THE_ENGINE.test(fs.readFileSync(path.join(root, f), 'utf8')) || reachesDatabase(f));
}

/**
 * The `*.test.ts` files under `root` (paths relative to it), leaving out the top-level directories `skip`,
 * every node_modules and every dot-directory.
 */
export function findTestFiles(root: string, skip: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.') && !skip.includes(rel)) walk(rel);
      } else if (entry.name.endsWith('.test.ts')) {
        found.push(rel);
      }
    }
  };
  walk('');
  return found.sort();
}

/** The project files `file` loads (relative to root): import/export … from, import(), require(); packages left out. */
function localImports(root: string, file: string): string[] {
  const ts = load('typescript') as typeof TypeScript;
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const visit = (node: TypeScript.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && !node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) specifiers.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((s) => resolveLocal(root, file, s)).filter((f): f is string => f !== undefined);
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx'];

/** The project file (relative to `root`) that `specifier` in `from` names; undefined for packages and built-ins. */
export function resolveLocal(root: string, from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (/^\.\.?(\/|$)/.test(specifier)) base = path.join(path.dirname(from), specifier);
  else return undefined; // a package or a node: built-in
  for (const ext of EXTENSIONS) {
    const candidate = path.normalize(base + ext);
    const full = path.join(root, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return candidate.split(path.sep).join('/');
  }
  return undefined;
}
