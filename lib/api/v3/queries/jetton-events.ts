// jetton_transfers and jetton_burns for GET /jetton/transfers and /jetton/burns: the filters they share
// (transaction lt and time ranges, wallets, master), their ordering and their JSON shapes (§3.12, §3.13).
import { Cell } from '@ton/core';
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { b64, dec, optB64 } from '../encode';
import { decodeBody } from '../mappers';
import type { JettonBurnJson, JettonTransferJson } from '../models/jettons';
import type { Page, SortOrder } from '../params';
import { txRangeAndOrder } from './tx-range';
import { oneOf, pageOfEither, where, type KeyFilter } from './where';

export interface JettonEventFilter {
  jettonWallet?: string[];
  jettonMaster?: string;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  sort: SortOrder;
}

export interface JettonTransferFilter extends JettonEventFilter {
  owner?: string[];
  /** With owner: in = the owner received, out = the owner sent, both (default) = either. */
  direction?: 'in' | 'out' | 'both';
}

/**
 * Conditions both tables share with the table's `owner` filter (tx-range.ts: the most selective first, the
 * first of one value keys the page), and the order: tx_now with time bounds, tx_lt otherwise.
 */
function shared(f: JettonEventFilter, owner: KeyFilter) {
  const cond: Prisma.Sql[] = [];
  const order = txRangeAndOrder(f, cond, [['jetton_wallet', f.jettonWallet], owner, ['jetton_master', f.jettonMaster ? [f.jettonMaster] : undefined]]);
  return { cond, order };
}

interface EventRow {
  tx_hash: Uint8Array;
  tx_lt: bigint;
  tx_now: number;
  tx_aborted: boolean;
  query_id: Prisma.Decimal;
  amount: Prisma.Decimal;
  jetton_wallet: string;
  jetton_master: string | null;
  response_destination: string | null;
  custom_payload: Uint8Array | null;
  trace_id: Uint8Array | null;
}

interface TransferRow extends EventRow {
  source: string | null;
  destination: string | null;
  forward_ton_amount: Prisma.Decimal;
  forward_payload: Uint8Array | null;
}

interface BurnRow extends EventRow {
  owner: string | null;
}

/** The query of one page of transfers: non-aborted ones (toncenter lists only those). */
export function jettonTransfersQuery(f: JettonTransferFilter, page: Page): Prisma.Sql {
  const either = !!f.owner?.length && f.direction !== 'in' && f.direction !== 'out';
  const { cond, order } = shared(f, [f.direction === 'in' ? 'destination' : 'source', either ? undefined : f.owner]);
  cond.push(Prisma.sql`NOT tx_aborted`);
  const from = Prisma.sql`
    SELECT tx_hash, tx_lt, tx_now, tx_aborted, query_id, amount, source, destination, jetton_wallet, jetton_master,
           response_destination, custom_payload, forward_ton_amount, forward_payload, trace_id
    FROM jetton_transfers`;
  if (either) return pageOfEither(from, cond, [oneOf('source', f.owner!), oneOf('destination', f.owner!)], order, page);
  return Prisma.sql`${from} ${where(cond)} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`;
}

export async function findJettonTransfers(sql: SqlReader, f: JettonTransferFilter, page: Page): Promise<JettonTransferJson[]> {
  const rows = await sql.rows<TransferRow>(jettonTransfersQuery(f, page));
  return rows.map((r) => ({
    query_id: dec(r.query_id),
    source: r.source,
    destination: r.destination,
    amount: dec(r.amount),
    source_wallet: r.jetton_wallet,
    jetton_master: r.jetton_master,
    transaction_hash: b64(r.tx_hash),
    transaction_lt: r.tx_lt.toString(),
    transaction_now: r.tx_now,
    transaction_aborted: r.tx_aborted,
    response_destination: r.response_destination,
    custom_payload: optB64(r.custom_payload),
    decoded_custom_payload: null,
    forward_ton_amount: dec(r.forward_ton_amount),
    forward_payload: optB64(r.forward_payload),
    decoded_forward_payload: r.forward_payload ? decodePayload(r.forward_payload) : null,
    trace_id: optB64(r.trace_id),
  }));
}

export interface JettonBurnFilter extends JettonEventFilter {
  owner?: string[];
}

/** The query of one page of burns, aborted ones included (as toncenter lists them). */
export function jettonBurnsQuery(f: JettonBurnFilter, page: Page): Prisma.Sql {
  const { cond, order } = shared(f, ['owner', f.owner]);
  return Prisma.sql`
    SELECT tx_hash, tx_lt, tx_now, tx_aborted, query_id, owner, jetton_wallet, jetton_master, amount, response_destination, custom_payload, trace_id
    FROM jetton_burns ${where(cond)} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`;
}

export async function findJettonBurns(sql: SqlReader, f: JettonBurnFilter, page: Page): Promise<JettonBurnJson[]> {
  const rows = await sql.rows<BurnRow>(jettonBurnsQuery(f, page));
  return rows.map((r) => ({
    query_id: dec(r.query_id),
    owner: r.owner,
    jetton_wallet: r.jetton_wallet,
    jetton_master: r.jetton_master,
    transaction_hash: b64(r.tx_hash),
    transaction_lt: r.tx_lt.toString(),
    transaction_now: r.tx_now,
    transaction_aborted: r.tx_aborted,
    amount: dec(r.amount),
    response_destination: r.response_destination,
    custom_payload: optB64(r.custom_payload),
    decoded_custom_payload: null,
    trace_id: optB64(r.trace_id),
  }));
}

/** A forward payload decoded as message bodies are (the text comment); null otherwise (NFT transfers too). */
export function decodePayload(boc: Uint8Array): Record<string, unknown> | null {
  try {
    const s = Cell.fromBoc(Buffer.from(boc))[0]!.beginParse();
    return s.remainingBits >= 32 ? decodeBody(s.preloadUint(32), boc) : null;
  } catch {
    return null;
  }
}
