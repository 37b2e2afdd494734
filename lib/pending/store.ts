// The pending store: emulated traces (and refusals) by external message hash, with an index by account,
// until the real trace is indexed or the entry expires. In Redis when REDIS_URL is set, so every Atlas
// process (the one that accepted the message and the ones answering /pendingTraces) sees the same
// entries; in this process's memory otherwise, bounded in count and time.
import { Redis } from 'ioredis';

/** A shard block seen before its masterchain block (a confirmed transaction's). */
export interface ConfirmedBlock {
  workchain: number;
  /** Signed, decimal. */
  shard: string;
  seqno: number;
}

/** One emulated external message: what lib/pending/index.ts writes and the routes read. JSON only. */
export interface PendingEntry {
  /** Standard base64 hash of the external message, and its TEP-467 normalized hash. */
  externalHash: string;
  externalHashNorm: string;
  /** When it was accepted (ms since the epoch). */
  createdAt: number;
  /** Masterchain block the emulation read its states at. */
  mcSeqno: number;
  /** The emulated transactions' BoCs (base64), in the order they ran: the root first. */
  transactions: string[];
  /** The classifier's actions as JSON (encodeAction in lib/pending/index.ts); null when it failed on the trace. */
  actions: Record<string, unknown>[] | null;
  /** Raw addresses with a transaction in the trace, and with an action (for /pendingActions?account). */
  accounts: string[];
  actionAccounts: string[];
  /** Why the chain will refuse the external; such an entry carries no transactions. */
  rejected: string | null;
  /** The emulation stopped at its bounds: later hops are missing. */
  truncated: boolean;
  /**
   * `confirmed`: the real transactions, seen in shard blocks no masterchain block has committed yet
   * (they replace the emulated ones); absent: emulated (`pending`).
   */
  finality?: 'confirmed';
  /** With `confirmed`: each transaction's block, parallel to `transactions`. */
  blocks?: ConfirmedBlock[];
}

export interface PendingStore {
  put(entry: PendingEntry): Promise<void>;
  /** Entries whose external hash or normalized hash is one of these (base64). */
  byHashes(hashes: string[]): Promise<PendingEntry[]>;
  /** Entries with a transaction on one of these accounts (`actions`: with an action naming it). */
  byAccounts(accounts: string[], index: 'transactions' | 'actions'): Promise<PendingEntry[]>;
  /** Drops entries (the real trace is indexed). */
  delete(externalHashes: string[]): Promise<void>;
  close(): Promise<void>;
}

export interface StoreLimits {
  ttlMs: number;
  /** In memory only: entries kept at most (the oldest goes first). */
  maxEntries: number;
}

export const STORE_DEFAULTS: StoreLimits = { ttlMs: 10 * 60_000, maxEntries: 10_000 };

export function memoryPendingStore(limits: StoreLimits = STORE_DEFAULTS): PendingStore {
  // Insertion order is age order: eviction and expiry walk from the front.
  const entries = new Map<string, { entry: PendingEntry; expires: number }>();
  const norms = new Map<string, string>();
  const byAccount = { transactions: new Map<string, Set<string>>(), actions: new Map<string, Set<string>>() };

  const unindex = (e: PendingEntry) => {
    norms.delete(e.externalHashNorm);
    for (const [kind, list] of [['transactions', e.accounts], ['actions', e.actionAccounts]] as const) {
      for (const a of list) {
        const s = byAccount[kind].get(a);
        s?.delete(e.externalHash);
        if (s?.size === 0) byAccount[kind].delete(a);
      }
    }
  };
  const drop = (hash: string) => {
    const e = entries.get(hash);
    if (!e) return;
    entries.delete(hash);
    unindex(e.entry);
  };
  const expire = () => {
    const now = Date.now();
    for (const [hash, e] of entries) {
      if (e.expires > now) break;
      drop(hash);
    }
  };
  const live = (hashes: Iterable<string>) => {
    expire();
    const out: PendingEntry[] = [];
    for (const h of new Set(hashes)) {
      const e = entries.get(h);
      if (e) out.push(e.entry);
    }
    return out;
  };
  return {
    async put(entry) {
      drop(entry.externalHash);
      entries.set(entry.externalHash, { entry, expires: Date.now() + limits.ttlMs });
      norms.set(entry.externalHashNorm, entry.externalHash);
      for (const [kind, list] of [['transactions', entry.accounts], ['actions', entry.actionAccounts]] as const) {
        for (const a of list) {
          let s = byAccount[kind].get(a);
          if (!s) byAccount[kind].set(a, (s = new Set()));
          s.add(entry.externalHash);
        }
      }
      while (entries.size > limits.maxEntries) drop(entries.keys().next().value!);
    },
    async byHashes(hashes) {
      return live(hashes.map((h) => norms.get(h) ?? h));
    },
    async byAccounts(accounts, index) {
      return live(accounts.flatMap((a) => [...(byAccount[index].get(a) ?? [])]));
    },
    async delete(hashes) {
      for (const h of hashes) drop(h);
    },
    async close() {
      entries.clear();
      norms.clear();
    },
  };
}

