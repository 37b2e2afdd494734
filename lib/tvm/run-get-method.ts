// A get-method run in the emulator a TVM worker (worker.ts) owns, with the job's BoCs handed over as
// they came and the configuration kept in the emulator's heap.
import { Address, serializeTuple } from '@ton/core';
import type { Executor, ExecutorGetMethodResult, ExecutorVerbosity } from '@ton/sandbox';
import { getterConfig, reachedLeftOut } from './getter-config';
import type { GetMethodJob } from './jobs';

// Get-methods and the config in the emulator's memory. The emulator build @ton/sandbox ships exports
// only run_get_method(params, stack, config) for get-methods (no tvm_emulator_* nor a parsed-config
// object), so it parses the config BoC on every run. Two things save CPU: a smaller config to parse
// (getter-config.ts), and handing it over once: as a JS string (~150 KB on mainnet) it is UTF-8
// encoded into the WebAssembly heap on every call, ~2 ms of CPU a run. So each config is copied into
// this worker's emulator heap once and the run gets its address: Executor.invoke passes numbers to the
// emulator as they are (pointers) and strings as copies.

/** The parts of the emscripten module inside Executor (a private field) used to keep a config in its heap. */
interface EmulatorHeap {
  _malloc(size: number): number;
  _free(ptr: number): void;
  lengthBytesUTF8(s: string): number;
  stringToUTF8(s: string, ptr: number, size: number): void;
}

// Each configuration a worker runs with comes as two: whole and without its rarely read parameters (getter-config.ts).
const CONFIGS_PINNED = 8;
// Configs in each emulator's heap, by their base64 BoC, most recently used last.
const pinnedIn = new WeakMap<Executor, Map<string, number>>();

function emulatorHeap(ex: Executor): EmulatorHeap | undefined {
  const heap = (ex as unknown as { module?: Partial<EmulatorHeap> }).module;
  return typeof heap?._malloc === 'function' && typeof heap._free === 'function' && typeof heap.stringToUTF8 === 'function'
    ? (heap as EmulatorHeap)
    : undefined;
}

/** The address of `config` as a C string in the emulator's heap (copied on first use), or the string itself. */
function pinConfig(ex: Executor, config: string): string {
  const heap = emulatorHeap(ex);
  if (!heap) return config; // another executor build: hand the string over as Executor does
  let pinned = pinnedIn.get(ex);
  if (!pinned) pinnedIn.set(ex, (pinned = new Map()));
  let ptr = pinned.get(config);
  if (ptr === undefined) {
    const size = heap.lengthBytesUTF8(config) + 1;
    ptr = heap._malloc(size);
    heap.stringToUTF8(config, ptr, size);
    if (pinned.size >= CONFIGS_PINNED) {
      const [oldest, at] = pinned.entries().next().value!;
      pinned.delete(oldest);
      heap._free(at);
    }
  } else {
    pinned.delete(config);
  }
  pinned.set(config, ptr);
  return ptr as unknown as string; // Executor passes numbers through to the emulator untouched
}

/** Executor's verbosity numbers (its verbosityToNum). */
const VERBOSITY: Record<ExecutorVerbosity, number> = { short: 0, full: 1, full_location: 2, full_location_gas: 3, full_location_stack: 4, full_location_stack_verbose: 5 };
const EMPTY_STACK = serializeTuple([]).toBoc().toString('base64');
const ZERO_SEED = '00'.repeat(32);

/** Executor's private string reader: the emulator's C string at `ptr`, freed. */
const extractString = (ex: Executor, ptr: number): string => (ex as unknown as { extractString(p: number): string }).extractString(ptr);

interface EmulatorAnswer {
  fail?: boolean;
  error?: string;
  output: ExecutorGetMethodResult['output'];
  logs: string;
}

/**
 * run_get_method with the job's BoCs as they came. Executor.runGetMethod takes Cells: each run would
 * parse code, data and stack (hashing every cell in JavaScript) only to serialize them again — about
 * as much CPU as the emulator's own run for the small get-methods indexing runs by the thousand. The
 * params are the ones Executor builds (its getMethodArgsToInternalParams), the answer is read as it
 * reads it; run-get-method.test.ts compares the two paths. The run gets the configuration without its
 * rarely read parameters first (getter-config.ts) and again with the whole one when it reached for one;
 * `slimFirst` false runs it with the whole one only (the bench's comparison).
 */
export function runGetMethodRaw(ex: Executor, job: GetMethodJob, slimFirst = true): ExecutorGetMethodResult {
  const params = JSON.stringify(getMethodParams(job));
  const resp = (slimFirst && onSlimConfig(ex, job, params)) || invokeGetMethod(ex, params, job.stack, job.config);
  if (resp.fail) throw new Error(`emulation error: ${resp.error ?? 'unknown'}`);
  // Debug lines (#DEBUG#) leave the VM log for debugLogs, as Executor splits them.
  const lines = 'vm_log' in resp.output ? resp.output.vm_log.split('\n') : [];
  const debug = lines.filter((l) => l.startsWith('#DEBUG#'));
  const output = 'vm_log' in resp.output ? { ...resp.output, vm_log: lines.filter((l) => !l.startsWith('#DEBUG#')).join('\n') } : resp.output;
  return { output, logs: resp.logs, debugLogs: debug.join('\n') };
}

/** The params object Executor builds for run_get_method. */
function getMethodParams(job: GetMethodJob): Record<string, unknown> {
  const params: Record<string, unknown> = {
    code: job.code,
    data: job.data,
    verbosity: VERBOSITY[job.verbosity],
    libs: job.libs ?? '',
    address: Address.parseRaw(job.address).toString(),
    unixtime: job.unixTime,
    balance: job.balance.toString(),
    rand_seed: ZERO_SEED,
    gas_limit: job.gasLimit.toString(),
    method_id: job.methodId,
    debug_enabled: false,
  };
  if (job.extraCurrency) params.extra_currencies = Object.fromEntries(Object.entries(job.extraCurrency).map(([k, v]) => [k, v.toString()]));
  return params;
}

/** The run on the configuration without its rarely read parameters, unless it reached one, failed, or there is none to leave out. */
function onSlimConfig(ex: Executor, job: GetMethodJob, params: string): EmulatorAnswer | undefined {
  const slim = getterConfig(job.config);
  if (!slim) return undefined;
  const resp = invokeGetMethod(ex, params, job.stack, slim.config);
  const stands = !resp.fail && resp.output.success && !reachedLeftOut(slim, resp.output.missing_library, resp.output.stack);
  return stands ? resp : undefined;
}

function invokeGetMethod(ex: Executor, params: string, stack: string, config: string): EmulatorAnswer {
  // Synchronous from pinning to the emulator's return, so the pinned config cannot be evicted meanwhile.
  const ptr = ex.invoke('_run_get_method', [params, stack || EMPTY_STACK, pinConfig(ex, config)]);
  return JSON.parse(extractString(ex, ptr)) as EmulatorAnswer;
}
