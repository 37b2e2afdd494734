// Hearing the database's change notices (NOTIFY on a channel): on PostgreSQL a connection of its own,
// opened again after it is lost; on PGlite the instance's own listeners (one process, one instance).
// Whoever listens is told when notices may have been missed, so that it trusts nothing it kept from
// before (lib/api/v3/side-cache.ts).
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface NoticeListener {
  /** A notice's payload. */
  notice(payload: string): void;
  /** Listening (again): every notice committed from now on is heard. */
  heard(): void;
  /** Notices may be missed from now on (the connection is gone, or the listener stopped). */
  deaf(): void;
}

export interface Listening {
  close(): Promise<void>;
}

/** How long a lost listening connection waits before it is opened again. */
const RECONNECT_MS = 1_000;

/** Channel names are identifiers the code chooses; anything else is refused rather than quoted. */
function channelName(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return channel;
}

/**
 * A notice of our own, sent now and then through another connection (`send`): the listener counts as
 * hearing once the first comes back, and when one does not come back within `timeoutMs` the listening
 * connection is taken for lost. LISTEN can succeed and hear nothing — a connection pooler in transaction
 * mode between us and the server, a connection silently cut — and a listener that believes it hears would
 * keep what changed.
 */
export interface Probe {
  send(channel: string, payload: string): Promise<unknown>;
  everyMs: number;
  timeoutMs: number;
}

// Payloads of probes: never passed on (the notice channel's own payloads start with another character).
const PROBE = '~probe ';

export function listenPostgres(url: string, channel: string, to: NoticeListener, probe?: Probe): Listening {
  const name = channelName(channel);
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let probing: NodeJS.Timeout | undefined;
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    clearInterval(probing);
    to.deaf();
    c.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RECONNECT_MS).unref();
  };
  // With a probe, the listener counts as hearing only once its first probe came back.
  const probeEvery = (c: pg.Client, p: Probe) => {
    let sent = 0;
    let answered = 0;
    let sentAt = 0;
    c.on('notification', (n) => {
      if (n.channel !== name || n.payload !== `${PROBE}${sent}` || client !== c) return;
      if (answered === 0) to.heard();
      answered = sent;
    });
    const tick = () => {
      if (answered < sent && Date.now() - sentAt > p.timeoutMs) return lost(c);
      if (answered < sent) return;
      sentAt = Date.now();
      p.send(name, `${PROBE}${++sent}`).catch(() => undefined); // unanswered: the timeout decides
    };
    tick();
    probing = setInterval(tick, p.everyMs).unref();
  };
  const connect = () => {
    const c = (client = new pg.Client({ connectionString: url }));
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => n.channel === name && !n.payload?.startsWith(PROBE) && to.notice(n.payload ?? ''));
    c.connect()
      .then(() => c.query(`LISTEN ${name}`))
      .then(() => {
        if (client !== c || closed) return;
        if (probe) probeEvery(c, probe);
        else to.heard();
      })
      .catch(() => lost(c));
  };
  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(probing);
      const c = client;
      client = undefined;
      to.deaf();
      await c?.end().catch(() => undefined);
    },
  };
}

export async function listenPglite(db: PGlite, channel: string, to: NoticeListener): Promise<Listening> {
  // PGlite calls listeners while it reads a query's answer, before the writer's query resolves.
  const unlisten = await db.listen(channelName(channel), (payload) => to.notice(payload));
  to.heard();
  return {
    async close() {
      to.deaf();
      await unlisten().catch(() => undefined);
    },
  };
}
