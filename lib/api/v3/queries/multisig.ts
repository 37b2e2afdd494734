// multisig_wallets and multisig_orders for GET /multisig/wallets and /multisig/orders (api-v3.md §2.3,
// §3.19): wallets by address or by member (signer or proposer), orders by address or by wallet, each in
// insertion order {sort}; a wallet's newest orders (LIMITS.multisigOrdersPerWallet, at most
// LIMITS.multisigOrdersPerAnswer per answer) are attached in insertion order.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { optB64 } from '../encode';
import type { MultisigJson, MultisigOrderJson } from '../models/multisig';
import { orderActions } from '../multisig-actions';
import type { Page, SortOrder } from '../params';
import { cellFromBoc } from '../../../actions/cells';
import { LIMITS } from '../../../limits';
import { oneOf } from './where';

interface WalletRow {
  address: string;
  next_order_seqno: Prisma.Decimal;
  threshold: number;
  signers: string[] | null;
  proposers: string[] | null;
  code_hash: Uint8Array | null;
  data_hash: Uint8Array | null;
  last_transaction_lt: bigint;
}

interface OrderRow {
  address: string;
  multisig_address: string;
  order_seqno: Prisma.Decimal;
  threshold: number;
  sent_for_execution: boolean;
  approvals_mask: Prisma.Decimal;
  approvals_num: number;
  expiration_date: bigint;
  order_boc: Uint8Array;
  signers: string[] | null;
  code_hash: Uint8Array | null;
  data_hash: Uint8Array | null;
  last_transaction_lt: bigint;
}

const direction = (sort: SortOrder) => Prisma.raw(sort === 'asc' ? 'ASC' : 'DESC');

const ORDER_COLUMNS = Prisma.sql`address, multisig_address, order_seqno, threshold, sent_for_execution, approvals_mask, approvals_num, expiration_date,
  order_boc, signers, code_hash, data_hash, last_transaction_lt`;

function orderJson(r: OrderRow, parseActions: boolean): MultisigOrderJson {
  const boc = Buffer.from(r.order_boc);
  return {
    address: r.address,
    multisig_address: r.multisig_address,
    order_seqno: r.order_seqno.toFixed(),
    threshold: r.threshold,
    sent_for_execution: r.sent_for_execution,
    approvals_mask: r.approvals_mask.toFixed(),
    approvals_num: r.approvals_num,
    expiration_date: Number(r.expiration_date),
    order_boc: boc.toString('base64'),
    signers: r.signers ?? [],
    last_transaction_lt: r.last_transaction_lt.toString(),
    code_hash: optB64(r.code_hash),
    data_hash: optB64(r.data_hash),
    // null, not absent, when not asked for: toncenter's model has no omitempty.
    actions: parseActions ? orderActions(cellFromBoc(boc)) : null,
  };
}

export interface MultisigWalletFilter {
  addresses?: string[];
  members?: string[];
}

/** The query of one page of wallets, in insertion order {sort}. */
export function multisigWalletsQuery(f: MultisigWalletFilter, sort: SortOrder, page: Page): Prisma.Sql {
  const conds: Prisma.Sql[] = [];
  if (f.addresses?.length) conds.push(oneOf('address', f.addresses));
  if (f.members?.length) conds.push(Prisma.sql`(signers && ${f.members}::varchar[] OR proposers && ${f.members}::varchar[])`);
  return Prisma.sql`
    SELECT address, next_order_seqno, threshold, signers, proposers, code_hash, data_hash, last_transaction_lt
    FROM multisig_wallets WHERE ${Prisma.join(conds, ' AND ')} ORDER BY id ${direction(sort)} LIMIT ${page.take} OFFSET ${page.skip}`;
}

/**
 * The orders attached to `wallets`: each wallet's newest off (multisig_address, id), at most
 * multisigOrdersPerWallet; of those at most multisigOrdersPerAnswer in all, every wallet's newest before
 * any wallet's next (rank), so a page of many busy wallets still shows each one's latest orders.
 */
export const walletOrdersQuery = (wallets: string[]): Prisma.Sql => Prisma.sql`
  SELECT o.* FROM unnest(${wallets}::text[]) AS w(address)
  CROSS JOIN LATERAL (
    SELECT ${ORDER_COLUMNS}, id, row_number() OVER (ORDER BY id DESC) AS rank
    FROM (SELECT ${ORDER_COLUMNS}, id FROM multisig_orders WHERE multisig_address = w.address ORDER BY id DESC LIMIT ${LIMITS.multisigOrdersPerWallet}) newest
  ) o
  ORDER BY o.rank, o.id DESC LIMIT ${LIMITS.multisigOrdersPerAnswer}`;

export async function findMultisigWallets(
  sql: SqlReader,
  f: MultisigWalletFilter,
  o: { includeOrders: boolean; sort: SortOrder; page: Page },
): Promise<MultisigJson[]> {
  const rows = await sql.rows<WalletRow>(multisigWalletsQuery(f, o.sort, o.page));
  const orders = new Map<string, MultisigOrderJson[]>();
  if (o.includeOrders && rows.length) {
    const found = await sql.rows<OrderRow & { id: bigint }>(walletOrdersQuery(rows.map((r) => r.address)));
    // Attached in id order.
    found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const r of found) orders.set(r.multisig_address, [...(orders.get(r.multisig_address) ?? []), orderJson(r, false)]);
  }
  return rows.map((r) => ({
    address: r.address,
    next_order_seqno: r.next_order_seqno.toFixed(),
    threshold: r.threshold,
    signers: r.signers ?? [],
    proposers: r.proposers ?? [],
    last_transaction_lt: r.last_transaction_lt.toString(),
    code_hash: optB64(r.code_hash),
    data_hash: optB64(r.data_hash),
    // [quirk] toncenter: [] when orders were not asked for, null when asked for and there are none.
    orders: o.includeOrders ? (orders.get(r.address) ?? null) : [],
  }));
}

export interface MultisigOrderFilter {
  addresses?: string[];
  multisigs?: string[];
}

/** The query of one page of orders, in insertion order {sort}. */
export function multisigOrdersQuery(f: MultisigOrderFilter, sort: SortOrder, page: Page): Prisma.Sql {
  const conds: Prisma.Sql[] = [];
  if (f.addresses?.length) conds.push(oneOf('address', f.addresses));
  if (f.multisigs?.length) conds.push(oneOf('multisig_address', f.multisigs));
  return Prisma.sql`
    SELECT ${ORDER_COLUMNS} FROM multisig_orders WHERE ${Prisma.join(conds, ' AND ')}
    ORDER BY id ${direction(sort)} LIMIT ${page.take} OFFSET ${page.skip}`;
}

export async function findMultisigOrders(
  sql: SqlReader,
  f: MultisigOrderFilter,
  o: { parseActions: boolean; sort: SortOrder; page: Page },
): Promise<MultisigOrderJson[]> {
  const rows = await sql.rows<OrderRow>(multisigOrdersQuery(f, o.sort, o.page));
  return rows.map((r) => orderJson(r, o.parseActions));
}
