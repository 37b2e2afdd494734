// What the v3 bench asks: every GET route of /api/v3 that reads the index (lib/api/v3/registry.ts), with
// parameters drawn from the seeded rows. Not here, because they do not read the index:
// - account, addressInformation, wallet, walletInformation: answered live through the lite client (`v2`
//   and `devnet` benchmarks measure that path); runGetMethod, estimateFee, message are POST routes to it;
// - pendingTransactions, pendingTraces, pendingActions: the pending store of sent messages (`pending`
//   benchmark: emulation); an API with no store answers them 500;
// - emulate (POST) emulates a trace (`pending` benchmark).
// decode reads no table either, but is a cheap GET route: measured as a point lookup for completeness.
//
// Classes, as issues 16 and 31 set targets for them: point lookups (by a hash, an address or a seqno), account
// lookups (a page of 20 — the explorer's page — by an account, owner, jetton or collection; measured over
// 3 hot and 47 ordinary keys, and over the 3 hot ones alone), list routes (the newest rows at the default
// limit, 100) and heavy ones (limit=1000; a target for /transactions only).
import type { SqlSession } from '../lib/db/sql';

export type RouteClass = 'point' | 'account' | 'list' | 'heavy';
export type Query = Record<string, string | number | string[]>;

export interface RouteBench {
  name: string;
  cls: RouteClass;
  route: string;
  /** Parameters of request i (keys taken round-robin). */
  params: (i: number) => Query;
  /** Parameters with the 3 hot keys alone (account lookups keyed by accounts). */
  hot?: (i: number) => Query;
  /** The keys, for the note: "50 accounts (3 hot)". */
  keys: string;
}

/** The 3 keys with the most rows and ordinary ones, from a sample of a table's rows. */
export interface KeySet {
  hot: string[];
  ordinary: string[];
}

const SAMPLE = 20_000;
const ORDINARY = 47;
const POINTS = 200;

/**
 * Up to `n` rows of `table` from a page sample (TABLESAMPLE SYSTEM, the same pages on every run: A/B runs
 * of a kept database ask the same keys). `cols` and `where` are the caller's literals.
 */
async function sampleRows<T extends Record<string, unknown>>(s: SqlSession, table: string, cols: string, n: number, where = 'TRUE'): Promise<T[]> {
  const [c] = await s.query<{ n: number }>("SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE relname = $1 AND relkind IN ('r', 'p')", [table]);
  // Half again what is needed (a filter drops some), whole tables when small; then the whole table if the sample fell short.
  for (const pct of [Math.min(100, (150 * n) / Math.max(1, Number(c?.n ?? 0))), 100]) {
    const rows = await s.query<T>(`SELECT ${cols} FROM "${table}" TABLESAMPLE SYSTEM ($1) REPEATABLE (16) WHERE ${where} LIMIT ${n}`, [pct]);
    if (rows.length >= n / 2 || pct === 100) return rows;
  }
  return [];
}

async function keySet(s: SqlSession, table: string, column: string): Promise<KeySet> {
  const rows = await sampleRows<{ v: string }>(s, table, `"${column}" AS v`, SAMPLE, `"${column}" IS NOT NULL`);
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.v, (counts.get(r.v) ?? 0) + 1);
  const hot = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([v]) => v);
  const ordinary = [...new Set(rows.map((r) => r.v))].filter((v) => !hot.includes(v)).slice(0, ORDINARY);
  return { hot, ordinary };
}

const values = async (s: SqlSession, table: string, expr: string, where = 'TRUE', n = POINTS) => (await sampleRows<{ v: string }>(s, table, `${expr} AS v`, n, `${where} AND ${expr} IS NOT NULL`)).map((r) => r.v);
const b64 = (col: string) => `encode(${col}, 'base64')`;

