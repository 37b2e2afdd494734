// Real Streaming API clients for tests and the bench: an SSE reader over a plain HTTP request (node:http,
// no SSE library: the frames are parsed here as any HTTP client would), and the `ws` package's WebSocket.
// Both keep what arrives and let a test wait for what it expects.
import http from 'node:http';
import { WebSocket } from 'ws';

export interface SseFrame {
  event: string;
  data: string;
  /** `: comment` lines (keep-alives). */
  comments: string[];
}

/** Waits until `pick` finds something in `list` (re-checked on every arrival), or fails after `ms`. */
class Inbox<T> {
  readonly items: T[] = [];
  private waiters = new Set<() => void>();
  push(x: T) {
    this.items.push(x);
    for (const w of [...this.waiters]) w();
  }
  wait<R>(pick: (items: T[]) => R | undefined | false, ms: number, what: string): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const check = () => {
        const found = pick(this.items);
        if (found === undefined || found === false) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out after ${ms} ms waiting for ${what}; got ${this.items.length}: ${JSON.stringify(this.items).slice(-1500)}`));
      }, ms);
      if (!check()) this.waiters.add(check);
    });
  }
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body when the answer is not a stream (an error). */
  body: string;
  frames: SseFrame[];
  /** Notifications (unnamed events), parsed. */
  notifications(): Record<string, unknown>[];
  waitFor<R>(pick: (frames: SseFrame[]) => R | undefined | false, what: string, ms?: number): Promise<R>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** POSTs `subscription` (or GETs `query`) to the SSE endpoint and reads the stream as it arrives. */
export function openSse(base: string, o: { subscription?: unknown; query?: string; headers?: Record<string, string>; rawBody?: string }): Promise<SseClient> {
  const url = new URL(`/api/streaming/v2/sse${o.query ? `?${o.query}` : ''}`, base);
  const body = o.rawBody ?? (o.subscription === undefined ? undefined : JSON.stringify(o.subscription));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: body === undefined ? 'GET' : 'POST', headers: { accept: 'text/event-stream', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      const inbox = new Inbox<SseFrame>();
      let text = '';
      let buffered = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += res.statusCode === 200 ? '' : chunk;
        buffered += chunk;
        let cut: number;
        while ((cut = buffered.indexOf('\n\n')) !== -1) {
          const block = buffered.slice(0, cut);
          buffered = buffered.slice(cut + 2);
          const frame: SseFrame = { event: 'message', data: '', comments: [] };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comments.push(line.slice(1).trim());
            else if (line.startsWith('event:')) frame.event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          frame.data = data.join('\n');
          if (res.statusCode === 200) inbox.push(frame);
        }
      });
      res.on('end', endedResolve);
      res.on('close', endedResolve);
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return text;
        },
        frames: inbox.items,
        // A block of comments alone (a keep-alive) is no event: EventSource dispatches none without data.
        notifications: () => inbox.items.filter((f) => f.event === 'message' && f.data !== '').map((f) => JSON.parse(f.data) as Record<string, unknown>),
        waitFor: (pick, what, ms = 30_000) => inbox.wait(pick, ms, what),
        ended,
        close: () => req.destroy(),
      };
      if (res.statusCode === 200) resolve(client);
      else res.on('end', () => resolve(client));
    });
    req.end(body);
  });
}

export interface WsClient {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  /** Sends a request and waits for the reply carrying its id. */
  request(body: Record<string, unknown>, ms?: number): Promise<Record<string, unknown>>;
  waitFor<R>(pick: (messages: Record<string, unknown>[]) => R | undefined | false, what: string, ms?: number): Promise<R>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

let ids = 0;

export function openWs(base: string, headers: Record<string, string> = {}): Promise<WsClient> {
  const ws = new WebSocket(new URL('/api/streaming/v2/ws', base.replace(/^http/, 'ws')), { headers });
  const inbox = new Inbox<Record<string, unknown>>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on('message', (data) => inbox.push(JSON.parse(data.toString()) as Record<string, unknown>));
  const client: WsClient = {
    ws,
    messages: inbox.items,
    async request(body, ms = 10_000) {
      const id = `r${++ids}`;
      ws.send(JSON.stringify({ ...body, id }));
      return inbox.wait((list) => list.find((m) => m.id === id), ms, `the reply to ${id}`);
    },
    waitFor: (pick, what, ms = 30_000) => inbox.wait(pick, ms, what),
    closed,
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`WebSocket handshake answered ${res.statusCode}`)));
  });
}
