// toncenter v3 answers: success is the bare JSON object with HTTP 200; errors are a bare {error} with the
// HTTP status carrying the code (api-v3.md §1.8). Every answer carries X-API-Version; successful ones also
// Server-Timing. Bodies are serialized like Go's encoding/json (what toncenter runs): `<`, `>`, `&`,
// U+2028 and U+2029 inside strings are written as \u escapes, so byte-for-byte comparisons hold.
import { ATLAS_RELEASE } from '../../version';
import { logInternalError } from '../internal-error';
import { V3Error } from './errors';
import { goJson, goJsonBytes } from './serialize';

/**
 * 1.2 is the toncenter index API generation this implements (ton-index-go 1.2.x answers X-API-Version
 * 1.2.*); the patch number is Atlas's release.
 */
export const V3_API_VERSION = `1.2.${ATLAS_RELEASE}`;

function headers(startedAt?: number): Headers {
  const h = new Headers({ 'Content-Type': 'application/json', 'X-API-Version': V3_API_VERSION });
  if (startedAt !== undefined) h.set('Server-Timing', `app;dur=${(performance.now() - startedAt).toFixed(3)}`);
  return h;
}

export function v3Json(body: unknown, startedAt?: number): Response {
  return v3JsonText(goJsonBytes(body), startedAt);
}

/**
 * The body of an answer's bytes, handed over as they are: given a Uint8Array, the Response copies it (a
 * megabyte's copy cost more than answering a short page), a stream of the one chunk does not. Writers read
 * the body as a stream either way (lib/server/direct-api.ts, Next).
 */
const bytesBody = (bytes: Uint8Array<ArrayBuffer>) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });

/** A 200 answer whose body is already serialized (goJson), as text or as its UTF-8 bytes. */
export function v3JsonText(json: string | Uint8Array<ArrayBuffer>, startedAt?: number): Response {
  return new Response(typeof json === 'string' ? json : bytesBody(json), { status: 200, headers: headers(startedAt) });
}

// toncenter v3 errors are a bare {error} with the HTTP status carrying the code.
export function v3Error(status: number, error: string, retryAfterS?: number): Response {
  const h = headers();
  if (retryAfterS !== undefined) h.set('Retry-After', String(retryAfterS));
  return new Response(goJson({ error }), { status, headers: h });
}

/**
 * Last resort for anything thrown: V3Errors keep their status; the rest are internal errors (500) whose
 * details are logged under a reference the body names (toncenter sends the raw message; Atlas does not).
 */
export function v3Failure(err: unknown): Response {
  if (err instanceof V3Error) return v3Error(err.status, err.message, err.retryAfterS);
  return v3Error(500, `internal server error (ref ${logInternalError('v3', err)})`);
}

export const v3Internal = (err: unknown) => v3Failure(err);
