// A Streaming API connection for tests below the transports (they are tested with real clients).
import type { EndReason, Payload, StreamConnection } from '../stream/hub';
import type { NotificationJson } from '../stream/protocol';

/**
 * A stream that keeps what it is sent, as a client reading it would, below the transports (they are
 * tested with real clients); with `capacity`, a client that stops reading after that many.
 */
export class ReceivedStream implements StreamConnection {
  readonly all: NotificationJson[] = [];
  ended?: { reason: EndReason; message: string };
  constructor(private readonly capacity = Infinity) {}
  send(payload: Payload) {
    if (this.all.length >= this.capacity) return false;
    this.all.push(JSON.parse(payload.json) as NotificationJson);
    return true;
  }
  end(reason: EndReason, message: string) {
    this.ended = { reason, message };
  }
  of<T extends NotificationJson['type']>(type: T) {
    return this.all.filter((n): n is Extract<NotificationJson, { type: T }> => n.type === type);
  }
}
