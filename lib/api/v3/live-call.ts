// Live work (lib/chain reading the chain, the emulator) inside a v3 route: its failures in v3's envelope
// with the status and message v2 gives them, as toncenter forwards them.
import { chainFailure, V2Error } from '../v2/errors';
import { V3Error } from './errors';

/** Runs live chain work with v2's, lib/chain's and the emulator pool's failures turned into v3 ones (same status and message). */
export async function live<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof V2Error) throw new V3Error(err.code, err.message, err.retryAfterS);
    const below = chainFailure(err);
    if (below) throw new V3Error(below.code, below.message, below.retryAfterS);
    throw err;
  }
}

