/**
 * The devnet's own contracts written in Tolk (./dns, ./stablecoin, ./auction, ./multisig): compiled at run time with
 * @ton/tolk-js, once per process per source; nothing compiled is stored in the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTolkCompiler } from '@ton/tolk-js';
import { Cell } from '@ton/core';

/**
 * Where the .tolk sources of `subdir` are: next to this module, or (when a bundler has moved the module,
 * as Next.js does) under the project root in lib/devnet/contracts/<subdir>. `probe` is a file that must be there.
 */
export function tolkSourceDir(subdir: string, probe: string): string {
  const candidates: string[] = [];
  try {
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), subdir));
  } catch {
    // import.meta.url is not a file: URL under some bundlers
  }
  candidates.push(path.join(process.cwd(), 'lib', 'devnet', 'contracts', subdir));
  const found = candidates.find((dir) => existsSync(path.join(dir, probe)));
  if (!found) throw new Error(`Tolk sources of ${subdir} not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * Compile `entry` (imports resolved in `sourceDir`) to its code cell. `generated` holds sources made at
 * run time (name → text, e.g. a compiled cell another contract embeds); they take precedence over files.
 */
export async function compileTolk(sourceDir: string, entry: string, generated: Record<string, string> = {}): Promise<Cell> {
  const result = await runTolkCompiler({
    entrypointFileName: entry,
    fsReadCallback: (p) => generated[p] ?? readFileSync(path.join(sourceDir, p), 'utf8'),
  });
  if (result.status !== 'ok') throw new Error(`tolk: ${entry}: ${result.message}`);
  return Cell.fromBase64(result.codeBoc64);
}

/**
 * A per-process cache of one compilation: the first call compiles, later calls share the result (with
 * compileMs 0); a failed compilation is retried by the next call.
 */
export function cachedCompilation<T extends { compileMs: number }>(compile: () => Promise<Omit<T, 'compileMs'>>): () => Promise<T> {
  let compiled: Promise<T> | null = null;
  return () => {
    if (compiled) return compiled.then((c) => ({ ...c, compileMs: 0 }));
    const started = performance.now();
    compiled = compile().then((c) => ({ ...c, compileMs: Math.round(performance.now() - started) }) as T);
    compiled.catch(() => {
      compiled = null;
    });
    return compiled;
  };
}
