// Live work (v2 code reading the chain, the emulator) inside a v3 route: its failures in v3's envelope
// with the status and message v2 gives them, as toncenter forwards them.
import { TvmRefused } from '../../tvm/pool';
import { liteFailure, V2Error } from '../v2/errors';
import { V3Error } from './errors';

/** Runs v2 code (or the emulator) with v2's and the emulator pool's failures turned into v3 ones (same status and message). */
export async function live<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof V2Error) throw new V3Error(err.code, err.message, err.retryAfterS);
    if (err instanceof TvmRefused) throw new V3Error(err.status, err.message, err.retryAfterS);
    const lite = liteFailure(err);
    if (lite) throw new V3Error(lite.code, lite.message);
    throw err;
  }
}

