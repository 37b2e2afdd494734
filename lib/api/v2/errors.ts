// Every v2 failure is a V2Error: its code is both the envelope's `code` and the HTTP status.
export class V2Error extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Seconds to wait before retrying, sent as Retry-After (503s that pass). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** 422: the request itself is wrong (missing or malformed parameter, rule violated). */
export const invalidRequest = (message: string) => new V2Error(422, message);
