// The SSE transport: one response per subscription. `event: connected` first, then each notification as
// a `data:` line of JSON (the default `message` event, what EventSource's onmessage receives), a
// `: keepalive` comment when the stream is idle, and an `event: error` before the server ends it (a
// slow consumer, shutdown). A client that leaves unread more than the buffer bound is dropped by the hub.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TurnWrites, type EndReason, type Registration, type StreamConnection, type StreamHub } from './hub';
import type { RequestIdJson } from './protocol';
import type { Subscription } from './subscription';

export interface SseOptions {
  keepaliveMs: number;
  bufferBytes: number;
  /** Headers the answer carries besides SSE's own (CORS, rate-limit figures). */
  headers: Record<string, string>;
}

/** How long a stream being ended may take to flush its last words before its socket is destroyed. */
const END_GRACE_MS = 1_000;

export function serveSse(req: IncomingMessage, res: ServerResponse, hub: StreamHub, start: { owner: string; sub: Subscription; id?: RequestIdJson }, o: SseOptions): void {
  let ended = false;
  let registration: Registration | undefined;
  const writes = new TurnWrites(res);
  const conn: StreamConnection = {
    send(payload) {
      if (ended) return true;
      // What the response holds unsent: a client that stopped reading lets it grow.
      if (writes.behind() > o.bufferBytes) return false;
      writes.hold();
      res.write(payload.sse);
      return true;
    },
    end(_reason: EndReason, message: string) {
      if (ended) return;
      ended = true;
      clearInterval(keepalive);
      res.end(`event: error\ndata: ${JSON.stringify({ error: message })}\n\n`);
      // A client that does not read will not take those bytes either.
      setTimeout(() => res.destroy(), END_GRACE_MS).unref();
    },
  };
  res.writeHead(200, {
    ...o.headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // Proxies that buffer (nginx) pass events on at once.
    'X-Accel-Buffering': 'no',
  });
  res.write(`event: connected\ndata: ${JSON.stringify({ ...(start.id !== undefined ? { id: start.id } : {}), status: 'subscribed' })}\n\n`);
  // The socket stays open for as long as the client listens: no idle timeout.
  req.socket.setTimeout(0);
  req.socket.setNoDelay(true);
  const keepalive = setInterval(() => {
    if (res.writableLength <= o.bufferBytes) res.write(': keepalive\n\n');
  }, o.keepaliveMs);
  keepalive.unref();
  registration = hub.register(conn, 'sse', start.owner);
  registration.subscribe(start.sub);
  res.once('close', () => {
    ended = true;
    clearInterval(keepalive);
    registration?.remove();
    registration = undefined;
  });
}
