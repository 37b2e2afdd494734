// `npm run lint:functions`: every function, method, accessor, constructor and arrow in lib/ longer than
// MAX_LINES lines, longest first; exits 1 when there is one. The project guide asks for functions short
// enough to read on one screen; eslint's max-lines-per-function counts differently (it skips nested
// functions' lines only by option, and names arrows poorly), so this reads the syntax tree itself.
// Left out: generated code (lib/db/generated, *.gen.ts) and test files, whose describe() callbacks are lists of
// cases rather than rooms of logic.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_LINES = 150;
const GENERATED = ['lib/db/generated'];

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (GENERATED.includes(path)) continue;
    if (entry.isDirectory()) out.push(...sourceFiles(root, path));
    else if (/\.tsx?$/.test(entry.name) && !/\.(test|d|gen)\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

type FunctionNode = ts.FunctionLikeDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

// The name a reader would search for: the declared one, else the variable, property or class member the
// function is assigned to, else the call it is passed to.
function nameOf(node: FunctionNode, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return `${className(node)}constructor`;
  if (node.name) return `${ts.isClassElement(node) ? className(node) : ''}${node.name.getText(file)}`;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(file);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(file).slice(0, 40)})`;
  return '(anonymous)';
}

function className(node: ts.Node): string {
  const cls = node.parent;
  return ts.isClassLike(cls) && cls.name ? `${cls.name.text}.` : '';
}

export function longFunctions(root: string, maxLines = MAX_LINES): LongFunction[] {
  const found: LongFunction[] = [];
  for (const path of sourceFiles(root, 'lib')) {
    const text = readFileSync(join(root, path), 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (isFunction(node) && node.body) {
        const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > maxLines) found.push({ file: path, line: start + 1, name: nameOf(node, file), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const long = longFunctions(root);
  for (const f of long) console.log(`${String(f.lines).padStart(4)} lines  ${f.file}:${f.line}  ${f.name}`);
  if (long.length > 0) {
    console.log(`${long.length} function(s) in lib/ over ${MAX_LINES} lines: split them into named parts`);
    process.exit(1);
  }
  console.log(`no function in lib/ over ${MAX_LINES} lines`);
}
