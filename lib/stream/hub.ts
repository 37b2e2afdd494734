// The streams open in this process and the fan-out to them: connection limits per API key and per client
// address, subscriptions indexed by account and trace hash (an event reaches only its candidates, never
// every connection), each trace's finality kept rising, the invalidations owed, and the slow-consumer
// policy: a connection whose unread notifications pass its buffer bound is dropped, with a reason, and
// every other keeps receiving. Transports (sse.ts, ws.ts) implement StreamConnection.
import type { Logger } from '../log';
import type { InvalidatedEvent, StreamEvent, TraceEvent } from './events';
import { accountStateNotification, blockNotification, jettonNotification, traceAccounts, traceNotifications, type Outgoing } from './match';
import { higher, reaches, type Finality } from './finality';
import { subscriptionKey, withoutTargets, type Subscription } from './subscription';

export type EndReason = 'slow_consumer' | 'shutdown';

/** One serialized notification, encoded once for however many streams it goes to. */
export class Payload {
  private encoded?: Buffer;
  private frame?: Buffer;
  private wsFramed?: Buffer;
  constructor(readonly json: string) {}
  /** The JSON's bytes. */
  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.json));
  }
  /** The SSE event carrying it. */
  get sse(): Buffer {
    return (this.frame ??= Buffer.from(`data: ${this.json}\n\n`));
  }
  /**
   * The whole WebSocket text frame carrying it, as a server sends it (RFC 6455 §5.2: FIN, opcode 1, no
   * mask, the 7-, 16- or 64-bit length, the payload): framed once for every stream instead of once per
   * stream, and written to each in one piece.
   */
  get ws(): Buffer {
    if (this.wsFramed) return this.wsFramed;
    const bytes = this.bytes;
    const n = bytes.length;
    const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
    const out = Buffer.allocUnsafe(head + n);
    out[0] = 0x81;
    if (head === 2) out[1] = n;
    else if (head === 4) {
      out[1] = 126;
      out.writeUInt16BE(n, 2);
    } else {
      out[1] = 127;
      out.writeBigUInt64BE(BigInt(n), 2);
    }
    bytes.copy(out, head);
    return (this.wsFramed = out);
  }
}

export interface StreamConnection {
  /**
   * Writes one notification; false when the connection's unread bytes were already past its bound.
   * Notifications sent in one turn of the event loop (a block's traces) leave in one write (corked).
   */
  send(payload: Payload): boolean;
  /** Ends the stream, telling the client why (SSE: an `error` event; WebSocket: a close code and reason). */
  end(reason: EndReason, message: string): void;
}

export interface HubLimits {
  maxConnectionsPerKey: number;
  maxConnectionsPerIp: number;
}

export interface HubStatus {
  /** Streams open now, by transport. */
  connections: number;
  sse: number;
  websocket: number;
  /** Consumers dropped for not reading (since start). */
  dropped_slow_consumers: number;
  /** Notifications written to streams (since start). */
  delivered: number;
}

/** A registered stream: what its transport calls as the client changes its subscription or leaves. */
export interface Registration {
  subscribe(sub: Subscription | null): void;
  unsubscribe(drop: { addresses: string[]; traces: string[] }): void;
  remove(): void;
}

interface Client {
  conn: StreamConnection;
  transport: 'sse' | 'websocket';
  owner: string;
  sub: Subscription | null;
  /** subscriptionKey(sub): clients with the same one are sent the same notifications, computed once. */
  subKey: string;
  /** Traces this client was sent below finalized: it is owed their invalidation. */
  owed: Set<string>;
  closed: boolean;
}

/** Traces whose finality is remembered (to keep it rising); the oldest is forgotten first. */
const FINALITY_MEMORY = 100_000;
/** Invalidations one client may be owed at most (the oldest is forgotten first). */
const OWED_MAX = 10_000;

export class StreamHub {
  private readonly clients = new Set<Client>();
  private readonly byAddress = new Map<string, Set<Client>>();
  private readonly byTrace = new Map<string, Set<Client>>();
  private readonly byOwed = new Map<string, Set<Client>>();
  private readonly blockWatchers = new Set<Client>();
  private readonly owners = new Map<string, number>();
  private readonly finality = new Map<string, Finality>();
  private dropped = 0;
  private delivered = 0;
  private closing = false;

