// Messages read with raw SQL (the /messages grouping, a page of transactions' messages): the row shape
// such a query returns, and its body and init-state BoCs joined from message_contents in the same query
// (one round trip fewer than looking the contents up afterwards).
import { Prisma } from '../../../db/generated/client';
import { hex } from '../encode';
import type { Contents, MessageRowLike } from '../mappers';

/**
 * Every message column a response needs besides msg_hash (m is the messages alias): the columns the
 * sending and the receiving transaction's rows of one message share.
 */
export const SHARED_COLUMNS = Prisma.sql`m.source, m.destination, m.value, m.value_extra_currencies, m.fwd_fee, m.ihr_fee, m.extra_flags,
  m.created_lt, m.created_at, m.opcode, m.ihr_disabled, m.bounce, m.bounced, m.import_fee, m.body_hash, m.init_state_hash, m.msg_hash_norm`;

/**
 * A BoC column in base64, as PostgreSQL's encoder writes it: a line break every 76 characters, which
 * joinedContents takes out (translate() in the statement walked the text a character at a time: 0.4–0.8 ms
 * of a 100-message page's statement). The database encodes it: the driver then reads one string instead of
 * copying and decoding bytes (PGlite's reader copies every bytea field).
 */
export const base64Of = (column: Prisma.Sql) => Prisma.sql`encode(${column}, 'base64')`;

/** A base64Of value as the answers carry it: without the encoder's line breaks (only past 76 characters). */
export const unwrapped = (base64: string) => (base64.length > 76 ? base64.replaceAll('\n', '') : base64);

/** The BoCs of m's body and init state in base64 (select-list subqueries: evaluated for the rows returned). */
export const CONTENT_COLUMNS = Prisma.sql`(SELECT ${base64Of(Prisma.sql`c.boc`)} FROM message_contents c WHERE c.hash = m.body_hash) AS body_boc,
  (SELECT ${base64Of(Prisma.sql`c.boc`)} FROM message_contents c WHERE c.hash = m.init_state_hash) AS init_boc`;

export interface MessageSqlRow {
  msg_hash: Uint8Array<ArrayBuffer>;
  source: string | null;
  destination: string | null;
  value: Prisma.Decimal | null;
  value_extra_currencies: unknown;
  fwd_fee: Prisma.Decimal | null;
  ihr_fee: Prisma.Decimal | null;
  extra_flags: Prisma.Decimal | null;
  created_lt: bigint | null;
  created_at: bigint | null;
  opcode: number | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: Prisma.Decimal | null;
  body_hash: Uint8Array<ArrayBuffer> | null;
  init_state_hash: Uint8Array<ArrayBuffer> | null;
  msg_hash_norm: Uint8Array<ArrayBuffer> | null;
  /** Base64 with line breaks (base64Of). */
  body_boc: string | null;
  /** Base64 with line breaks (base64Of). */
  init_boc: string | null;
}

export const messageRow = (r: MessageSqlRow): MessageRowLike => ({
  msgHash: r.msg_hash,
  source: r.source,
  destination: r.destination,
  value: r.value,
  valueExtraCurrencies: r.value_extra_currencies as Prisma.JsonValue,
  fwdFee: r.fwd_fee,
  ihrFee: r.ihr_fee,
  extraFlags: r.extra_flags,
  createdLt: r.created_lt,
  createdAt: r.created_at,
  opcode: r.opcode,
  ihrDisabled: r.ihr_disabled,
  bounce: r.bounce,
  bounced: r.bounced,
  importFee: r.import_fee,
  bodyHash: r.body_hash,
  initStateHash: r.init_state_hash,
  msgHashNorm: r.msg_hash_norm,
});

/** The joined BoCs by content hash, as mapMessage looks them up. */
export function joinedContents(rows: MessageSqlRow[]): Contents {
  const out = new Map<string, string>();
  for (const r of rows) {
    if (r.body_hash && r.body_boc) out.set(hex(r.body_hash), unwrapped(r.body_boc));
    if (r.init_state_hash && r.init_boc) out.set(hex(r.init_state_hash), unwrapped(r.init_boc));
  }
  return out;
}
