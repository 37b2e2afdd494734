// Every input limit of the public routes, in one table: README's limits table is written from it, the
// routes and the HTTP server enforce it, and error messages name the limit they hit. A limit belongs
// here when a client can run into it; internal tuning stays with the code it tunes. It imports nothing,
// so every layer (lib/ton, lib/tvm and lib/http as much as the APIs) may read it.

export const LIMITS = {
  /** Bytes of a request body (JSON or BoC); more is 413 before the body is read in full. */
  bodyBytes: 1 << 20,
  /** Characters of a request URL (path and query); more is 414. */
  urlChars: 8 * 1024,
  /** Rows of one v3 list answer (`limit`); more is 422. */
  pageRows: 1000,
  /** Values in one v3 list parameter (repeated or comma-separated). */
  listValues: 1000,
  /** Entries of a runGetMethod input stack. */
  stackEntries: 256,
  /** Nesting of tuples and lists in a runGetMethod input stack. */
  stackNesting: 64,
  /** Bits of a stack integer: TVM integers are 257-bit signed. */
  stackIntegerBits: 257,
  /** Bytes of one BoC a client sends (sendBoc, estimateFee, stack cells, …), decoded. */
  bocBytes: 64 * 1024,
  /** Bytes of all the bodies one /api/v3/decode request decodes together (up to 1000 may come at once). */
  decodeBytes: 256 * 1024,
  /** Distinct cells in one BoC a client sends. */
  bocCells: 4096,
  /** Depth of a cell tree a client sends (a message's depth is capped by the chain at 512). */
  cellDepth: 512,
  /**
   * Depth of a cell a client hands the emulator (stack cells, estimateFee's body and init). Set when the
   * emulator trapped past ~300; it now takes any depth the chain allows (lib/tvm/emulator.ts).
   */
  emulatedCellDepth: 256,
  /** Cells a runGetMethod result may expand to in the legacy `object` form (shared subtrees count each time). */
  stackCellsExpanded: 10_000,
  /** Milliseconds one emulator run (a get-method, a fee-estimate transaction) may take; more is 504. */
  tvmRunMs: 5_000,
  /** Depth of any cell in a get-method's result (the chain's own limit on messages and VM data); deeper is 422. */
  tvmResultCellDepth: 512,
  /** Distinct cells in a get-method's result stack; more is 422. */
  tvmResultCells: 16_384,
  /** Nesting of tuples in a get-method's result; deeper is 422. */
  tvmResultNesting: 256,
  /** Entries of a get-method's result stack, nested ones included; more is 422. */
  tvmResultEntries: 1024,
  /** Transactions of one emulated trace (/api/v3/emulate, pending traces); the rest is left out (`truncated`). */
  emulatedTransactions: 256,
  /** Emulator runs waiting for a free TVM worker; more is 503 with Retry-After. */
  tvmQueue: 64,
  /** Orders /multisig/wallets attaches to one wallet (its newest); /multisig/orders pages through the rest. */
  multisigOrdersPerWallet: 100,
  /** Orders one /multisig/wallets answer attaches in all: each wallet's newest first, round by round. */
  multisigOrdersPerAnswer: 1000,
  /** Bytes of one Streaming API request: SSE's JSON body, one WebSocket message (1000 addresses take ~70 KB). */
  streamRequestBytes: 256 * 1024,
} as const;

export type LimitName = keyof typeof LIMITS;
