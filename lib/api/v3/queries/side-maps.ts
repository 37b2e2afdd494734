// The address_book and metadata side maps (api-v3.md §1.9, §3.20, §3.21), keyed by raw address with
// Go's sorted key order. Both come from latest_account_states: the code hash decides the user-friendly
// form (non-bounceable for accounts without code or with a standard wallet code) and, with the code's
// get-method ids, the interfaces. Token metadata comes from the tables the indexer derives (jettons,
// NFT items and collections) and, for off-chain content, from the metadata fetcher's table; a domain
// from the derived .ton names (dns_entries).
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { friendly, parseAddress, rawUpper } from '../../../ton/address';
import type { V3Context } from '../context';
import { b64, bytes, hex, sortedKeys } from '../encode';
import { contractMethods } from '../../../ton/contract-methods';
import { bocCell, detectInterfaces, TOKEN_INTERFACES } from '../../../ton/interfaces';
import type { AddressBookEntryJson, AddressBookJson, MetadataJson } from '../models/common';
import { unspace } from '../params';
import type { MetadataRow } from '../../../metadata';
import { contentUri, readSideRows, tokenContent, type SideParts, type SideRows } from './side-rows';
import { isStandardWallet } from '../../../ton/wallets';

// Get-method ids by code hash (hex). A code's methods never change and codes are few, so the cache
// only ever grows; it is dropped wholesale if a pathological index makes it large.
const methodsCache = new Map<string, number[] | null>();
const METHODS_CACHE_MAX = 50_000;

/** Get-method ids for each code hash (null: no method dictionary in the code, or code unknown). */
export async function methodsByCodeHash(sql: SqlReader, codeHashes: Iterable<Uint8Array | null>): Promise<Map<string, number[] | null>> {
  const wanted = new Map<string, Uint8Array>();
  for (const h of codeHashes) if (h) wanted.set(hex(h), h);
  const missing = [...wanted].filter(([k]) => !methodsCache.has(k)).map(([, h]) => bytes(h));
  if (missing.length) {
    if (methodsCache.size > METHODS_CACHE_MAX) methodsCache.clear();
    // One indexed lookup per code hash (a code may be shared by millions of accounts).
    const rows = await sql.rows<{ code_hash: Uint8Array; code_boc: Uint8Array | null }>(Prisma.sql`
      SELECT h.code_hash,
             (SELECT s.code_boc FROM latest_account_states s WHERE s.code_hash = h.code_hash AND s.code_boc IS NOT NULL LIMIT 1) AS code_boc
      FROM unnest(${missing}::bytea[]) AS h(code_hash)`);
    for (const r of rows) {
      const cell = bocCell(r.code_boc);
      // No code stored (yet): nothing cached, a later request looks again.
      if (cell) methodsCache.set(hex(r.code_hash), contractMethods(cell));
    }
  }
  const out = new Map<string, number[] | null>();
  for (const k of wanted.keys()) out.set(k, methodsCache.get(k) ?? null);
  return out;
}

interface AccountCode {
  /** The code hash in base64 (null: no code). */
  codeHash: string | null;
  interfaces: string[];
  /** Bounceable in the address book: has code, and not a standard wallet's. */
  bounceable: boolean;
}

const NO_CODE: AccountCode = { codeHash: null, interfaces: [], bounceable: false };

// What a code hash decides, by the hash's bytes object: the side-map cache hands the same object to every
// answer that names its account, so a kept account skips the hex, base64 and interface work. Only codes
// whose get-methods are known are remembered (an unknown code is looked up again, as methodsByCodeHash does).
const codeFacts = new WeakMap<Uint8Array, AccountCode>();

function codeFact(codeHash: Uint8Array, methods: number[] | null): AccountCode {
  const base64 = b64(codeHash);
  return { codeHash: base64, interfaces: detectInterfaces(base64, methods), bounceable: !isStandardWallet(base64) };
}