  constructor(private readonly opts: { limits: HubLimits; log: Logger }) {}

  /**
   * Takes a connection slot for a client (`key`: its API key's id, or null), or says why not. The
   * slot is the registration's: remove() gives it back.
   */
  admit(key: string | null, ip: string): { ok: true; owner: string } | { ok: false; error: string } {
    if (this.closing) return { ok: false, error: 'the server is shutting down' };
    const owner = key ? `key:${key}` : `ip:${ip}`;
    const max = key ? this.opts.limits.maxConnectionsPerKey : this.opts.limits.maxConnectionsPerIp;
    const open = this.owners.get(owner) ?? 0;
    if (open >= max) {
      const who = key ? 'this API key' : 'this client address without an API key';
      return { ok: false, error: `connection limit reached: ${who} has ${open} open streams (at most ${max})` };
    }
    this.owners.set(owner, open + 1);
    return { ok: true, owner };
  }

  /** Gives back a slot admit() took that no registration took over (the stream never started). */
  release(owner: string): void {
    const open = (this.owners.get(owner) ?? 1) - 1;
    if (open > 0) this.owners.set(owner, open);
    else this.owners.delete(owner);
  }

  /** Takes over the slot admit() gave `owner`; remove() gives it back. */
  register(conn: StreamConnection, transport: Client['transport'], owner: string): Registration {
    const client: Client = { conn, transport, owner, sub: null, subKey: '', owed: new Set(), closed: false };
    this.clients.add(client);
    return {
      subscribe: (sub) => this.setSubscription(client, sub),
      unsubscribe: (drop) => client.sub && this.setSubscription(client, withoutTargets(client.sub, drop)),
      remove: () => this.remove(client),
    };
  }

  /** Delivers one published event to the streams it concerns. */
  dispatch(e: StreamEvent): void {
    if (this.closing) return;
    const serialized = new Map<string, Payload>();
    const send = (client: Client, out: Outgoing | null) => {
      if (!out || client.closed) return;
      let payload = serialized.get(out.key);
      if (payload === undefined) serialized.set(out.key, (payload = new Payload(JSON.stringify(out.notification))));
      this.write(client, payload);
    };
    switch (e.kind) {
      case 'trace':
        return this.dispatchTrace(e, send);
      case 'invalidated':
        return this.dispatchInvalidated(e, send);
      case 'account_state':
        for (const c of this.candidates([e.account])) send(c, c.sub && accountStateNotification(e, c.sub));
        return;
      case 'jetton':
        for (const c of this.candidates([e.jetton.address, e.jetton.owner])) send(c, c.sub && jettonNotification(e, c.sub));
        return;
      case 'block':
        for (const c of this.blockWatchers) send(c, c.sub && blockNotification(e, c.sub));
    }
  }

  private dispatchTrace(e: TraceEvent, send: (c: Client, out: Outgoing | null) => void) {
    // A trace's finality only rises: what arrives below the highest already delivered is stale.
    const top = this.finality.get(e.norm);
    if (top && !reaches(e.finality, top)) return;
    this.remember(e.norm, top ? higher(top, e.finality) : e.finality);
    const candidates = this.candidates(traceAccounts(e), e.norm);
    const bySubscription = new Map<string, Outgoing[]>();
    for (const c of candidates) {
      if (!c.sub) continue;
      let outs = bySubscription.get(c.subKey);
      if (!outs) bySubscription.set(c.subKey, (outs = traceNotifications(e, c.sub)));
      for (const out of outs) send(c, out);
      if (outs.length) this.owe(c, e.norm, e.finality !== 'finalized');
    }
  }

  private dispatchInvalidated(e: InvalidatedEvent, send: (c: Client, out: Outgoing | null) => void) {
    this.finality.delete(e.norm);
    const out: Outgoing = { key: 'inv', notification: { type: 'trace_invalidated', trace_external_hash_norm: e.norm } };
    // Owed to whoever was sent the voided data, and to subscribers of trace_invalidated for its accounts or hash.
    const to = new Set(this.byOwed.get(e.norm));
    for (const c of this.candidates(e.accounts, e.norm)) if (c.sub?.types.has('trace_invalidated')) to.add(c);
    for (const c of to) {
      this.owe(c, e.norm, false);
      send(c, out);
    }
  }

