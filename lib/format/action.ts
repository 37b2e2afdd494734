// What an action (toncenter's action record as /api/v3 details it) is about, for the pages: the jetton
// masters its amounts are counted in, and a plain name for its type.
import type { ActionJson } from '@/lib/api/v3/models/actions';

/** Detail keys that name a jetton master (an amount next to them is in that jetton's units). */
const ASSET_KEYS = ['asset', 'asset_in', 'asset_out', 'asset_1', 'asset_2'] as const;

/** The jetton masters the actions' amounts are counted in (null assets are TON). */
export function actionAssets(actions: ActionJson[]): string[] {
  const out = new Set<string>();
  for (const a of actions) {
    for (const k of ASSET_KEYS) {
      const v = a.details[k];
      if (typeof v === 'string' && v) out.add(v);
    }
  }
  return [...out];
}

const NAMES: Record<string, string> = {
  ton_transfer: 'TON transfer',
  extra_currency_transfer: 'Extra currency transfer',
  jetton_transfer: 'Jetton transfer',
  jetton_mint: 'Jetton mint',
  jetton_burn: 'Jetton burn',
  jetton_swap: 'Swap',
  nft_transfer: 'NFT transfer',
  nft_purchase: 'NFT purchase',
  nft_mint: 'NFT mint',
  nft_put_on_sale: 'NFT listed for sale',
  nft_put_on_auction: 'NFT put on auction',
  nft_cancel_sale: 'Sale cancelled',
  nft_update_sale: 'Sale repriced',
  nft_cancel_auction: 'Auction cancelled',
  nft_finish_auction: 'Auction finished',
  auction_bid: 'Auction bid',
  auction_outbid: 'Outbid refund',
  teleitem_start_auction: 'Fragment auction started',
  teleitem_cancel_auction: 'Fragment auction cancelled',
  nft_discovery: 'NFT discovery',
  dns_purchase: 'Domain purchase',
  dns_release: 'Domain release',
  contract_deploy: 'Contract deploy',
  call_contract: 'Contract call',
  change_dns: 'DNS change',
  delete_dns: 'DNS record removal',
  renew_dns: 'DNS renewal',
  tick_tock: 'Tick-tock',
  stake_deposit: 'Stake',
  stake_withdrawal: 'Unstake',
  stake_withdrawal_request: 'Unstake request',
  dex_deposit_liquidity: 'Liquidity deposit',
  dex_withdraw_liquidity: 'Liquidity withdrawal',
  election_deposit: 'Election deposit',
  election_recover: 'Election stake recovery',
  vesting_send_message: 'Vesting payout',
  vesting_add_whitelist: 'Vesting whitelist change',
};

/** `jetton_transfer` → "Jetton transfer"; unknown types read as their words. */
export function actionTypeName(type: string): string {
  const known = NAMES[type];
  if (known) return known;
  const words = type.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Groups of types for the account page's activity filter, as /api/v3/actions's action_type list. */
export const ACTIVITY_FILTERS: { id: string; label: string; types: string[] | undefined }[] = [
  { id: 'all', label: 'All', types: undefined },
  { id: 'ton', label: 'TON', types: ['ton_transfer'] },
  { id: 'jettons', label: 'Jettons', types: ['jetton_transfer', 'jetton_mint', 'jetton_burn', 'jetton_swap'] },
  {
    id: 'nft',
    label: 'NFTs',
    types: [
      'nft_transfer', 'nft_purchase', 'nft_mint', 'nft_put_on_sale', 'nft_put_on_auction', 'nft_cancel_sale', 'nft_update_sale', 'auction_bid',
      'auction_outbid', 'nft_cancel_auction', 'nft_finish_auction', 'teleitem_start_auction', 'teleitem_cancel_auction', 'dns_purchase', 'dns_release',
    ],
  },
  { id: 'contracts', label: 'Contracts', types: ['contract_deploy', 'call_contract'] },
];
