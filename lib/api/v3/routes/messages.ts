// GET /messages (api-v3.md §2.1): one entry per message hash, with the receiving (in_msg_tx_hash) and
// sending (out_msg_tx_hash) transactions; address_book and metadata cover sources and destinations.
import { z } from 'zod';
import { unprocessable } from '../errors';
import { mapMessage } from '../mappers';
import { joinedContents, messageRow } from '../queries/message-rows';
import { MessagesResponse } from '../models/messages';
import { limitParams, ltParams, p, page, parseHashParam, sortOrder, utimeParams } from '../params';
import { findMessages } from '../queries/messages';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';
import { bounds } from './common';

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
    let hashes = q.msg_hash?.length ? q.msg_hash : undefined;
    if (!hashes && q.hash?.length) {
      const legacy = q.hash.flatMap((h) => {
        const parsed = parseHashParam(h);
        return parsed instanceof Buffer ? [parsed] : [];
      });
      if (legacy.length) hashes = legacy;
    }
    const rows = await findMessages(
      ctx.sql,
      {
        hashes,
        bodyHash: q.body_hash,
        source: q.source,
        destination: q.destination,
        opcode: q.opcode,
        direction: q.direction,
        ...bounds(q),
        excludeExternals: q.exclude_externals,
        onlyExternals: q.only_externals,
        sort: sortOrder(q.sort),
      },
      page(q),
    );

    const contents = joinedContents(rows);
    const list = rows.map((r) => mapMessage({ ...messageRow(r), inTxHash: r.in_tx_hash, outTxHash: r.out_tx_hash }, contents));
    const maps = await sideMaps(ctx, list.flatMap((m) => [m.source, m.destination]));
    return { messages: list, address_book: maps.address_book, metadata: maps.metadata };
  },
});
