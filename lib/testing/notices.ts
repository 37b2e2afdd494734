// Change notices as a test hears them: passed on to the listener under test (a side-map cache) and
// recorded, with a way to wait until everything committed so far is heard. On PostgreSQL notices reach
// the listening connection after the writer's commit returned, so a test that writes and then reads or
// checks what was heard would race them.
import type { Database } from '../db/database';
import type { NoticeListener } from '../db/notices';
import { waitFor } from './lite-servers';

export interface HeardNotices {
  /** Payloads heard, in order (settled()'s own fences left out). */
  payloads: string[];
  /**
   * Resolves once every notice committed before the call is heard: notices arrive in commit order, so a
   * fence notice of our own, sent now, comes after them.
   */
  settled(): Promise<void>;
}

const FENCE = 'afence ';
const SETTLE_MS = 10_000;

export async function recordNotices(db: Database, channel: string, to: NoticeListener): Promise<HeardNotices> {
  const fences = new Set<string>();
  let sent = 0;
  const heard: HeardNotices = {
    payloads: [],
    async settled() {
      const fence = `${FENCE}${++sent}`;
      await db.session((s) => s.query('SELECT pg_notify($1, $2)::text', [channel, fence]));
      if (!(await waitFor(() => fences.has(fence), SETTLE_MS, 5))) throw new Error(`notice ${fence} not heard within ${SETTLE_MS} ms`);
    },
  };
  await db.listen(channel, {
    notice(payload) {
      to.notice(payload);
      if (payload.startsWith(FENCE)) fences.add(payload);
      else heard.payloads.push(payload);
    },
    heard: () => to.heard(),
    deaf: () => to.deaf(),
  });
  return heard;
}