/** The keys every route is asked with, drawn from the seeded database. */
export async function drawKeys(s: SqlSession) {
  return {
    txAccounts: await keySet(s, 'transactions', 'account'),
    sources: await keySet(s, 'messages', 'source'),
    destinations: await keySet(s, 'messages', 'destination'),
    actionAccounts: await keySet(s, 'action_accounts', 'account'),
    walletOwners: await keySet(s, 'jetton_wallets', 'owner'),
    itemOwners: await keySet(s, 'nft_items', 'owner_address'),
    transferOwners: await keySet(s, 'jetton_transfers', 'source'),
    burnOwners: await keySet(s, 'jetton_burns', 'owner'),
    nftTransferOwners: await keySet(s, 'nft_transfers', 'new_owner'),
    txHashes: await values(s, 'transactions', b64('hash')),
    msgHashes: await values(s, 'messages', b64('msg_hash')),
    // Transactions an internal message came in to: they have a parent.
    childTxs: await values(s, 'messages', b64('tx_hash'), "direction = 'in' AND source IS NOT NULL"),
    traceIds: await values(s, 'traces', b64('trace_id'), "state = 'complete'"),
    actions: await sampleRows<{ trace: string; action: string }>(s, 'actions', `${b64('trace_id')} AS trace, ${b64('action_id')} AS action`, POINTS),
    // shard as the routes take it: unsigned hex (to_hex writes a negative int8 as its two's complement).
    blocks: await sampleRows<{ workchain: number; shard: string; seqno: number }>(s, 'blocks', 'workchain, upper(to_hex(shard)) AS shard, seqno', POINTS),
    mcSeqnos: (await sampleRows<{ v: number }>(s, 'blocks', 'seqno AS v', POINTS, 'workchain = -1')).map((r) => r.v),
    states: await values(s, 'latest_account_states', 'account'),
    jettonWallets: await values(s, 'jetton_wallets', 'address'),
    jettonMasters: await values(s, 'jetton_masters', 'address'),
    items: await values(s, 'nft_items', 'address'),
    transferredItems: await values(s, 'nft_transfers', 'nft_item_address'),
    collections: await values(s, 'nft_collections', 'address'),
    sales: await values(s, 'nft_sales', 'address'),
    domains: await values(s, 'dns_entries', 'domain'),
    dnsWallets: await values(s, 'dns_entries', 'dns_wallet'),
    vestings: await values(s, 'vesting_contracts', 'address'),
    vestingOwners: await values(s, 'vesting_contracts', 'owner_address'),
    multisigs: await values(s, 'multisig_wallets', 'address'),
    signers: await values(s, 'multisig_wallets', 'signers[1]'),
    orders: await values(s, 'multisig_orders', 'address'),
    words: await values(s, 'token_names', 'word'),
    bodies: await values(s, 'message_contents', b64('boc'), 'length(boc) < 300', 20),
  };
}

export type Keys = Awaited<ReturnType<typeof drawKeys>>;

const at = <T>(list: T[], i: number): T => list[i % list.length]!;
const PAGE = { limit: 20 };
const HEAVY = { limit: 1000 };

/**
 * The benchmarks: every route and filter kind once. `skipped` gets the ones the seeded chain has no rows
 * to draw keys from (a chain without vesting contracts, say).
 */
