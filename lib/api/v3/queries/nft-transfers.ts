// nft_transfers for GET /nft/transfers: filters, ordering and the JSON shape (api-v3.md §2.3, §3.16).
// Aborted transfers are listed, as toncenter lists them.
import { Prisma } from '../../../db/generated/client';
import type { SqlReader } from '../../../db/sql';
import { b64, dec, optB64 } from '../encode';
import type { NftTransferJson } from '../models/nfts';
import type { Page, SortOrder } from '../params';
import { txRangeAndOrder } from './tx-range';
import { decodePayload } from './jetton-events';
import { oneOf, pageOfEither, where } from './where';

export interface NftTransferFilter {
  owner?: string[];
  /** With owner: in = the owner received, out = the owner sent, both (default) = either. */
  direction?: 'in' | 'out' | 'both';
  item?: string[];
  collection?: string;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
  sort: SortOrder;
}

interface Row {
  tx_hash: Uint8Array;
  tx_lt: bigint;
  tx_now: number;
  tx_aborted: boolean;
  query_id: Prisma.Decimal;
  nft_item_address: string;
  nft_collection_address: string | null;
  old_owner: string | null;
  new_owner: string | null;
  response_destination: string | null;
  custom_payload: Uint8Array | null;
  forward_amount: Prisma.Decimal;
  forward_payload: Uint8Array | null;
  trace_id: Uint8Array | null;
}

/** The query of one page, ordered by tx_lt {sort}, or by tx_now {sort} when a time bound is given. */
export function nftTransfersQuery(f: NftTransferFilter, page: Page): Prisma.Sql {
  const cond: Prisma.Sql[] = [];
  const either = !!f.owner?.length && f.direction !== 'in' && f.direction !== 'out';
  // The most selective first: the first of one value keys the page (tx-range.ts).
  const order = txRangeAndOrder(f, cond, [
    ['nft_item_address', f.item],
    [f.direction === 'in' ? 'new_owner' : 'old_owner', either ? undefined : f.owner],
    ['nft_collection_address', f.collection ? [f.collection] : undefined],
  ]);
  const from = Prisma.sql`
    SELECT tx_hash, tx_lt, tx_now, tx_aborted, query_id, nft_item_address, nft_collection_address, old_owner, new_owner,
           response_destination, custom_payload, forward_amount, forward_payload, trace_id
    FROM nft_transfers`;
  if (either) return pageOfEither(from, cond, [oneOf('old_owner', f.owner!), oneOf('new_owner', f.owner!)], order, page);
  return Prisma.sql`${from} ${where(cond)} ORDER BY ${order} LIMIT ${page.take} OFFSET ${page.skip}`;
}

export async function findNftTransfers(sql: SqlReader, f: NftTransferFilter, page: Page): Promise<NftTransferJson[]> {
  const rows = await sql.rows<Row>(nftTransfersQuery(f, page));
  return rows.map((r) => ({
    query_id: dec(r.query_id),
    nft_address: r.nft_item_address,
    nft_collection: r.nft_collection_address,
    transaction_hash: b64(r.tx_hash),
    transaction_lt: r.tx_lt.toString(),
    transaction_now: r.tx_now,
    transaction_aborted: r.tx_aborted,
    old_owner: r.old_owner,
    new_owner: r.new_owner,
    response_destination: r.response_destination,
    custom_payload: optB64(r.custom_payload),
    decoded_custom_payload: null,
    forward_amount: dec(r.forward_amount),
    forward_payload: optB64(r.forward_payload),
    decoded_forward_payload: r.forward_payload ? decodePayload(r.forward_payload) : null,
    trace_id: optB64(r.trace_id),
  }));
}
