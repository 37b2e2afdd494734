// The folder import graph of the production code: which folder imports which, which imports point up the
// layer order (lib/layers.json, README "Architecture"), and which pairs of folders import each other. The
// lint rule (eslint.config.mjs, `import/no-restricted-paths`) enforces the same order file by file; this
// module measures it as a whole (`node --import tsx scripts/import-graph.ts`) and backs the test that no
// two lib folders import each other (lib/testing/layers.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import layers from '../layers.json';
import { resolveLocal } from './engine-scope';

/** The layer order, top first (lib/layers.json, which eslint.config.mjs enforces): imports point down only. */
export const LAYERS: readonly (readonly string[])[] = layers.order;

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP_DIRS = new Set(['node_modules', '.next', 'generated', '.atlas', 'test-results', 'playwright-report']);

/** The node a file belongs to: `lib/api/v2/<file>` → `lib/api`, `lib/config.ts` → `lib/config`. */
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
      const to = resolveLocal(root, from, ref.fileName);
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

/**
 * The directory a file is in (a file of `lib/api/v3/routes/` → that folder): the finest grain of folder.
 * A module directly under lib/ (lib/config.ts) is a node of its own, as with folderOf.
 */
export function directoryOf(file: string): string {
  const dir = file.slice(0, Math.max(0, file.lastIndexOf('/')));
  return dir === 'lib' ? folderOf(file) : dir || file;
}

/**
 * Folder graph of production code (test files and tools left out), with upward/sideways imports and
 * 2-cycles. `nodeOf` picks the grain: top-level folders (the layers) by default, or every directory.
 */
export function folderGraph(imports: FileImport[], nodeOf: (file: string) => string = folderOf): GraphReport {
  const edges = new Map<string, Map<string, FileImport[]>>();
  const upward: FileImport[] = [];
  const sideways: FileImport[] = [];
  for (const imp of imports) {
    if (isTestFile(imp.from)) continue;
    const a = nodeOf(imp.from);
    const b = nodeOf(imp.to);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    const row = edges.get(a)!;
    row.set(b, [...(row.get(b) ?? []), imp]);
    const la = layerIndex(folderOf(imp.from));
    const lb = layerIndex(folderOf(imp.to));
    if (la === lb && folderOf(imp.from) === folderOf(imp.to)) continue;
    if (la < 0 || lb < 0) continue;
    if (lb < la) upward.push(imp);
    else if (lb === la) sideways.push(imp);
  }
  // Pairs inside one top-level folder (lib/api/v3 ⇄ lib/api/v3/routes) are that folder's own business.
  const top = (node: string) => folderOf(`${node}/_`);
  const cycles: [string, string][] = [];
  for (const [a, row] of edges) {
    for (const b of row.keys()) if (a < b && top(a) !== top(b) && edges.get(b)?.has(a)) cycles.push([a, b]);
  }
  return { edges, upward, sideways, cycles };
}
