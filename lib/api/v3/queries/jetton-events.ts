// jetton_transfers and jetton_burns for GET /jetton/transfers and /jetton/burns: the filters they share
// (transaction lt and time ranges, wallets, master), their ordering and their JSON shapes (§3.12, §3.13).
import { Cell } from '@ton/core';
import { Prisma, type PrismaClient } from '../../../db/generated/client';
import { b64, dec, optB64 } from '../encode';
import { decodeBody } from '../mappers';
import type { JettonBurnJson, JettonTransferJson } from '../models';
import type { Page, SortOrder } from '../params';
import { txRangeAndOrder } from './tx-range';

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


/** Conditions both tables share, and the order: tx_now with time bounds, tx_lt otherwise. */
function shared(f: JettonEventFilter) {
  const cond: Prisma.Sql[] = [];
  if (f.jettonWallet?.length) cond.push(Prisma.sql`jetton_wallet = ANY(${f.jettonWallet}::text[])`);
  if (f.jettonMaster) cond.push(Prisma.sql`jetton_master = ${f.jettonMaster}`);
  const order = txRangeAndOrder(f, cond);
  return { cond, order };
}

const where = (cond: Prisma.Sql[]) => (cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty);

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

/** Non-aborted transfers (toncenter lists only those). */
export async function findJettonTransfers(prisma: PrismaClient, f: JettonTransferFilter, page: Page): Promise<JettonTransferJson[]> {
  const { cond, order } = shared(f);
  cond.push(Prisma.sql`NOT tx_aborted`);
  if (f.owner?.length) {
    const owners = f.owner;
    if (f.direction === 'in') cond.push(Prisma.sql`destination = ANY(${owners}::text[])`);
    else if (f.direction === 'out') cond.push(Prisma.sql`source = ANY(${owners}::text[])`);
    else cond.push(Prisma.sql`(source = ANY(${owners}::text[]) OR destination = ANY(${owners}::text[]))`);
  }
  const rows = await prisma.$queryRaw<TransferRow[]>(Prisma.sql`
    SELECT tx_hash, tx_lt, tx_now, tx_aborted, query_id, amount, source, destination, jetton_wallet, jetton_master,
           response_destination, custom_payload, forward_ton_amount, forward_payload, trace_id
    FROM jetton_transfers ${where(cond)} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`);
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

/** Burns, aborted ones included (as toncenter lists them). */
export async function findJettonBurns(prisma: PrismaClient, f: JettonBurnFilter, page: Page): Promise<JettonBurnJson[]> {
  const { cond, order } = shared(f);
  if (f.owner?.length) cond.push(Prisma.sql`owner = ANY(${f.owner}::text[])`);
  const rows = await prisma.$queryRaw<BurnRow[]>(Prisma.sql`
    SELECT tx_hash, tx_lt, tx_now, tx_aborted, query_id, owner, jetton_wallet, jetton_master, amount, response_destination, custom_payload, trace_id
    FROM jetton_burns ${where(cond)} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`);
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
