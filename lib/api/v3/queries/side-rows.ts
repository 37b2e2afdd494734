// The rows behind the address_book and metadata side maps (side-maps.ts), read in one statement: the
// accounts' code hashes (latest_account_states), their .ton names (dns_entries), the token rows among
// them (jetton wallets, the masters of those wallets and of the accounts, NFT collections and items) and
// the fetched off-chain content of those tokens (offchain_metadata). Nearly every v3 answer carries side
// maps; as seven queries (three of them waiting on the others) they cost more in round trips and
// per-query driver work than the lookups themselves cost the database.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import type { MetadataRow } from '../../../metadata';

export interface SideRows {
  /** Code hash by account, for the accounts the index has a state for (null: no code). */
  codes: Map<string, Uint8Array | null>;
  /** The .ton name of each account that has one (api-v3.md §3.20). */
  domains: Map<string, string>;
  wallets: { address: string; balance: Prisma.Decimal; owner: string; jetton: string }[];
  masters: { address: string; content: unknown }[];
  collections: { address: string; content: unknown }[];
  items: { address: string; index: Prisma.Decimal; content: unknown }[];
  /** Fetched off-chain content by URI, for the URIs of the token rows above. */
  fetched: Map<string, MetadataRow>;
}

/** Token content as the metadata reads it: a JSON object, else null. */
export const tokenContent = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The off-chain URI whose fetched content the metadata shows for token content (side-maps.ts tokenInfo), or null. */
export function contentUri(content: unknown): string | null {
  const uri = tokenContent(content)?.uri;
  return typeof uri === 'string' ? uri : null;
}

export interface SideParts {
  /** Code hashes and names (the address_book); code hashes are read for `tokens` too. */
  book: boolean;
  /** Token rows and their fetched content (the metadata). */
  tokens: boolean;
}

type Kind = 'code' | 'domain' | 'wallet' | 'master' | 'collection' | 'item' | 'offchain';

/** One row of the statement: its kind and the columns of its table, the others null. */
interface SideRow {
  kind: Kind;
  key: string;
  code_hash: Uint8Array | null;
  domain: string | null;
  owner: string | null;
  jetton: string | null;
  amount: Prisma.Decimal | null;
  content: unknown;
  state: MetadataRow['state'] | null;
  url: string | null;
  error: string | null;
}

// Every part selects these columns in this order (a UNION ALL lines them up by position).
const COLUMNS: [keyof SideRow, string][] = [
  ['kind', 'text'],
  ['key', 'text'],
  ['code_hash', 'bytea'],
  ['domain', 'text'],
  ['owner', 'text'],
  ['jetton', 'text'],
  ['amount', 'numeric'],
  ['content', 'jsonb'],
  ['state', 'text'],
  ['url', 'text'],
  ['error', 'text'],
];

function part(kind: Kind, values: Partial<Record<keyof SideRow, Prisma.Sql>>, rest: Prisma.Sql): Prisma.Sql {
  const cols = COLUMNS.map(([c, type]) =>
    c === 'kind' ? Prisma.raw(`'${kind}'::text AS kind`) : values[c] ? Prisma.sql`${values[c]}::${Prisma.raw(type)} AS ${Prisma.raw(c)}` : Prisma.raw(`NULL::${type} AS ${c}`),
  );
  return Prisma.sql`SELECT ${Prisma.join(cols)} ${rest}`;
}

/**
 * The statement (exported for the plan test). The account list is one parameter, in a CTE every part
 * reads (`= ANY` of it is an index condition), rather than sent once per part. `withMasters` (the
 * side-map cache's read, side-cache.ts): every part for the jetton masters of the accounts' wallets too,
 * so that each account read has its whole entry, masters included.
 */
