// Jetton routes (api-v3.md §2): jetton/masters, jetton/wallets, jetton/transfers, jetton/burns, read
// from the tables the indexer's derive stage fills (lib/indexer/derive/jettons.ts). Each entity's SQL,
// filters and ordering live in its query module (../queries).
import { z } from 'zod';
import { unprocessable } from '../errors';
import { bounds, DIRECTIONS, ownerSide } from './common';
import { JettonBurnsResponse, JettonMastersResponse, JettonTransfersResponse, JettonWalletsResponse } from '../models/jettons';
import { limitParams, ltParams, p, page, sortOrder, utimeParams } from '../params';
import { findJettonBurns, findJettonTransfers } from '../queries/jetton-events';
import { findJettonMasters } from '../queries/jetton-masters';
import { findJettonWallets } from '../queries/jetton-wallets';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';

export const jettonMasters = defineRoute({
  path: 'jetton/masters',
  tag: 'jettons',
  summary: 'Jetton masters',
  description: 'As get_jetton_data answers at the indexed block. Ordered by first appearance, or by address when addresses are given.',
  query: z.object({
    address: p.addresses('Jetton master address.'),
    admin_address: p.addresses('Admin address.'),
    limit: limitParams().limit,
    offset: limitParams().offset,
  }),
  response: JettonMastersResponse,
  errors: { 422: 'invalid parameter or limit' },
  async run(q, ctx) {
    const list = await findJettonMasters(ctx.sql, { address: q.address, adminAddress: q.admin_address }, page(q));
    const maps = await sideMaps(ctx, list.flatMap((m) => [m.address, m.admin_address]));
    return { jetton_masters: list, ...maps };
  },
});

export const jettonWallets = defineRoute({
  path: 'jetton/wallets',
  tag: 'jettons',
  summary: 'Jetton wallets',
  description:
    'As get_wallet_data answers at the indexed block. Ordered by address when addresses are given, else by owner, else by ' +
    'the single jetton, then by balance {sort} when sort is given or by first appearance.',
  query: z.object({
    address: p.addresses('Jetton wallet address.'),
    owner_address: p.addresses('Owner address.'),
    jetton_address: p.addresses('Jetton master address; several require exactly one owner_address.'),
    exclude_zero_balance: p.bool('Leave out wallets with a zero balance.'),
    ...limitParams(),
  }),
  response: JettonWalletsResponse,
  errors: { 422: 'exact one owner_address required for multiple jetton_address · invalid parameter, limit or sort' },
  async run(q, ctx) {
    if ((q.jetton_address?.length ?? 0) > 1 && q.owner_address?.length !== 1) throw unprocessable('exact one owner_address required for multiple jetton_address');
    const sort = q.sort === undefined ? undefined : sortOrder(q.sort);
    const list = await findJettonWallets(
      ctx.sql,
      { address: q.address, owner: q.owner_address, jetton: q.jetton_address, excludeZeroBalance: q.exclude_zero_balance, sort },
      page(q),
    );
    const maps = await sideMaps(ctx, list.flatMap((w) => [w.address, w.owner, w.jetton]));
    return { jetton_wallets: list, ...maps };
  },
});

const eventParams = () => ({
  jetton_wallet: p.addresses("The sender's jetton wallet."),
  jetton_master: p.address('Jetton master.'),
  ...utimeParams('transaction_now'),
  ...ltParams('transaction_lt'),
  ...limitParams(),
});


export const jettonTransfers = defineRoute({
  path: 'jetton/transfers',
  tag: 'jettons',
  summary: 'Jetton transfers',
  description:
    'Transfer requests received by jetton wallets, aborted ones left out. Ordered by transaction_lt {sort}, or by ' +
    'transaction_now with start_utime/end_utime. direction (with owner_address): in = received, out = sent, both = either.',
  query: z.object({
    owner_address: p.addresses('Sender or receiver (owner, not wallet).'),
    address: p.address('Alias of a single owner_address.'),
    direction: p.string('in | out | both (default): which side owner_address is on.', { enum: [...DIRECTIONS] }),
    ...eventParams(),
  }),
  response: JettonTransfersResponse,
  errors: { 422: 'direction should be one of: in, out, both · invalid parameter, limit or sort' },
  async run(q, ctx) {
    const { owner, direction } = ownerSide(q);
    const list = await findJettonTransfers(
      ctx.sql,
      {
        owner,
        direction,
        jettonWallet: q.jetton_wallet,
        jettonMaster: q.jetton_master,
        ...bounds(q),
        sort: sortOrder(q.sort),
      },
      page(q),
    );
    const maps = await sideMaps(ctx, list.flatMap((t) => [t.source, t.destination, t.source_wallet, t.jetton_master, t.response_destination]));
    return { jetton_transfers: list, ...maps };
  },
});

export const jettonBurns = defineRoute({
  path: 'jetton/burns',
  tag: 'jettons',
  summary: 'Jetton burns',
  description: 'Burn requests received by jetton wallets, aborted ones included. Ordered by transaction_lt {sort}, or by transaction_now with start_utime/end_utime.',
  query: z.object({
    owner_address: p.addresses('Owner of the burning wallet.'),
    address: p.addresses('Alias of owner_address (the name in toncenter\'s swagger).'),
    ...eventParams(),
  }),
  response: JettonBurnsResponse,
  errors: { 422: 'invalid parameter, limit or sort' },
  async run(q, ctx) {
    const owner = [...(q.owner_address ?? []), ...(q.address ?? [])];
    const list = await findJettonBurns(
      ctx.sql,
      {
        owner: owner.length ? owner : undefined,
        jettonWallet: q.jetton_wallet,
        jettonMaster: q.jetton_master,
        ...bounds(q),
        sort: sortOrder(q.sort),
      },
      page(q),
    );
    const maps = await sideMaps(ctx, list.flatMap((b) => [b.owner, b.jetton_wallet, b.jetton_master, b.response_destination]));
    return { jetton_burns: list, ...maps };
  },
});
