// The configuration a get-method first runs with: the chain's, with the large parameters get-methods
// hardly ever read left out.
//
// Why: the emulator build @ton/sandbox ships parses the whole configuration BoC on every get-method run
// (run_get_method takes it as base64; there is no parsed-config object to keep). On mainnet (and in
// @ton/sandbox's default configuration, a mainnet snapshot) three validator sets (ConfigParams 32, 34 and
// 36, ~790 cells each) are ~100 of the config's ~115 KB, and of the rest the suspended addresses (44,
// ~360 cells), the bridges and the lists of mandatory parameters are most; parsing them is most of the
// ~2.8 ms a small get-method such as get_wallet_data takes (`npm run bench -- --only getters`).
// Get-methods almost never read them.
//
// How it stays exact: each parameter of LEFT_OUT is replaced by a library cell naming
// its own hash, a library no run is given. A run that reads such a parameter — loads the cell, even inside
// a TRY — fails to resolve the library, and the emulator reports it as the run's missing_library; a run
// that hands the cell back has it in its result stack. Either way (or any emulation error) the caller runs
// the method again with the full configuration and answers that. Left different: a get-method that takes
// a left-out parameter's hash, depth or size (HASHCU, CDEPTH, CDATASIZE) without reading it, or the
// configuration root's; no known contract does.
import { BitBuilder, Cell } from '@ton/core';
import { configDictCell, loadConfigDict } from '../ton/config';

/**
 * The parameters left out when present: the validator sets (32–37), the lists of mandatory and critical
 * parameters (9, 10), the suspended addresses (44) and the bridges (71–73, 79–82) — what only elections,
 * the config contract, transactions and the bridges read. A list, not "everything large": the emulator
 * parses some itself while it builds a get-method's context (the global version 8, the workchains 12,
 * the prices 18–25, the special accounts 31, the precompiled contracts 45; a library cell in any of those
 * makes it throw, and the worker must then be replaced), and a parameter added later may be one of those.
 */
const LEFT_OUT = [9, 10, 32, 33, 34, 35, 36, 37, 44, 71, 72, 73, 79, 80, 81, 82];

export interface GetterConfig {
  /** The configuration BoC (base64) with each parameter of LEFT_OUT replaced by a library cell. */
  config: string;
  /** The left-out parameters' hashes, upper-case hex as the emulator reports a missing library. */
  missing: ReadonlySet<string>;
  /** The same hashes as bytes, to find such a cell handed back in a result stack. */
  hashes: readonly Buffer[];
}

/** library#02 hash:bits256 — a reference to a library cell by its hash. */
function libraryCell(hash: Buffer): Cell {
  const bits = new BitBuilder(8 + 256);
  bits.writeUint(2, 8);
  bits.writeBuffer(hash);
  return new Cell({ exotic: true, bits: bits.build(), refs: [] });
}

/** The configuration without the parameters of LEFT_OUT, or undefined when it has none of them (or is not a config). */
export function withoutLeftOut(config: string): GetterConfig | undefined {
  let dict;
  try {
    dict = loadConfigDict(Cell.fromBase64(config));
  } catch {
    return undefined; // not a ConfigParams dictionary: the run gets it as given
  }
  const hashes: Buffer[] = [];
  for (const param of LEFT_OUT) {
    const value = dict.get(param);
    if (!value || value.isExotic) continue; // absent, or left out already
    hashes.push(value.hash());
    dict.set(param, libraryCell(value.hash()));
  }
  if (hashes.length === 0) return undefined;
  return {
    config: configDictCell(dict).toBoc().toString('base64'),
    missing: new Set(hashes.map((h) => h.toString('hex').toUpperCase())),
    hashes,
  };
}

const KEPT = 4;
// By the full configuration's text, most recently used last: a config changes at key blocks only.
const kept = new Map<string, GetterConfig | undefined>();

/** withoutLeftOut, remembered for the last few configurations. */
export function getterConfig(config: string): GetterConfig | undefined {
  if (kept.has(config)) {
    const found = kept.get(config);
    kept.delete(config);
    kept.set(config, found);
    return found;
  }
  const made = withoutLeftOut(config);
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
  kept.set(config, made);
  return made;
}

/** Whether a run with `slim` reached a left-out parameter: its answer is not the full config's. */
export function reachedLeftOut(slim: GetterConfig, missingLibrary: string | null | undefined, stack: string | undefined): boolean {
  if (missingLibrary && slim.missing.has(missingLibrary.toUpperCase())) return true;
  if (!stack) return false;
  const bytes = Buffer.from(stack, 'base64');
  return slim.hashes.some((h) => bytes.includes(h));
}
