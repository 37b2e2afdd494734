// What goes wrong reading or running the chain, in the chain's own terms: no HTTP status here. Each API
// maps a kind to its envelope at its edge (lib/api/v2/errors.ts chainStatus; v3 forwards v2's status).
// Lite-client failures (lib/lite/errors.ts) and TVM refusals (lib/tvm/pool.ts TvmRefused) pass through
// lib/chain unchanged: they already say what happened.

/**
 * `invalid_input`: the caller asked for something the chain cannot take (a method id past 32 bits);
 * `not_found`: what was asked for does not exist; `failed`: the chain's own machinery (the executor, the
 * emulation) gave no usable answer.
 */
export type ChainErrorKind = 'invalid_input' | 'not_found' | 'failed';

const BRAND = Symbol.for('atlas.ChainError');

export class ChainError extends Error {
  /** `instanceof` by brand: Next may bundle the code that throws apart from the route that answers. */
  static [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === 'object' && x !== null && (x as { [BRAND]?: unknown })[BRAND] === true;
  }

  readonly [BRAND] = true;
  constructor(
    readonly kind: ChainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ChainError';
  }
}
