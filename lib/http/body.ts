// Reading a request body within LIMITS.bodyBytes. `npm start`'s server (server.ts) refuses oversize bodies
// before a route sees them; route handlers read bodies through readBodyLimited as well, so the limit also
// holds where no Atlas server fronts them (next dev, tests): a declared length over it is refused unread,
// and a body without one is read only until it passes the limit.
import { LIMITS } from '../limits';

export const bodyTooLargeMessage = (limit: number = LIMITS.bodyBytes) => `request body larger than ${limit} bytes`;

/** The body passed the limit; the APIs answer 413 with its message. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(bodyTooLargeMessage(limit));
    this.name = 'BodyTooLargeError';
  }
}

/** The body as text, or BodyTooLargeError once it passes `limit` bytes (the rest is not read). */
export async function readBodyLimited(req: Request, limit: number = LIMITS.bodyBytes): Promise<string> {
  if (Number(req.headers.get('content-length') ?? 0) > limit) throw new BodyTooLargeError(limit);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
