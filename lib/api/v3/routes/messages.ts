// GET /messages (api-v3.md §2.1): one entry per message hash, with the receiving (in_msg_tx_hash) and
// sending (out_msg_tx_hash) transactions; address_book and metadata cover sources and destinations.
import { z } from 'zod';
import { Prisma } from '../../../db/generated/client';
import { bytes, hex } from '../encode';
import { unprocessable } from '../errors';
import { mapMessage, type MessageRowLike } from '../mappers';
import { MessagesResponse } from '../models';
import { limitParams, ltParams, p, page, parseHashParam, sortOrder, utimeParams } from '../params';
import { defineRoute } from '../route';
import { sideMaps } from '../side-maps';
import { clampLt } from './common';

interface MessageGroupRow {
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
  in_tx_hash: Uint8Array<ArrayBuffer> | null;
  out_tx_hash: Uint8Array<ArrayBuffer> | null;
}

const toRow = (r: MessageGroupRow): MessageRowLike => ({
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
  inTxHash: r.in_tx_hash,
  outTxHash: r.out_tx_hash,
});

// Every column a message's rows share (the sending and the receiving transaction see the same message).
const SHARED = Prisma.sql`m.source, m.destination, m.value, m.value_extra_currencies, m.fwd_fee, m.ihr_fee, m.extra_flags,
  m.created_lt, m.created_at, m.opcode, m.ihr_disabled, m.bounce, m.bounced, m.import_fee, m.body_hash, m.init_state_hash, m.msg_hash_norm`;

export const messages = defineRoute({
  path: 'messages',
  tag: 'blockchain',
  summary: 'Messages by filters',
  description:
    'Ordered created_lt {sort} (external-in: the lt of the receiving transaction), hash {sort}; with start_utime/end_utime ' +
    'created_at instead. ' +
    'External-in messages have neither, so exclude_externals / only_externals drop / keep rows whose order column is null.',
  query: z.object({
    msg_hash: p.hashes('Message hash or normalized external message hash.'),
    hash: p.strings('Legacy alias of msg_hash, used only when msg_hash is absent; invalid values are ignored.'),
    body_hash: p.hash('Hash of the body cell.'),
    source: p.addressOrNull('Source account; `null` selects external-in messages.'),
    destination: p.addressOrNull('Destination account; `null` selects external-out (log) messages.'),
    opcode: p.opcode('Body opcode.'),
    direction: p.string('in | out: the row as seen by the receiving or the sending transaction.', { enum: ['in', 'out'] }),
    ...utimeParams('created_at'),
    ...ltParams('created_lt'),
    exclude_externals: p.bool('Leave out messages without an order key (external-in).'),
    only_externals: p.bool('Only messages without an order key (external-in).'),
    ...limitParams(),
  }),
  response: MessagesResponse,
  errors: { 422: 'direction should be one of: in, out · invalid parameter, limit or sort' },
  async run(q, ctx) {
    if (q.direction !== undefined && q.direction !== 'in' && q.direction !== 'out') throw unprocessable('direction should be one of: in, out');
    const { take, skip } = page(q);
    const s = Prisma.raw(sortOrder(q.sort) === 'asc' ? 'ASC' : 'DESC');
    const byTime = q.start_utime !== undefined || q.end_utime !== undefined;
    const orderColumn = Prisma.raw(byTime ? 'm.created_at' : 'm.created_lt');
    // External-in messages have no created_lt. toncenter's plain `ORDER BY created_lt` puts every one of
    // them first when sorting desc (NULLS FIRST), so the newest page is all externals; Atlas orders them
    // by the lt of their receiving transaction instead (what toncenter does since, "effective lt"). With
    // time filters externals never match (created_at is null), so created_at orders alone.
    const orderKey = byTime ? Prisma.sql`m.created_at` : Prisma.sql`coalesce(m.created_lt, min(m.tx_lt))`;

    let hashes = q.msg_hash?.length ? q.msg_hash : undefined;
    if (!hashes && q.hash?.length) {
      const legacy = q.hash.flatMap((h) => {
        const parsed = parseHashParam(h);
        return parsed instanceof Buffer ? [parsed] : [];
      });
      if (legacy.length) hashes = legacy;
    }

    const cond: Prisma.Sql[] = [];
    if (q.direction) cond.push(Prisma.sql`m.direction = ${q.direction}`);
    if (q.source !== undefined) cond.push(q.source === null ? Prisma.sql`m.source IS NULL` : Prisma.sql`m.source = ${q.source}`);
    if (q.destination !== undefined) cond.push(q.destination === null ? Prisma.sql`m.destination IS NULL` : Prisma.sql`m.destination = ${q.destination}`);
    if (q.opcode !== undefined) cond.push(Prisma.sql`m.opcode = ${q.opcode}::int`);
    if (hashes) {
      const hs = hashes.map(bytes);
      cond.push(Prisma.sql`(m.msg_hash = ANY(${hs}::bytea[]) OR m.msg_hash_norm = ANY(${hs}::bytea[]))`);
    }
    if (q.body_hash) cond.push(Prisma.sql`m.body_hash = ${bytes(q.body_hash)}`);
    if (q.start_utime !== undefined) cond.push(Prisma.sql`m.created_at >= ${BigInt(q.start_utime)}`);
    if (q.end_utime !== undefined) cond.push(Prisma.sql`m.created_at <= ${BigInt(q.end_utime)}`);
    if (q.start_lt !== undefined) cond.push(Prisma.sql`m.created_lt >= ${clampLt(q.start_lt)}`);
    if (q.end_lt !== undefined) cond.push(Prisma.sql`m.created_lt <= ${clampLt(q.end_lt)}`);
    if (q.exclude_externals) cond.push(Prisma.sql`${orderColumn} IS NOT NULL`);
    if (q.only_externals) cond.push(Prisma.sql`${orderColumn} IS NULL`);
    const where = cond.length ? Prisma.sql`WHERE ${Prisma.join(cond, ' AND ')}` : Prisma.empty;

    const rows = await ctx.prisma.$queryRaw<MessageGroupRow[]>(Prisma.sql`
      SELECT m.msg_hash, ${SHARED},
        (array_agg(m.tx_hash ORDER BY m.tx_lt) FILTER (WHERE m.direction = 'in'))[1] AS in_tx_hash,
        (array_agg(m.tx_hash ORDER BY m.tx_lt) FILTER (WHERE m.direction = 'out'))[1] AS out_tx_hash
      FROM messages m ${where}
      GROUP BY m.msg_hash, ${SHARED}
      ORDER BY ${orderKey} ${s}, m.msg_hash ${s}
      LIMIT ${take} OFFSET ${skip}`);

    const contentHashes = new Map<string, Uint8Array<ArrayBuffer>>();
    for (const r of rows) {
      if (r.body_hash) contentHashes.set(hex(r.body_hash), bytes(r.body_hash));
      if (r.init_state_hash) contentHashes.set(hex(r.init_state_hash), bytes(r.init_state_hash));
    }
    const contentRows = contentHashes.size ? await ctx.prisma.messageContent.findMany({ where: { hash: { in: [...contentHashes.values()] } } }) : [];
    const contents = new Map(contentRows.map((c) => [hex(c.hash), c.boc]));
    const list = rows.map((r) => mapMessage(toRow(r), contents));
    const maps = await sideMaps(ctx, list.flatMap((m) => [m.source, m.destination]));
    return { messages: list, address_book: maps.address_book, metadata: maps.metadata };
  },
});
