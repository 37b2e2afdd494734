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

export function listenPostgres(url: string, channel: string, to: NoticeListener): Listening {
  const name = channelName(channel);
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    to.deaf();
    c.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RECONNECT_MS).unref();
  };
  const connect = () => {
    const c = (client = new pg.Client({ connectionString: url }));
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => n.channel === name && to.notice(n.payload ?? ''));
    c.connect()
      .then(() => c.query(`LISTEN ${name}`))
      .then(() => client === c && !closed && to.heard())
      .catch(() => lost(c));
  };
  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
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
