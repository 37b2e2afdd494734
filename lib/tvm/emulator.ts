// The emulator @ton/sandbox ships (TON's C++ executor compiled to WebAssembly), started with room to
// recurse, and marked broken after the first trap. Every emulator run in Atlas goes through it: the TVM
// pool's workers (worker.ts) and the devnet's chain (lib/devnet/sandbox.ts).
//
// Why: the build runs on emscripten's default stack, 64 KiB of the module's linear memory, and the C++
// code recurses once per level where it serializes a cell tree (a bag of cells: a get-method's result, a
// transaction with a deep message) or a tuple (a result stack). A 400-deep cell, a 600-deep DAG or a few
// hundred nested tuples run off that stack into the module's static data: the run traps ("memory access
// out of bounds", "null function or function signature mismatch") and the instance is corrupt from then
// on — every later run fails, or worse. The recursion any contract can cause is bounded all the same:
// cells are at most 1024 deep, and the executor serializes a result stack under a budget of 3500 entries
// (TON's FakeVmStateLimits). Measured: a 1023-deep cell or DAG needs 0.21 MB, 3500 nested tuples 0.73 MB.
// So each call runs on a stack of STACK_BYTES of its own (malloc'ed once; the stack pointer is moved there
// for the call and back after), and the deepest result a contract can make serializes. The native (V8)
// stack those levels also take, ~1.5 MB at 3500 tuples, is the thread's: the pool gives its workers more.
//
// A trap anyway (another overflow, an abort) leaves the instance untrusted: failure() says why, and the
// owner replaces it (the pool ends the worker, the devnet makes a new executor).
import { Executor } from '@ton/sandbox';
import emulatorFactory from '@ton/sandbox/dist/executor/emulator-emscripten.js';
import emulatorWasm from '@ton/sandbox/dist/executor/emulator-emscripten.wasm.js';

/** Bytes of the stack each emulator call runs on: over 5 times the deepest recursion a contract can cause. */
export const STACK_BYTES = 4 << 20;

export interface Emulator {
  executor: Executor;
  /** Why this instance is no longer to be used (the trap that broke it); undefined while it is sound. */
  failure(): string | undefined;
  /** Whether calls run on the larger stack (false if the sandbox build changed shape: the stock 64 KiB). */
  readonly roomyStack: boolean;
}

/** Thrown by a call on an emulator that trapped before. */
export class EmulatorBroken extends Error {}

interface EmscriptenModule {
  _malloc(size: number): number;
}

interface StackControl {
  restore(sp: number): void;
  current(): number;
}

type Invoke = (method: string, args: unknown[]) => number;

/** A new emulator instance (the WebAssembly compiled on first use in a thread, then instantiated). */
export async function createEmulator(): Promise<Emulator> {
  const built = await withStackControl().catch(() => undefined);
  const executor = built?.executor ?? (await Executor.create());
  const stack = built?.stack;
  let failure: string | undefined;
  const priv = executor as unknown as { invoke: Invoke; module: EmscriptenModule };
  const invoke = priv.invoke.bind(executor);
  const top = stack ? stackTop(priv.module) : undefined;
  priv.invoke = (method, args) => {
    if (failure !== undefined) throw new EmulatorBroken(`the emulator failed earlier (${failure}) and is being replaced`);
    const sp = stack?.current();
    if (stack && top !== undefined) stack.restore(top);
    try {
      return invoke(method, args);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
      throw err;
    } finally {
      if (stack && sp !== undefined) stack.restore(sp);
    }
  };
  return { executor, failure: () => failure, roomyStack: !!stack };
}

function stackTop(module: EmscriptenModule): number {
  const base = module._malloc(STACK_BYTES);
  // The stack grows down from its top, which must be 16-byte aligned.
  return (base + STACK_BYTES) & ~15;
}

// The binary decoded and compiled once per thread: a replacement instance only instantiates it.
let wasm: Promise<{ binary: Uint8Array; compiled: WebAssembly.Module }> | undefined;

async function compileWasm() {
  const binary = new Uint8Array(Buffer.from(emulatorWasm.EmulatorEmscriptenWasm, 'base64'));
  return { binary, compiled: await WebAssembly.compile(binary) };
}

/**
 * The sandbox's Executor over a module instantiated here, so that the instance's exports — among them
 * the stack pointer's setter and getter, which the module keeps to itself — are at hand. Their export
 * names are minified per build: they are read from the loader's own source (the factory's text). The
 * imports are static: a bundler (Next's) leaves them to Node, where a computed require would not load.
 */
async function withStackControl(): Promise<{ executor: Executor; stack: StackControl } | undefined> {
  const factory = ((emulatorFactory as { default?: unknown }).default ?? emulatorFactory) as (opts: object) => Promise<EmscriptenModule>;
  const loader = String(factory);
  const exportName = (fn: string) => new RegExp(`\\b${fn}=wasmExports\\["(\\w+)"\\]`).exec(loader)?.[1];
  const restoreName = exportName('__emscripten_stack_restore');
  const currentName = exportName('_emscripten_stack_get_current');
  if (!restoreName || !currentName) return undefined;
  const { binary, compiled } = await (wasm ??= compileWasm());
  let exports: WebAssembly.Exports | undefined;
  const emscripten = await factory({
    wasmBinary: binary,
    // Called inside the loader's promise: the instance is made (and a failure thrown) right here.
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      const instance = new WebAssembly.Instance(compiled, imports);
      exports = instance.exports;
      receive(instance, compiled);
      return {};
    },
  });
  const restore = exports?.[restoreName];
  const current = exports?.[currentName];
  if (typeof restore !== 'function' || typeof current !== 'function') return undefined;
  const ExecutorClass = Executor as unknown as new (module: EmscriptenModule) => Executor;
  return { executor: new ExecutorClass(emscripten), stack: { restore: restore as StackControl['restore'], current: current as StackControl['current'] } };
}
