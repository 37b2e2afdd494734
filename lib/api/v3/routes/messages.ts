// GET /messages (api-v3.md §2.1): one entry per message hash, with the receiving (in_msg_tx_hash) and
// sending (out_msg_tx_hash) transactions; address_book and metadata cover sources and destinations.
import { z } from 'zod';
import { Prisma } from '../../../db/generated/client';
import { bytes } from '../encode';
import { unprocessable } from '../errors';
import { mapMessage } from '../mappers';
import { CONTENT_COLUMNS, joinedContents, messageRow, SHARED_COLUMNS as SHARED, type MessageSqlRow } from '../message-rows';
import { MessagesResponse } from '../models';
import { limitParams, ltParams, p, page, parseHashParam, sortOrder, utimeParams } from '../params';
import { defineRoute } from '../route';
import { sideMaps } from '../side-maps';
import { clampLt } from './common';

interface MessageGroupRow extends MessageSqlRow {
  in_tx_hash: Uint8Array<ArrayBuffer> | null;
  out_tx_hash: Uint8Array<ArrayBuffer> | null;
}

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
      SELECT m.msg_hash, ${SHARED}, ${CONTENT_COLUMNS},
        (array_agg(m.tx_hash ORDER BY m.tx_lt) FILTER (WHERE m.direction = 'in'))[1] AS in_tx_hash,
        (array_agg(m.tx_hash ORDER BY m.tx_lt) FILTER (WHERE m.direction = 'out'))[1] AS out_tx_hash
      FROM messages m ${where}
      GROUP BY m.msg_hash, ${SHARED}
      ORDER BY ${orderKey} ${s}, m.msg_hash ${s}
      LIMIT ${take} OFFSET ${skip}`);

    const contents = joinedContents(rows);
    const list = rows.map((r) => mapMessage({ ...messageRow(r), inTxHash: r.in_tx_hash, outTxHash: r.out_tx_hash }, contents));
    const maps = await sideMaps(ctx, list.flatMap((m) => [m.source, m.destination]));
    return { messages: list, address_book: maps.address_book, metadata: maps.metadata };
  },
});