export function routeBenches(k: Keys, skipped: string[]): RouteBench[] {
  const out: RouteBench[] = [];
  const point = (name: string, route: string, list: unknown[], params: (i: number) => Query) => {
    if (!list.length) skipped.push(name);
    else out.push({ name, cls: 'point', route, params, keys: `${Math.min(list.length, POINTS)} keys` });
  };
  /** An account lookup: a page of 20 over the 3 hot and up to 47 ordinary keys, then the 3 hot ones alone. */
  const byAccount = (name: string, route: string, set: KeySet, param: string, extra: Query = {}) => {
    const keys = [...set.hot, ...set.ordinary];
    if (!keys.length) return skipped.push(name);
    out.push({
      name,
      cls: 'account',
      route,
      params: (i) => ({ [param]: at(keys, i), ...PAGE, ...extra }),
      hot: set.ordinary.length ? (i) => ({ [param]: at(set.hot, i), ...PAGE, ...extra }) : undefined,
      keys: `${keys.length} keys, ${set.hot.length} hot`,
    });
  };
  const byList = (name: string, route: string, list: unknown[], params: (i: number) => Query) => {
    if (!list.length) skipped.push(name);
    else out.push({ name, cls: 'account', route, params, keys: `${list.length} keys` });
  };
  const newest = (route: string, params: Query = {}, cls: RouteClass = 'list') =>
    out.push({ name: `/${route}${Object.keys(params).length ? `?${Object.entries(params).map(([p, v]) => `${p}=${String(v)}`).join('&')}` : ''}`, cls, route, params: () => params, keys: 'newest' });

  // Blocks.
  point('/masterchainInfo', 'masterchainInfo', [1], () => ({}));
  point('/blocks?workchain&shard&seqno', 'blocks', k.blocks, (i) => ({ ...at(k.blocks, i) }));
  point('/masterchainBlockShardState?seqno', 'masterchainBlockShardState', k.mcSeqnos, (i) => ({ seqno: at(k.mcSeqnos, i) }));
  point('/masterchainBlockShards?seqno', 'masterchainBlockShards', k.mcSeqnos, (i) => ({ seqno: at(k.mcSeqnos, i) }));
  newest('blocks');
  newest('blocks', HEAVY, 'heavy');
  // Transactions.
  point('/transactions?hash', 'transactions', k.txHashes, (i) => ({ hash: at(k.txHashes, i) }));
  point('/transactionsByMessage?msg_hash', 'transactionsByMessage', k.msgHashes, (i) => ({ msg_hash: at(k.msgHashes, i) }));
  point('/adjacentTransactions?hash', 'adjacentTransactions', k.childTxs, (i) => ({ hash: at(k.childTxs, i) }));
  byAccount('/transactions?account&limit=20', 'transactions', k.txAccounts, 'account');
  newest('transactions');
  newest('transactions', HEAVY, 'heavy');
  if (k.blocks.length) out.push({ name: '/transactions?workchain&shard&seqno', cls: 'list', route: 'transactions', params: (i) => ({ ...at(k.blocks, i) }), keys: `${k.blocks.length} blocks` });
  if (k.mcSeqnos.length) out.push({ name: '/transactionsByMasterchainBlock?seqno', cls: 'list', route: 'transactionsByMasterchainBlock', params: (i) => ({ seqno: at(k.mcSeqnos, i) }), keys: `${k.mcSeqnos.length} blocks` });
  // Messages.
  point('/messages?msg_hash', 'messages', k.msgHashes, (i) => ({ msg_hash: at(k.msgHashes, i) }));
  byAccount('/messages?source&limit=20', 'messages', k.sources, 'source');
  byAccount('/messages?destination&limit=20', 'messages', k.destinations, 'destination');
  newest('messages');
  // Accounts.
  point('/accountStates?address', 'accountStates', k.states, (i) => ({ address: at(k.states, i) }));
  point('/walletStates?address', 'walletStates', k.states, (i) => ({ address: at(k.states, i) }));
  point('/addressBook?address', 'addressBook', k.states, (i) => ({ address: at(k.states, i) }));
  point('/metadata?address', 'metadata', k.jettonWallets, (i) => ({ address: at(k.jettonWallets, i) }));
  newest('topAccountsByBalance');
  // Traces and actions.
  point('/traces?trace_id', 'traces', k.traceIds, (i) => ({ trace_id: at(k.traceIds, i) }));
  point('/traces?tx_hash', 'traces', k.txHashes, (i) => ({ tx_hash: at(k.txHashes, i) }));
  point('/traces?msg_hash', 'traces', k.msgHashes, (i) => ({ msg_hash: at(k.msgHashes, i) }));
  point('/events?trace_id', 'events', k.traceIds, (i) => ({ trace_id: at(k.traceIds, i) }));
  point('/actions?trace_id', 'actions', k.actions, (i) => ({ trace_id: at(k.actions, i).trace }));
  point('/actions?action_id', 'actions', k.actions, (i) => ({ action_id: at(k.actions, i).action }));
  point('/balanceChanges?trace_id', 'balanceChanges', k.traceIds, (i) => ({ trace_id: at(k.traceIds, i) }));
  byAccount('/traces?account&limit=20', 'traces', k.txAccounts, 'account');
  byAccount('/events?account&limit=20', 'events', k.txAccounts, 'account');
  byAccount('/actions?account&limit=20', 'actions', k.actionAccounts, 'account');
  newest('traces');
  newest('events');
  newest('actions');
  // Jettons.
  point('/jetton/masters?address', 'jetton/masters', k.jettonMasters, (i) => ({ address: at(k.jettonMasters, i) }));
  point('/jetton/wallets?address', 'jetton/wallets', k.jettonWallets, (i) => ({ address: at(k.jettonWallets, i) }));
  byAccount('/jetton/wallets?owner_address&limit=20', 'jetton/wallets', k.walletOwners, 'owner_address');
  byList('/jetton/wallets?jetton_address&limit=20', 'jetton/wallets', k.jettonMasters, (i) => ({ jetton_address: at(k.jettonMasters, i), ...PAGE }));
  byAccount('/jetton/transfers?owner_address&limit=20', 'jetton/transfers', k.transferOwners, 'owner_address');
  byList('/jetton/transfers?jetton_master&limit=20', 'jetton/transfers', k.jettonMasters, (i) => ({ jetton_master: at(k.jettonMasters, i), ...PAGE }));
  byAccount('/jetton/burns?owner_address&limit=20', 'jetton/burns', k.burnOwners, 'owner_address');
  newest('jetton/masters');
  newest('jetton/wallets');
  newest('jetton/transfers');
  newest('jetton/burns');
  // NFTs.
  point('/nft/collections?collection_address', 'nft/collections', k.collections, (i) => ({ collection_address: at(k.collections, i) }));
  point('/nft/items?address', 'nft/items', k.items, (i) => ({ address: at(k.items, i) }));
  point('/nft/sales?address', 'nft/sales', k.sales, (i) => ({ address: at(k.sales, i) }));
  byAccount('/nft/items?owner_address&limit=20', 'nft/items', k.itemOwners, 'owner_address');
  byList('/nft/items?collection_address&limit=20', 'nft/items', k.collections, (i) => ({ collection_address: at(k.collections, i), ...PAGE }));
  byAccount('/nft/transfers?owner_address&limit=20', 'nft/transfers', k.nftTransferOwners, 'owner_address');
  byList('/nft/transfers?item_address&limit=20', 'nft/transfers', k.transferredItems, (i) => ({ item_address: at(k.transferredItems, i), ...PAGE }));
  byList('/nft/transfers?collection_address&limit=20', 'nft/transfers', k.collections, (i) => ({ collection_address: at(k.collections, i), ...PAGE }));
  newest('nft/collections');
  newest('nft/items');
  newest('nft/transfers');
  // DNS, vesting, multisig, search, decode.
  point('/dns/records?domain', 'dns/records', k.domains, (i) => ({ domain: at(k.domains, i) }));
  point('/dns/records?wallet', 'dns/records', k.dnsWallets, (i) => ({ wallet: at(k.dnsWallets, i) }));
  point('/vesting?contract_address', 'vesting', k.vestings, (i) => ({ contract_address: at(k.vestings, i) }));
  point('/vesting?wallet_address', 'vesting', k.vestingOwners, (i) => ({ wallet_address: at(k.vestingOwners, i) }));
  point('/multisig/wallets?address', 'multisig/wallets', k.multisigs, (i) => ({ address: at(k.multisigs, i) }));
  point('/multisig/orders?address', 'multisig/orders', k.orders, (i) => ({ address: at(k.orders, i) }));
  byList('/multisig/wallets?wallet_address&limit=20', 'multisig/wallets', k.signers, (i) => ({ wallet_address: at(k.signers, i), ...PAGE }));
  byList('/multisig/orders?multisig_address&limit=20', 'multisig/orders', k.multisigs, (i) => ({ multisig_address: at(k.multisigs, i), ...PAGE }));
  if (k.words.length) out.push({ name: '/search?q', cls: 'list', route: 'search', params: (i) => ({ q: at(k.words, i) }), keys: `${k.words.length} words` });
  point('/decode?opcodes&bodies', 'decode', k.bodies, (i) => ({ opcodes: ['0x0f8a7ea5', '0x5fcc3d14', '0x178d4519'], bodies: [at(k.bodies, i)] }));
  return out;
}
