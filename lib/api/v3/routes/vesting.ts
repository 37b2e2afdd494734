// GET /vesting (api-v3.md §2.3): the vesting wallets the derive stage keeps (lib/indexer/derive/vesting.ts),
// by contract address or by a wallet that owns or funded them (or, with check_whitelist, may receive
// from them).
import { z } from 'zod';
import { unprocessable } from '../errors';
import { VestingResponse } from '../models/vesting';
import { limitParams, p, page } from '../params';
import { findVesting } from '../queries/vesting';
import { defineRoute } from '../route';
import { sideMaps } from '../queries/side-maps';

export const vesting = defineRoute({
  path: 'vesting',
  tag: 'vesting',
  summary: 'Vesting contracts',
  description:
    'Vesting wallets as get_vesting_data and get_whitelist answer at the indexed block, by contract_address or by wallet_address ' +
    '(owner or sender; with check_whitelist also a whitelisted address), in order of first appearance.',
  query: z.object({
    contract_address: p.addresses('Vesting contract address.'),
    wallet_address: p.addresses('Owner or sender of the vesting contract (with check_whitelist also a whitelisted address).'),
    check_whitelist: p.bool('wallet_address also matches the contracts whose whitelist holds it.', false),
    limit: limitParams().limit,
    offset: limitParams().offset,
  }),
  response: VestingResponse,
  errors: {
    422: 'at least one of contract_address or wallet_address is required · only one of contract_address or wallet_address should be specified · invalid parameter or limit',
  },
  async run(q, ctx) {
    const contracts = q.contract_address?.length ? q.contract_address : undefined;
    const wallets = q.wallet_address?.length ? q.wallet_address : undefined;
    if (!contracts && !wallets) throw unprocessable('at least one of contract_address or wallet_address is required');
    if (contracts && wallets) throw unprocessable('only one of contract_address or wallet_address should be specified');
    const list = await findVesting(ctx.sql, contracts ? { contracts } : { wallets: wallets!, checkWhitelist: q.check_whitelist ?? false }, page(q));
    const { address_book } = await sideMaps(ctx, list.flatMap((v) => [v.address, v.sender_address, v.owner_address, ...v.whitelist]), { book: true, metadata: false });
    return { vesting_contracts: list, address_book };
  },
});
