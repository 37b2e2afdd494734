// The address_book and metadata side maps (api-v3.md §1.9, §3.20, §3.21), keyed by raw address with
// Go's sorted key order. Both come from latest_account_states: the code hash decides the user-friendly
// form (non-bounceable for accounts without code or with a standard wallet code) and, with the code's
// get-method ids, the interfaces. Jetton metadata comes from the jetton tables the indexer derives.
// Domains need the DNS index (not built yet): always null.
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { friendly, parseAddress, rawUpper } from '../../ton/address';
import type { V3Context } from './context';
import { b64, bytes, hex, sortedKeys } from './encode';
import { bocCell, contractMethods, detectInterfaces, TOKEN_INTERFACES } from './interfaces';
import type { AddressBookEntryJson, AddressBookJson, MetadataJson } from './models';
import { unspace } from './params';
import { isStandardWallet } from '../../ton/wallets';

// Get-method ids by code hash (hex). A code's methods never change and codes are few, so the cache
// only ever grows; it is dropped wholesale if a pathological index makes it large.
const methodsCache = new Map<string, number[] | null>();
const METHODS_CACHE_MAX = 50_000;

/** Get-method ids for each code hash (null: no method dictionary in the code, or code unknown). */
export async function methodsByCodeHash(prisma: PrismaClient, codeHashes: Iterable<Uint8Array | null>): Promise<Map<string, number[] | null>> {
  const wanted = new Map<string, Uint8Array>();
  for (const h of codeHashes) if (h) wanted.set(hex(h), h);
  const missing = [...wanted].filter(([k]) => !methodsCache.has(k)).map(([, h]) => bytes(h));
  if (missing.length) {
    if (methodsCache.size > METHODS_CACHE_MAX) methodsCache.clear();
    // One indexed lookup per code hash (a code may be shared by millions of accounts).
    const rows = await prisma.$queryRaw<{ code_hash: Uint8Array; code_boc: Uint8Array | null }[]>(Prisma.sql`
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
  codeHash: Uint8Array | null;
  interfaces: string[];
}

/** Code hash and interfaces of the accounts the index has a state for. */
async function accountCodes(prisma: PrismaClient, accounts: string[]): Promise<Map<string, AccountCode>> {
  const rows = await prisma.latestAccountState.findMany({ where: { account: { in: accounts } }, select: { account: true, codeHash: true } });
  const methods = await methodsByCodeHash(prisma, rows.map((r) => r.codeHash));
  return new Map(
    rows.map((r) => [
      r.account,
      { codeHash: r.codeHash, interfaces: detectInterfaces(r.codeHash ? b64(r.codeHash) : null, r.codeHash ? methods.get(hex(r.codeHash))! : null) },
    ]),
  );
}

function bookEntry(account: string, code: AccountCode | undefined, testnet: boolean): AddressBookEntryJson {
  const parsed = parseAddress(account);
  const codeHash = code?.codeHash ? b64(code.codeHash) : null;
  const bounceable = codeHash !== null && !isStandardWallet(codeHash);
  return {
    user_friendly: parsed ? friendly(parsed.address, { bounceable, testOnly: testnet }) : 'addr_none',
    domain: null,
    // An account the index never saw: []; seen but without code: null (toncenter's distinction).
    interfaces: code === undefined ? [] : codeHash === null ? null : code.interfaces,
  };
}

type TokenInfoJson = MetadataJson[string]['token_info'][number];

/** TEP-64 attributes shown as TokenInfo fields; the others go to `extra`. */
const SHOWN = ['name', 'symbol', 'description', 'image'] as const;

/** A master's token_info from its indexed content; null when it is off-chain (not fetched). */
function masterInfo(content: Record<string, string> | null): TokenInfoJson | null {
  if (!content || 'uri' in content) return null;
  const info: TokenInfoJson = { valid: true, type: 'jetton_masters' };
  for (const k of SHOWN) if (content[k] !== undefined) info[k] = content[k];
  info.is_nsfw = false;
  info.is_scam = false;
  const extra = Object.entries(content).filter(([k]) => !(SHOWN as readonly string[]).includes(k));
  if (extra.length) info.extra = Object.fromEntries(extra.sort(([a], [b]) => (a < b ? -1 : 1)));
  return info;
}

/**
 * Token contracts among the accounts (and the master of every jetton wallet among them): jetton wallets
 * and masters from the jetton tables, other token contracts listed as not indexed.
 */
async function metadataEntries(prisma: PrismaClient, accounts: string[], codes: Map<string, AccountCode>): Promise<MetadataJson> {
  const out = new Map<string, MetadataJson[string]>();
  const wallets = await prisma.jettonWallet.findMany({ where: { address: { in: accounts } }, select: { address: true, balance: true, owner: true, jetton: true } });
  const masterAddresses = [...new Set([...accounts, ...wallets.map((w) => w.jetton)])];
  const masters = await prisma.jettonMaster.findMany({ where: { address: { in: masterAddresses } }, select: { address: true, jettonContent: true } });
  for (const a of accounts) {
    const code = codes.get(a);
    if (code && code.interfaces.some((i) => i in TOKEN_INTERFACES)) out.set(a, { is_indexed: false, token_info: [] });
  }
  for (const w of wallets) {
    const extra = { balance: w.balance.toFixed(), jetton: w.jetton, owner: w.owner };
    out.set(w.address, { is_indexed: true, token_info: [{ valid: true, type: 'jetton_wallets', extra }] });
  }
  for (const m of masters) {
    const info = masterInfo(m.jettonContent as Record<string, string> | null);
    // Off-chain content is not fetched: listed with its type only, as toncenter lists what it has not fetched yet.
    out.set(m.address, info ? { is_indexed: true, token_info: [info] } : { is_indexed: false, token_info: [{ type: 'jetton_masters' }] });
  }
  return sortedKeys(out);
}

export interface SideMaps {
  address_book: AddressBookJson;
  metadata: MetadataJson;
}

/** address_book and metadata for the addresses a response mentions (one query for both). */
export async function sideMaps(ctx: V3Context, addresses: Iterable<string | null | undefined>, want = { book: true, metadata: true }): Promise<SideMaps> {
  const book = want.book && !ctx.noAddressBook;
  const meta = want.metadata && !ctx.noMetadata;
  const accounts = [...new Set([...addresses].filter((a): a is string => !!a))];
  if (!accounts.length || (!book && !meta)) return { address_book: {}, metadata: {} };
  const codes = await accountCodes(ctx.prisma, accounts);
  return {
    address_book: book ? sortedKeys(new Map(accounts.map((a) => [a, bookEntry(a, codes.get(a), ctx.testnet)]))) : {},
    metadata: meta ? await metadataEntries(ctx.prisma, accounts, codes) : {},
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
  const codes = accounts.length ? await accountCodes(ctx.prisma, accounts) : new Map<string, AccountCode>();
  const out = new Map<string, AddressBookEntryJson>();
  for (const [input, account] of raw) {
    out.set(input, account === null ? { user_friendly: null, domain: null, interfaces: [] } : bookEntry(account, codes.get(account), ctx.testnet));
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
  return metadataEntries(ctx.prisma, accounts, await accountCodes(ctx.prisma, accounts));
}
