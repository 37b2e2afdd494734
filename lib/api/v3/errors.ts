// Every v3 failure the handlers raise on purpose is a V3Error: its status is the HTTP status and its
// message the `error` of toncenter's bare {error} body (api-v3.md §1.8).
export class V3Error extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds to wait before retrying, sent as Retry-After (503s that pass). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** 422: the request itself is wrong (malformed parameter, rule of the route violated). */
export const unprocessable = (message: string) => new V3Error(422, message);

/** 404: the thing asked for is not in the index. */
export const notFound = (message: string) => new V3Error(404, message);
