// The rows behind the address_book and metadata (side-rows.ts), kept per account by each API process.
// Nearly every v3 answer carries side maps, and the same accounts come back in answer after answer (a
// jetton's master in every transfer, an exchange's wallet in every other trace): reading them was half
// of a `/traces` page's time. Unlike a trace, what they are made of changes — an account's code, a
// jetton wallet's balance, a name, fetched content — so the cache is kept only while the database's
// change notices are heard (prisma/migrations/…_side_changes: triggers announce, per account or URI,
// every committed change of those rows) and a notice drops what it names. Without them (connection
// lost, not yet listening) every read goes to the database, as it would with no cache.
//
// A read that overlapped a notice is not kept: it may have seen the rows before the change the notice
// announced, and the notice has already been applied. A notice arrives only after its commit, so a read
// that starts later sees the change.
import type { Database } from '../../db/database';
import type { NoticeListener } from '../../db/notices';
import type { SqlReader } from '../../db/sql';
import { contentUri, readSideRows, type SideParts, type SideRows } from './queries/side-rows';
import { SizedLru } from './sized-lru';

type Wallet = SideRows['wallets'][number];
type Token = SideRows['masters'][number];
type Item = SideRows['items'][number];

/** Everything the side maps may need of one account, absent parts null. */
interface AccountSide {
  /** Code hash; undefined: the index has no state for the account. */
  code: Uint8Array | null | undefined;
  domain: string | null;
  wallet: Wallet | null;
  master: Token | null;
  collection: Token | null;
  item: Item | null;
  /** The fetched off-chain content stored for the URIs its token content names (tokenUris). */
  fetched: SideRows['fetched'];
}

/** The channel the change notices come on (prisma/migrations/20261130300000_side_changes). */
export const SIDE_CHANGES = 'atlas_side';

const EVERYTHING: SideParts = { book: true, tokens: true };

/** The off-chain URIs whose fetched content the entry's token metadata shows (a URI's notice drops the entry). */
function tokenUris(s: Pick<AccountSide, 'master' | 'collection' | 'item'>): string[] {
  return [s.master, s.collection, s.item].flatMap((t) => contentUri(t?.content) ?? []);
}

// An estimate of what an entry holds: addresses and hashes, plus the JSON of its token contents.
function entrySize(s: AccountSide): number {
  const json = (v: unknown) => (v ? JSON.stringify(v).length * 2 : 0);
  let size = 400 + json(s.master?.content) + json(s.collection?.content) + json(s.item?.content);
  for (const row of s.fetched.values()) size += json(row.content) + 200;
  return size;
}

// URIs the cache remembers accounts for; past it everything is dropped (evicted accounts stay listed).
const BY_URI_MAX = 200_000;

export class SideCache implements NoticeListener {
  private readonly lru: SizedLru<AccountSide>;
  /** Accounts by the URI their token content names: a URI's notice drops them. */
  private readonly byUri = new Map<string, Set<string>>();
  /** Bumped by every notice and by every change of `listening`: a read keeps nothing if it moved. */
  private epoch = 0;
  private listening = false;

  constructor(maxBytes: number) {
    this.lru = new SizedLru(maxBytes, entrySize);
  }

  /** The notices are heard (again): from now on reads are kept. Anything kept before is dropped. */
  heard(): void {
    this.dropAll();
    this.listening = true;
  }

  /** Notices may be missed (the listening connection is gone): keep nothing until heard() again. */
  deaf(): void {
    this.listening = false;
    this.dropAll();
  }

  /** A change notice: 'a' + account, 'u' + off-chain URI, or '*' (anything may have changed). */
  notice(payload: string): void {
    this.epoch++;
    const key = payload.slice(1);
    if (payload[0] === 'a') this.lru.delete(key);
    else if (payload[0] === 'u') {
      for (const account of this.byUri.get(key) ?? []) this.lru.delete(account);
      this.byUri.delete(key);
    } else this.dropAll();
  }

  /** readSideRows(sql, accounts, want), from kept entries where it can. */
  async read(sql: SqlReader, accounts: string[], want: SideParts): Promise<SideRows> {
    if (!this.listening) return readSideRows(sql, accounts, want);
    const held = new Map<string, AccountSide>();
    const missing = this.take(accounts, held);
    if (missing.length) {
      const epoch = this.epoch;
      const rows = await readSideRows(sql, missing, EVERYTHING, true);
      const read = entries(missing, rows);
      const keep = this.listening && epoch === this.epoch;
      for (const [account, side] of read) {
        held.set(account, side);
        if (keep) this.keep(account, side);
      }
    }
    return assemble(accounts, held, want);
  }

