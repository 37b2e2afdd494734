// Live work (v2 code reading the chain, the emulator) inside a v3 route: its failures in v3's envelope
// with the status and message v2 gives them, as toncenter forwards them.
import { normalizeLiteError, LiteServerError, LiteTimeoutError, LiteVerificationError } from '../../lite/errors';
import { TvmRefused } from '../../tvm/pool';
import { V2Error } from '../v2/errors';
import { V3Error } from './errors';

/** Runs v2 code (or the emulator) with v2's and the emulator pool's failures turned into v3 ones (same status and message). */
export async function live<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof V2Error) throw new V3Error(err.code, err.message, err.retryAfterS);
    if (err instanceof TvmRefused) throw new V3Error(err.status, err.message, err.retryAfterS);
    const lite = normalizeLiteError(err, 0);
    if (lite instanceof LiteTimeoutError) throw new V3Error(504, 'LITE_SERVER_NETWORK timeout');
    if (lite instanceof LiteServerError) throw new V3Error(500, `LITE_SERVER_UNKNOWN: ${lite.message}`);
    if (lite instanceof LiteVerificationError) throw new V3Error(502, `LITE_SERVER_PROOF: ${lite.message}`);
    throw err;
  }
}

