// Failures from below the API carry no HTTP status; v2's edge gives them one (and v3's live routes forward it).
import { describe, expect, it } from 'vitest';
import { ChainError } from '../../chain/errors';
import { TvmRefused } from '../../tvm/pool';
import { chainFailure } from './errors';

describe('chainFailure', () => {
  it("answers each kind of chain failure with v2's status, keeping the message", () => {
    expect(chainFailure(new ChainError('invalid_input', 'method id 4294967296 is outside the 32-bit range'))).toEqual({ code: 422, message: 'method id 4294967296 is outside the 32-bit range' });
    expect(chainFailure(new ChainError('not_found', 'no such block'))).toEqual({ code: 404, message: 'no such block' });
    expect(chainFailure(new ChainError('failed', 'get-method failed: boom'))).toEqual({ code: 500, message: 'get-method failed: boom' });
  });

  it('answers a TVM refusal by its kind: the contract is 422, a deadline 504, backoff 429 and a full queue 503 with Retry-After', () => {
    expect(chainFailure(new TvmRefused('crash', 'the emulator crashed'))).toEqual({ code: 422, message: 'the emulator crashed', retryAfterS: undefined });
    expect(chainFailure(new TvmRefused('deadline', 'past 5000 ms'))?.code).toBe(504);
    expect(chainFailure(new TvmRefused('backoff', 'refused for 30 s', 30))).toEqual({ code: 429, message: 'refused for 30 s', retryAfterS: 30 });
    expect(chainFailure(new TvmRefused('busy', 'queue full', 1))).toEqual({ code: 503, message: 'queue full', retryAfterS: 1 });
  });

  it('leaves anything else to the caller', () => {
    expect(chainFailure(new Error('a bug'))).toBeUndefined();
    expect(chainFailure('not an error')).toBeUndefined();
  });
});
