// The folder import graph of the production code: which folder imports which, which imports point up the
// layer order (README "Architecture"), and which pairs of folders import each other. The lint rule
// (eslint.config.mjs, `import/no-restricted-paths`) enforces the same order file by file; this module
// measures it as a whole (`node --import tsx scripts/import-graph.ts`) and backs the test that no two lib
// folders import each other (lib/testing/import-graph.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The layer order, top first. An import may point to its own layer or any layer below it, never above.
 * Layers listed on one line are peers: they must not import each other either (a peer import is counted
 * as "sideways"), except where a folder is named in SIDEWAYS_ALLOWED.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['app'],
  ['components'],
  ['lib/client'],
  ['lib/server', 'lib/runtime', 'lib/boot', 'lib/health'],
  ['lib/format'],
  ['lib/stream'],
  ['lib/api'],
  ['lib/pending'],
  ['lib/indexer'],
  ['lib/chain', 'lib/actions', 'lib/metadata'],
  ['lib/ton', 'lib/lite', 'lib/tvm', 'lib/db', 'lib/http', 'lib/auth', 'lib/format'],
  ['lib/config', 'lib/log', 'lib/limits', 'lib/version'],
];

/** Folders outside the production layers: entry points, start-up wiring, the devnet, tests and tools. */
export const OUTSIDE_LAYERS = ['scripts', 'bench', 'e2e', 'lib/devnet', 'lib/testing', 'lib/fuzz'];

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP_DIRS = new Set(['node_modules', '.next', 'generated', '.atlas', 'test-results', 'playwright-report']);

/** The node a file belongs to: `lib/api/v2/x.ts` → `lib/api`, `lib/config.ts` → `lib/config`. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'lib') return parts[0];
  if (parts.length === 2) return `lib/${parts[1].replace(SOURCE, '')}`;
  return `lib/${parts[1]}`;
}

export function isTestFile(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || file.startsWith('lib/testing/') || file.startsWith('e2e/');
}

function walk(root: string, dir: string, out: string[]): void {
  for (const name of readdirSync(join(root, dir))) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const path = dir ? `${dir}/${name}` : name;
    if (statSync(join(root, path)).isDirectory()) walk(root, path, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
}

function resolveImport(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = relative(root, resolve(root, dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    try {
      if (statSync(join(root, candidate)).isFile()) return candidate.replace(/\\/g, '/');
    } catch {
      // not this candidate
    }
  }
  return null;
}

export interface FileImport {
  from: string;
  to: string;
}

/** Every resolved project-internal import (static, re-export and dynamic) of every source file. */
export function fileImports(root: string, dirs = ['app', 'components', 'lib', 'scripts', 'bench', 'e2e']): FileImport[] {
  const files: string[] = [];
  for (const dir of dirs) {
    try {
      walk(root, dir, files);
    } catch {
      // folder absent
    }
  }
  const out: FileImport[] = [];
  for (const from of files) {
    const info = ts.preProcessFile(readFileSync(join(root, from), 'utf8'), true, true);
    for (const ref of info.importedFiles) {
      const to = resolveImport(root, from, ref.fileName);
      if (to) out.push({ from, to });
    }
  }
  return out;
}

export function layerIndex(folder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder));
}

export interface GraphReport {
  edges: Map<string, Map<string, FileImport[]>>;
  upward: FileImport[];
  sideways: FileImport[];
  cycles: [string, string][];
}

/** Folder graph of production code (test files and tools left out), with upward/sideways imports and 2-cycles. */
export function folderGraph(imports: FileImport[]): GraphReport {
  const edges = new Map<string, Map<string, FileImport[]>>();
  const upward: FileImport[] = [];
  const sideways: FileImport[] = [];
  for (const imp of imports) {
    if (isTestFile(imp.from)) continue;
    const a = folderOf(imp.from);
    const b = folderOf(imp.to);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    const row = edges.get(a)!;
    row.set(b, [...(row.get(b) ?? []), imp]);
    const la = layerIndex(a);
    const lb = layerIndex(b);
    if (la < 0 || lb < 0) continue;
    if (lb < la) upward.push(imp);
    else if (lb === la) sideways.push(imp);
  }
  const cycles: [string, string][] = [];
  for (const [a, row] of edges) {
    for (const b of row.keys()) if (a < b && edges.get(b)?.has(a)) cycles.push([a, b]);
  }
  return { edges, upward, sideways, cycles };
}