/**
 * Keys under `prefix`: `e:<hash>` the entry (JSON, expiring), `n:<norm>` → hash, and per account
 * `t:<account>` / `a:<account>` sorted sets of hashes scored by expiry (members past it are trimmed on
 * read; the set itself expires with its newest member).
 */
export function redisPendingStore(url: string, opts: { prefix?: string; limits?: StoreLimits } = {}): PendingStore {
  const prefix = opts.prefix ?? 'atlas:pending:';
  const ttlMs = (opts.limits ?? STORE_DEFAULTS).ttlMs;
  const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 2_000, lazyConnect: false });
  redis.on('error', () => {}); // each command's own failure is what callers see
  const setKey = (index: 'transactions' | 'actions', account: string) => `${prefix}${index === 'transactions' ? 't' : 'a'}:${account}`;

  const read = async (hashes: string[]): Promise<PendingEntry[]> => {
    const unique = [...new Set(hashes)];
    if (!unique.length) return [];
    const found = await redis.mget(unique.map((h) => `${prefix}e:${h}`));
    return found.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as PendingEntry);
  };

  return {
    async put(entry) {
      const expires = Date.now() + ttlMs;
      const m = redis.multi();
      m.set(`${prefix}e:${entry.externalHash}`, JSON.stringify(entry), 'PX', ttlMs);
      m.set(`${prefix}n:${entry.externalHashNorm}`, entry.externalHash, 'PX', ttlMs);
      for (const [index, list] of [['transactions', entry.accounts], ['actions', entry.actionAccounts]] as const) {
        for (const a of list) {
          m.zadd(setKey(index, a), expires, entry.externalHash);
          m.pexpire(setKey(index, a), ttlMs);
        }
      }
      await m.exec();
    },
    async byHashes(hashes) {
      if (!hashes.length) return [];
      const viaNorm = await redis.mget(hashes.map((h) => `${prefix}n:${h}`));
      return read(hashes.map((h, i) => viaNorm[i] ?? h));
    },
    async byAccounts(accounts, index) {
      if (!accounts.length) return [];
      const now = Date.now();
      const m = redis.multi();
      for (const a of accounts) {
        m.zremrangebyscore(setKey(index, a), '-inf', now);
        m.zrange(setKey(index, a), 0, -1);
      }
      const replies = (await m.exec()) ?? [];
      const hashes = replies.filter((_, i) => i % 2 === 1).flatMap(([err, v]) => (err ? [] : (v as string[])));
      return read(hashes);
    },
    async delete(hashes) {
      const entries = await read(hashes);
      if (!entries.length) return;
      const m = redis.multi();
      for (const e of entries) {
        m.del(`${prefix}e:${e.externalHash}`, `${prefix}n:${e.externalHashNorm}`);
        for (const a of e.accounts) m.zrem(setKey('transactions', a), e.externalHash);
        for (const a of e.actionAccounts) m.zrem(setKey('actions', a), e.externalHash);
      }
      await m.exec();
    },
    async close() {
      redis.disconnect();
    },
  };
}