/** Code hash and interfaces of the accounts the index has a state for, from their code hashes. */
async function accountCodes(sql: SqlReader, codeHashes: Map<string, Uint8Array | null>): Promise<Map<string, AccountCode>> {
  const unknown = [...codeHashes.values()].filter((h): h is Uint8Array => h !== null && !codeFacts.has(h));
  const methods = unknown.length ? await methodsByCodeHash(sql, unknown) : new Map<string, number[] | null>();
  const out = new Map<string, AccountCode>();
  for (const [account, codeHash] of codeHashes) {
    if (!codeHash) {
      out.set(account, NO_CODE);
      continue;
    }
    let fact = codeFacts.get(codeHash);
    if (!fact) {
      const key = hex(codeHash);
      fact = codeFact(codeHash, methods.get(key) ?? null);
      if (methodsCache.has(key)) codeFacts.set(codeHash, fact);
    }
    out.set(account, fact);
  }
  return out;
}

// The user-friendly forms of a raw address by flags: a pure function of the address, asked for every
// account of every answer's address book (hundreds for a page of traces; the base64 form's checksum and
// encoding were a tenth of such an answer's CPU). Keyed by the address itself, whose hash V8 keeps with
// the string. Dropped wholesale past its bound.
const friendlyCache = new Map<string, Partial<Record<'bm' | 'bt' | 'nm' | 'nt', string>>>();
const FRIENDLY_CACHE_MAX = 100_000;

function userFriendly(account: string, bounceable: boolean, testnet: boolean): string {
  let forms = friendlyCache.get(account);
  if (forms === undefined) {
    if (friendlyCache.size >= FRIENDLY_CACHE_MAX) friendlyCache.clear();
    friendlyCache.set(account, (forms = {}));
  }
  const flag = bounceable ? (testnet ? 'bt' : 'bm') : testnet ? 'nt' : 'nm';
  let out = forms[flag];
  if (out === undefined) {
    const parsed = parseAddress(account);
    out = forms[flag] = parsed ? friendly(parsed.address, { bounceable, testOnly: testnet }) : 'addr_none';
  }
  return out;
}

function bookEntry(account: string, code: AccountCode | undefined, testnet: boolean, domain: string | null): AddressBookEntryJson {
  return {
    user_friendly: userFriendly(account, code?.bounceable ?? false, testnet),
    domain,
    // An account the index never saw: []; seen but without code: null (toncenter's distinction).
    interfaces: code === undefined ? [] : code.codeHash === null ? null : code.interfaces,
  };
}

type TokenInfoJson = MetadataJson[string]['token_info'][number];
type TokenType = NonNullable<TokenInfoJson['type']>;

/** TEP-64 attributes shown as TokenInfo fields; the others go to `extra`. */
const SHOWN = ['name', 'symbol', 'description', 'image'] as const;

/**
 * A token's TokenInfo (api-v3.md §3.21) from the content the indexer stored: on-chain attributes as
 * they are; off-chain content ({uri}, plus any on-chain attributes of semi-chain content, which win as
 * TEP-64 says) from the fetcher's row — only `type` (and `nft_index`) while it is not fetched, `valid:
 * false` when fetching failed. Content the indexer could not read counts as not fetched.
 */
function tokenInfo(type: TokenType, content: Record<string, unknown> | null, fetched: Map<string, MetadataRow>, nftIndex?: string): TokenInfoJson {
  const base: TokenInfoJson = { type, ...(nftIndex !== undefined ? { nft_index: nftIndex } : {}) };
  if (!content) return base;
  let attributes: Record<string, unknown> = content;
  const uri = contentUri(content);
  if (uri !== null) {
    const row = fetched.get(uri);
    if (!row || row.state === 'pending') return base;
    if (row.state !== 'ok' || !row.content || typeof row.content !== 'object' || Array.isArray(row.content)) return { valid: false, ...base };
    const { uri: _uri, ...onchain } = content;
    attributes = { ...row.content, ...onchain };
  }
  const info: TokenInfoJson = { valid: true, type };
  for (const k of SHOWN) if (typeof attributes[k] === 'string') info[k] = attributes[k];
  if (nftIndex !== undefined) info.nft_index = nftIndex;
  info.is_nsfw = false;
  info.is_scam = false;
  const extra = Object.entries(attributes).filter(([k, v]) => !(SHOWN as readonly string[]).includes(k) || typeof v !== 'string');
  if (extra.length) info.extra = Object.fromEntries(extra.sort(([a], [b]) => (a < b ? -1 : 1)));
  return info;
}

