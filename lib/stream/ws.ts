// The WebSocket transport: JSON envelopes `{id?, operation}` — `subscribe` (replaces the connection's
// whole subscription), `unsubscribe`, `ping` — each answered with `{id?, status}` or `{id?, error}`, and
// notifications as text frames. Ping frames find dead peers; a client that leaves unread more than the
// buffer bound is dropped by the hub (close 1008 with the reason), as is one sending oversize messages
// (1009, by the ws library), one sending more messages per second than allowed (a refusal, then 1008:
// message-rate.ts), and shutdown closes with 1001.
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { TurnWrites, type EndReason, type Registration, type StreamConnection, type StreamHub } from './hub';
import type { RequestIdJson } from './protocol';
import { MessageRate } from './message-rate';
import { parseSubscription, parseUnsubscribe } from './subscription';

export interface WsOptions {
  keepaliveMs: number;
  bufferBytes: number;
  /** Messages the client may send per second (STREAM_WS_MESSAGES_PER_SECOND): message-rate.ts. */
  messagesPerSecond: number;
  /** The clock of that budget (message-rate.ts's default unless given). */
  now?: () => number;
  maxAddresses: number;
  /** X-Actions-Version of the upgrade request: supported_action_types when a subscribe names none. */
  actionsVersion: string | null;
}

/** Close codes (RFC 6455): the reason goes along in words. */
export const CLOSE = { shutdown: 1001, policy: 1008 } as const;
/** How long a closing connection may take to answer the close frame before its socket is destroyed. */
const CLOSE_GRACE_MS = 1_000;

const reply = (id: RequestIdJson | undefined, body: Record<string, unknown>) => JSON.stringify(id === undefined ? body : { id, ...body });

/** `socket`: the upgraded connection the WebSocket runs on (its writes are corked per event-loop turn). */
export function serveWebSocket(ws: WebSocket, socket: Duplex, hub: StreamHub, owner: string, o: WsOptions): void {
  let closing = false;
  const writes = new TurnWrites(socket);
  const conn: StreamConnection = {
    send(payload) {
      if (closing) return true;
      // What the socket holds unsent: a client that stopped reading lets it grow.
      if (writes.behind() > o.bufferBytes) return false;
      // Past a close frame (either side's) no data frame may follow.
      if (ws.readyState !== ws.OPEN) return true;
      writes.hold();
      // The frame made once for every stream (Payload.ws), written beside the ws library's own frames:
      // without compression (the gateway's perMessageDeflate: false) its sender writes each frame whole
      // and at once, so frames never interleave.
      socket.write(payload.ws);
      return true;
    },
    end(reason: EndReason, message: string) {
      close(reason === 'shutdown' ? CLOSE.shutdown : CLOSE.policy, message);
    },
  };
  const registration: Registration = hub.register(conn, 'websocket', owner);

  function close(code: number, message: string) {
    if (closing) return;
    closing = true;
    // A close reason has at most 123 bytes.
    ws.close(code, Buffer.from(message).subarray(0, 123).toString());
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  const rate = new MessageRate(o.messagesPerSecond, o.now);
  ws.on('message', (data, isBinary) => {
    if (closing) return;
    const verdict = rate.take();
    if (verdict === 'close') return close(CLOSE.policy, rate.closeReason());
    const answer = verdict === 'refuse' ? reply(requestId(isBinary ? null : data), { error: rate.refusal() }) : handle(isBinary ? null : data.toString());
    if (answer) ws.send(answer);
  });

  function handle(text: string | null): string {
    let msg: unknown;
    try {
      if (text === null) throw new Error('binary frames are not requests');
      msg = JSON.parse(text);
    } catch (err) {
      return reply(undefined, { error: `invalid request envelope: ${(err as Error).message}` });
    }
    const env = (msg && typeof msg === 'object' ? msg : {}) as { id?: unknown; operation?: unknown };
    const id = typeof env.id === 'string' || typeof env.id === 'number' ? env.id : undefined;
    switch (env.operation) {
      case 'ping':
        return reply(id, { status: 'pong' });
      case 'subscribe': {
        const r = parseSubscription(msg, { maxAddresses: o.maxAddresses, actionsVersion: o.actionsVersion });
        if (!r.ok) return reply(id, { error: r.error });
        registration.subscribe(r.value);
        return reply(id, { status: 'subscribed' });
      }
      case 'unsubscribe': {
        const r = parseUnsubscribe(msg);
        if (!r.ok) return reply(id, { error: r.error });
        registration.unsubscribe(r.value);
        return reply(id, { status: 'unsubscribed' });
      }
      default:
        return reply(id, { error: `unknown operation: ${JSON.stringify(env.operation ?? null)} (subscribe, unsubscribe or ping)` });
    }
  }

  // A peer that does not answer a ping before the next one is gone.
  let alive = true;
  ws.on('pong', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, o.keepaliveMs);
  heartbeat.unref();
  ws.once('close', () => {
    closing = true;
    clearInterval(heartbeat);
    registration.remove();
  });
  ws.on('error', () => ws.terminate());
}

/** The `id` of a request that will not be carried out, if it has a readable one (to echo in the refusal). */
function requestId(data: unknown): RequestIdJson | undefined {
  try {
    const env = JSON.parse(String(data)) as { id?: unknown };
    return typeof env?.id === 'string' || typeof env?.id === 'number' ? env.id : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses a connection that was upgraded only to say why (a browser cannot read a refused handshake). */
export function refuseWebSocket(ws: WebSocket, error: string): void {
  ws.send(JSON.stringify({ error }));
  ws.close(CLOSE.policy, Buffer.from(error).subarray(0, 123).toString());
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}