  /** Puts the kept entries of the accounts (and of their wallets' masters) in `held`; returns the others. */
  private take(accounts: string[], held: Map<string, AccountSide>): string[] {
    const missing = new Set<string>();
    const look = (a: string) => {
      const s = this.lru.get(a);
      if (s) held.set(a, s);
      else missing.add(a);
      return s;
    };
    for (const a of accounts) {
      const s = look(a);
      // A kept wallet's master goes into the metadata with it: kept too, or read (a wallet read brings its master).
      if (s?.wallet && !held.has(s.wallet.jetton)) look(s.wallet.jetton);
    }
    return [...missing];
  }

  private keep(account: string, side: AccountSide): void {
    if (this.byUri.size > BY_URI_MAX) this.dropAll();
    this.lru.set(account, side);
    for (const uri of tokenUris(side)) {
      let accounts = this.byUri.get(uri);
      if (!accounts) this.byUri.set(uri, (accounts = new Set()));
      accounts.add(account);
    }
  }

  private dropAll(): void {
    this.epoch++;
    this.lru.clear();
    this.byUri.clear();
  }

  get stats() {
    return { ...this.lru.stats, listening: this.listening };
  }
}

/** A cache of `maxBytes` (estimated) listening to `db`'s change notices, as an API process keeps one; none for 0. */
export async function listeningSideCache(db: Pick<Database, 'listen'>, maxBytes: number): Promise<SideCache | undefined> {
  if (maxBytes <= 0) return undefined;
  const cache = new SideCache(maxBytes);
  await db.listen(SIDE_CHANGES, cache);
  return cache;
}

/** Each account's entry from a read of the accounts with their wallets' masters (readSideRows withMasters). */
function entries(accounts: string[], rows: SideRows): Map<string, AccountSide> {
  const by = <T extends { address: string }>(list: T[]) => new Map(list.map((r) => [r.address, r]));
  const wallets = by(rows.wallets);
  const masters = by(rows.masters);
  const collections = by(rows.collections);
  const items = by(rows.items);
  const all = new Set(accounts);
  for (const a of accounts) {
    const w = wallets.get(a);
    if (w) all.add(w.jetton);
  }
  const out = new Map<string, AccountSide>();
  for (const a of all) {
    const tokens = { master: masters.get(a) ?? null, collection: collections.get(a) ?? null, item: items.get(a) ?? null };
    const fetched: SideRows['fetched'] = new Map();
    for (const uri of tokenUris(tokens)) {
      const row = rows.fetched.get(uri);
      if (row) fetched.set(uri, row);
    }
    out.set(a, { code: rows.codes.has(a) ? rows.codes.get(a)! : undefined, domain: rows.domains.get(a) ?? null, wallet: wallets.get(a) ?? null, ...tokens, fetched });
  }
  return out;
}

/** What readSideRows(accounts, want) returns, from the accounts' entries (and their wallets' masters'). */
function assemble(accounts: string[], held: Map<string, AccountSide>, want: SideParts): SideRows {
  const out: SideRows = { codes: new Map(), domains: new Map(), wallets: [], masters: [], collections: [], items: [], fetched: new Map() };
  if (!want.book && !want.tokens) return out;
  const masters = new Set<string>();
  const fetched = (s: AccountSide) => {
    for (const [uri, row] of s.fetched) out.fetched.set(uri, row);
  };
  for (const a of accounts) {
    const s = held.get(a)!;
    if (s.code !== undefined) out.codes.set(a, s.code);
    if (want.book && s.domain !== null) out.domains.set(a, s.domain);
    if (!want.tokens) continue;
    if (s.wallet) {
      out.wallets.push(s.wallet);
      masters.add(s.wallet.jetton);
    }
    if (s.master) masters.add(a);
    if (s.collection) out.collections.push(s.collection);
    if (s.item) out.items.push(s.item);
    fetched(s);
  }
  for (const m of masters) {
    const s = held.get(m)!;
    if (!s.master) continue;
    out.masters.push(s.master);
    fetched(s);
  }
  return out;
}
