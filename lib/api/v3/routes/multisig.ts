// GET /multisig/wallets and /multisig/orders (api-v3.md §2.3): the multisig v2 wallets and orders the
// derive stage keeps (lib/indexer/derive/multisig.ts), with an order's actions decoded on request.
import { z } from 'zod';
import { unprocessable } from '../errors';
import { MultisigOrdersResponse, MultisigWalletsResponse } from '../models/multisig';
import { limitParams, p, page, sortOrder } from '../params';
import { findMultisigOrders, findMultisigWallets } from '../queries/multisig';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';

const some = (list: string[] | undefined) => (list?.length ? list : undefined);

export const multisigWallets = defineRoute({
  path: 'multisig/wallets',
  tag: 'multisig',
  summary: 'Multisig wallets',
  description:
    'Multisig v2 wallets as get_multisig_data answers at the indexed block, by address or by a member (signer or proposer), ' +
    'in order of first appearance {sort}; with include_orders their orders (null when there are none).',
  query: z.object({
    address: p.addresses('Multisig wallet address.'),
    wallet_address: p.addresses('A signer or proposer of the wallet.'),
    include_orders: p.bool('Attach the orders of each wallet.', true),
    ...limitParams(),
  }),
  response: MultisigWalletsResponse,
  errors: { 422: 'At least one of address or wallet_address should be specified · invalid parameter, limit or sort' },
  async run(q, ctx) {
    const addresses = some(q.address);
    const members = some(q.wallet_address);
    if (!addresses && !members) throw unprocessable('At least one of address or wallet_address should be specified');
    const list = await findMultisigWallets(ctx.sql, { addresses, members }, { includeOrders: q.include_orders ?? true, sort: sortOrder(q.sort), page: page(q) });
    const named = list.flatMap((m) => [m.address, ...m.signers, ...m.proposers, ...(m.orders ?? []).flatMap((o) => [o.address, ...o.signers])]);
    const { address_book } = await sideMaps(ctx, named, { book: true, metadata: false });
    return { multisigs: list, address_book };
  },
});

export const multisigOrders = defineRoute({
  path: 'multisig/orders',
  tag: 'multisig',
  summary: 'Multisig orders',
  description:
    'Orders of multisig v2 wallets as get_order_data answers at the indexed block, by order address or by wallet, in order of ' +
    'first appearance {sort}; with parse_actions each order action decoded.',
  query: z.object({
    address: p.addresses('Order address.'),
    multisig_address: p.addresses('Multisig wallet address.'),
    parse_actions: p.bool('Decode the actions of each order.', false),
    ...limitParams(),
  }),
  response: MultisigOrdersResponse,
  errors: { 422: 'At least one of address or multisig_address should be specified · invalid parameter, limit or sort' },
  async run(q, ctx) {
    const addresses = some(q.address);
    const multisigs = some(q.multisig_address);
    if (!addresses && !multisigs) throw unprocessable('At least one of address or multisig_address should be specified');
    const orders = await findMultisigOrders(ctx.sql, { addresses, multisigs }, { parseActions: q.parse_actions ?? false, sort: sortOrder(q.sort), page: page(q) });
    const { address_book } = await sideMaps(ctx, orders.flatMap((o) => [o.address, o.multisig_address, ...o.signers]), { book: true, metadata: false });
    return { orders, address_book };
  },
});