  /** Clients whose subscription names one of `accounts` or the trace `norm`. */
  private candidates(accounts: Iterable<string>, norm?: string): Set<Client> {
    const out = new Set<Client>();
    for (const a of accounts) for (const c of this.byAddress.get(a) ?? []) out.add(c);
    if (norm) for (const c of this.byTrace.get(norm) ?? []) out.add(c);
    return out;
  }

  private write(client: Client, payload: Payload) {
    if (client.conn.send(payload)) {
      this.delivered++;
      return;
    }
    this.dropped++;
    this.opts.log.warn({ component: 'stream', transport: client.transport, owner: client.owner }, 'slow consumer dropped');
    client.conn.end('slow_consumer', 'slow consumer: the stream fell too far behind and was dropped; reconnect and catch up with /api/v3');
    this.remove(client);
  }

  private owe(c: Client, norm: string, owed: boolean) {
    if (owed) {
      if (c.owed.has(norm)) return;
      if (c.owed.size >= OWED_MAX) this.owe(c, c.owed.values().next().value!, false);
      c.owed.add(norm);
      index(this.byOwed, norm).add(c);
    } else if (c.owed.delete(norm)) {
      unindex(this.byOwed, norm, c);
    }
  }

  private remember(norm: string, f: Finality) {
    this.finality.delete(norm);
    this.finality.set(norm, f);
    if (this.finality.size > FINALITY_MEMORY) this.finality.delete(this.finality.keys().next().value!);
  }

  private setSubscription(c: Client, sub: Subscription | null) {
    if (c.closed) return;
    this.unindexClient(c);
    c.sub = sub;
    c.subKey = sub ? subscriptionKey(sub) : '';
    if (!sub) return;
    for (const a of sub.addresses) index(this.byAddress, a).add(c);
    for (const t of sub.traces) index(this.byTrace, t).add(c);
    if (sub.types.has('blocks')) this.blockWatchers.add(c);
  }

  private unindexClient(c: Client) {
    for (const a of c.sub?.addresses ?? []) unindex(this.byAddress, a, c);
    for (const t of c.sub?.traces ?? []) unindex(this.byTrace, t, c);
    this.blockWatchers.delete(c);
  }

  private remove(c: Client) {
    if (c.closed) return;
    c.closed = true;
    this.unindexClient(c);
    for (const norm of c.owed) unindex(this.byOwed, norm, c);
    this.clients.delete(c);
    this.release(c.owner);
  }

  status(): HubStatus {
    let sse = 0;
    for (const c of this.clients) if (c.transport === 'sse') sse++;
    return { connections: this.clients.size, sse, websocket: this.clients.size - sse, dropped_slow_consumers: this.dropped, delivered: this.delivered };
  }

  /** Ends every stream with a shutdown reason and refuses new ones. */
  close(): void {
    this.closing = true;
    for (const c of [...this.clients]) {
      c.conn.end('shutdown', 'the server is shutting down; reconnect in a moment');
      this.remove(c);
    }
  }
}

function index<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

function unindex<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (!set.size) map.delete(key);
}

/** Streams holding writes until the end of this turn of the event loop, released together by one callback. */
const held = new Set<TurnWrites>();
let releasing = false;

function releaseHeld() {
  releasing = false;
  const streams = [...held];
  held.clear();
  for (const w of streams) w.release();
}

/**
 * A stream's writes of one turn of the event loop (a block's traces), held until the turn ends and sent
 * together: one system call per stream instead of one per notification.
 */
export class TurnWrites {
  private held = false;
  private carried = 0;
  constructor(private readonly stream: { cork(): void; uncork(): void; readonly writableLength: number }) {}

  /** Bytes the client has left unread from earlier turns (this turn's own, held back, are not late). */
  behind(): number {
    return this.held ? this.carried : this.stream.writableLength;
  }

  /** Holds what is written from now until the turn ends. */
  hold(): void {
    if (this.held) return;
    this.carried = this.stream.writableLength;
    this.held = true;
    this.stream.cork();
    held.add(this);
    if (!releasing) {
      releasing = true;
      setImmediate(releaseHeld);
    }
  }

  /** Sends what was held (at the end of the turn). */
  release(): void {
    this.held = false;
    this.stream.uncork();
  }
}
