// Deep imports of @ton/sandbox's emulator build (CommonJS, no typings for these files): emulator.ts
// instantiates the module itself to reach the exports the sandbox's Executor keeps to itself.
declare module '@ton/sandbox/dist/executor/emulator-emscripten.js' {
  /** emscripten's module factory: its source text holds the loader, which names each export. */
  const factory: (opts: object) => Promise<unknown>;
  export default factory;
}

declare module '@ton/sandbox/dist/executor/emulator-emscripten.wasm.js' {
  /** The WebAssembly binary, base64 (CommonJS: read through the default import). */
  const wasm: { EmulatorEmscriptenWasm: string };
  export default wasm;
}