export function sideRowsQuery(accounts: string[], want: SideParts, withMasters = false): Prisma.Sql {
  // The cast makes it an array expression (ANY over one value, an index condition), not ANY over a subquery's rows.
  const mine = Prisma.sql`= ANY((SELECT a FROM acc)::text[])`;
  const parts: Prisma.Sql[] = [];
  if (want.book || want.tokens) {
    parts.push(part('code', { key: Prisma.sql`account`, code_hash: Prisma.sql`code_hash` }, Prisma.sql`FROM latest_account_states WHERE account ${mine}`));
  }
  if (want.book) {
    // The account's shortest name (ties in domain order) among those whose NFT owner and wallet record
    // are both the account (api-v3.md §3.20).
    parts.push(
      part(
        'domain',
        { key: Prisma.sql`dns_wallet`, domain: Prisma.sql`domain` },
        Prisma.sql`FROM (SELECT DISTINCT ON (dns_wallet) dns_wallet, domain FROM dns_entries
          WHERE dns_wallet ${mine} AND nft_item_owner = dns_wallet ORDER BY dns_wallet, length(domain), domain) d`,
      ),
    );
  }
  if (want.tokens) {
    parts.push(
      part('wallet', { key: Prisma.sql`address`, owner: Prisma.sql`owner`, jetton: Prisma.sql`jetton`, amount: Prisma.sql`balance` }, Prisma.sql`FROM w`),
      part('master', { key: Prisma.sql`address`, content: Prisma.sql`content` }, Prisma.sql`FROM m`),
      part('collection', { key: Prisma.sql`address`, content: Prisma.sql`content` }, Prisma.sql`FROM c`),
      part('item', { key: Prisma.sql`address`, amount: Prisma.sql`index`, content: Prisma.sql`content` }, Prisma.sql`FROM i`),
      part(
        'offchain',
        { key: Prisma.sql`uri`, content: Prisma.sql`content`, state: Prisma.sql`state`, url: Prisma.sql`url`, error: Prisma.sql`error` },
        Prisma.sql`FROM offchain_metadata WHERE uri IN (SELECT content->>'uri' FROM m UNION SELECT content->>'uri' FROM c UNION SELECT content->>'uri' FROM i)`,
      ),
    );
  }
  const tokens = want.tokens
    ? Prisma.sql`,
      w AS (SELECT address, balance, owner, jetton FROM jetton_wallets WHERE address ${mine}),
      m AS (SELECT address, jetton_content AS content FROM jetton_masters WHERE address IN (SELECT unnest(a) FROM acc UNION SELECT jetton FROM w)),
      c AS (SELECT address, collection_content AS content FROM nft_collections WHERE address ${mine}),
      i AS (SELECT address, index, content FROM nft_items WHERE address ${mine})`
    : Prisma.empty;
  const acc = withMasters
    ? Prisma.sql`given AS (SELECT ${accounts}::text[] AS a),
      acc AS (SELECT ARRAY(SELECT unnest(a) FROM given UNION SELECT jetton FROM jetton_wallets WHERE address = ANY((SELECT a FROM given)::text[])) AS a)`
    : Prisma.sql`acc AS (SELECT ${accounts}::text[] AS a)`;
  return Prisma.sql`WITH ${acc}${tokens}
    ${Prisma.join(parts, ' UNION ALL ')}`;
}

export async function readSideRows(sql: SqlReader, accounts: string[], want: SideParts, withMasters = false): Promise<SideRows> {
  const out: SideRows = { codes: new Map(), domains: new Map(), wallets: [], masters: [], collections: [], items: [], fetched: new Map() };
  if (!accounts.length || (!want.book && !want.tokens)) return out;
  // Prepared: five spellings at most (the parts asked for, the cache's), the accounts one array parameter.
  for (const r of await sql.rows<SideRow>(sideRowsQuery(accounts, want, withMasters), 'side-rows')) {
    switch (r.kind) {
      case 'code':
        out.codes.set(r.key, r.code_hash);
        break;
      case 'domain':
        out.domains.set(r.key, r.domain!);
        break;
      case 'wallet':
        out.wallets.push({ address: r.key, balance: r.amount!, owner: r.owner!, jetton: r.jetton! });
        break;
      case 'master':
        out.masters.push({ address: r.key, content: r.content });
        break;
      case 'collection':
        out.collections.push({ address: r.key, content: r.content });
        break;
      case 'item':
        out.items.push({ address: r.key, index: r.amount!, content: r.content });
        break;
      case 'offchain':
        out.fetched.set(r.key, { uri: r.key, state: r.state!, url: r.url, content: r.content as MetadataRow['content'], error: r.error });
        break;
    }
  }
  return out;
}