/**
 * Token contracts among the accounts (and the master of every jetton wallet among them): jetton wallets
 * and masters, NFT items and collections from the derived tables, other token contracts (by their code's
 * interfaces) listed as not indexed.
 */
function metadataEntries(accounts: string[], rows: SideRows, codes: Map<string, AccountCode>): MetadataJson {
  const out = new Map<string, MetadataJson[string]>();
  const entry = (info: TokenInfoJson) => ({ is_indexed: info.valid !== undefined, token_info: [info] });
  for (const a of accounts) {
    const code = codes.get(a);
    if (code && code.interfaces.some((i) => i in TOKEN_INTERFACES)) out.set(a, { is_indexed: false, token_info: [] });
  }
  for (const w of rows.wallets) {
    const extra = { balance: w.balance.toFixed(), jetton: w.jetton, owner: w.owner };
    out.set(w.address, { is_indexed: true, token_info: [{ valid: true, type: 'jetton_wallets', extra }] });
  }
  for (const m of rows.masters) out.set(m.address, entry(tokenInfo('jetton_masters', tokenContent(m.content), rows.fetched)));
  for (const c of rows.collections) out.set(c.address, entry(tokenInfo('nft_collections', tokenContent(c.content), rows.fetched)));
  for (const i of rows.items) out.set(i.address, entry(tokenInfo('nft_items', tokenContent(i.content), rows.fetched, i.index.toFixed())));
  return sortedKeys(out);
}

/** The side rows of the accounts: from the process's side-map cache when it keeps one. */
function sideRows(ctx: V3Context, accounts: string[], want: SideParts): Promise<SideRows> {
  return ctx.sideCache ? ctx.sideCache.read(ctx.sql, accounts, want) : readSideRows(ctx.sql, accounts, want);
}

export interface SideMaps {
  address_book: AddressBookJson;
  metadata: MetadataJson;
}

/** address_book and metadata for the addresses a response mentions (one statement for both: side-rows.ts). */
export async function sideMaps(ctx: V3Context, addresses: Iterable<string | null | undefined>, want = { book: true, metadata: true }): Promise<SideMaps> {
  const book = want.book && !ctx.noAddressBook;
  const meta = want.metadata && !ctx.noMetadata;
  const accounts = [...new Set([...addresses].filter((a): a is string => !!a))];
  if (!accounts.length || (!book && !meta)) return { address_book: {}, metadata: {} };
  const rows = await sideRows(ctx, accounts, { book, tokens: meta });
  const codes = await accountCodes(ctx.sql, rows.codes);
  return {
    address_book: book ? sortedKeys(new Map(accounts.map((a) => [a, bookEntry(a, codes.get(a), ctx.testnet, rows.domains.get(a) ?? null)]))) : {},
    metadata: meta ? metadataEntries(accounts, rows, codes) : {},
  };
}

/** /addressBook: keyed by the strings as given; unparseable ones get an empty entry. */
export async function addressBookByInput(ctx: V3Context, inputs: string[]): Promise<AddressBookJson> {
  const raw = new Map<string, string | null>();
  for (const input of inputs) {
    const p = parseAddress(unspace(input));
    raw.set(input, p ? rawUpper(p.address) : null);
  }
  const accounts = [...new Set([...raw.values()].filter((a): a is string => a !== null))];
  const rows = await sideRows(ctx, accounts, { book: true, tokens: false });
  const codes = await accountCodes(ctx.sql, rows.codes);
  const out = new Map<string, AddressBookEntryJson>();
  for (const [input, account] of raw) {
    out.set(input, account === null ? { user_friendly: null, domain: null, interfaces: [] } : bookEntry(account, codes.get(account), ctx.testnet, rows.domains.get(account) ?? null));
  }
  return sortedKeys(out);
}

/** /metadata: keyed by raw address; invalid inputs dropped, non-token accounts absent. */
export async function metadataByInput(ctx: V3Context, inputs: string[]): Promise<MetadataJson> {
  const accounts = [
    ...new Set(
      inputs.flatMap((input) => {
        const p = parseAddress(unspace(input));
        return p ? [rawUpper(p.address)] : [];
      }),
    ),
  ];
  if (!accounts.length) return {};
  const rows = await sideRows(ctx, accounts, { book: false, tokens: true });
  return metadataEntries(accounts, rows, await accountCodes(ctx.sql, rows.codes));
}
