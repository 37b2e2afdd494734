// supported_action_types (api-v3.md §4.4): the action types a client understands, by version name,
// group name or literal type. An action is shown when its type is supported and none of its enclosing
// actions' types is (a client that knows jetton_swap does not also get the swap's jetton_transfers).

const V1 = [
  'call_contract', 'contract_deploy', 'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request', 'dex_deposit_liquidity',
  'jetton_transfer', 'nft_transfer', 'nft_mint', 'jetton_burn', 'jetton_mint', 'jetton_swap', 'change_dns', 'delete_dns', 'renew_dns', 'subscribe',
  'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit', 'election_recover', 'auction_bid', 'tick_tock',
];
const V2_ADDED = [
  'multisig_create_order', 'multisig_approve', 'multisig_execute', 'vesting_send_message', 'vesting_add_whitelist', 'evaa_supply', 'evaa_withdraw',
  'evaa_liquidate', 'jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request', 'nft_discovery', 'tonco_deploy_pool',
  'coffee_create_vault', 'coffee_create_pool_creator', 'coffee_create_pool', 'coffee_mev_protect_hold_funds', 'coffee_mev_protect_failed_swap',
  'coffee_staking_claim_rewards', 'coffee_staking_deposit', 'coffee_staking_withdraw', 'unknown',
];
const V3_ADDED = [
  'nft_put_on_sale', 'nft_put_on_auction', 'auction_outbid', 'nft_cancel_sale', 'nft_purchase', 'nft_cancel_auction', 'nft_finish_auction',
  'teleitem_start_auction', 'teleitem_cancel_auction', 'nft_update_sale', 'dns_purchase', 'dns_release', 'layerzero_send', 'layerzero_send_tokens',
  'layerzero_receive', 'layerzero_commit_packet', 'layerzero_dvn_verify',
];
const COCOON = [
  'cocoon_worker_payout', 'cocoon_proxy_payout', 'cocoon_proxy_charge', 'cocoon_client_top_up', 'cocoon_register_proxy', 'cocoon_unregister_proxy',
  'cocoon_client_register', 'cocoon_client_change_secret_hash', 'cocoon_client_request_refund', 'cocoon_grant_refund', 'cocoon_client_increase_stake',
  'cocoon_client_withdraw',
];
const TGBTC = ['tgbtc_mint', 'tgbtc_mint_fallback', 'tgbtc_burn', 'tgbtc_burn_fallback', 'tgbtc_new_key', 'tgbtc_new_key_fallback', 'tgbtc_dkg_log_fallback'];

const V2 = [...V1, ...V2_ADDED];
const V3 = [...V2, ...V3_ADDED];
const V4 = [...V3, ...COCOON];
const withPrefix = (prefix: string) => V4.filter((t) => t.startsWith(prefix));

/**
 * Shortcut names. The versions are toncenter's lists; the groups are Atlas's reading of their names
 * (the types of that family in the latest version; tgbtc is the only way to ask for tgbtc_* types).
 */
const SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  v1: V1,
  v2: V2,
  v3: V3,
  v4: V4,
  latest: V4,
  staking: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request', 'election_deposit', 'election_recover'],
  jettons: ['jetton_transfer', 'jetton_mint', 'jetton_burn'],
  nft: ['nft_transfer', 'nft_mint', 'auction_bid'],
  'nft.v3': [...withPrefix('nft_'), 'auction_bid', 'auction_outbid', 'teleitem_start_auction', 'teleitem_cancel_auction'],
  dns: ['change_dns', 'delete_dns', 'renew_dns'],
  'dns.v2': ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release'],
  multisig: withPrefix('multisig_'),
  vesting: withPrefix('vesting_'),
  evaa: withPrefix('evaa_'),
  jvault: withPrefix('jvault_'),
  coffee: withPrefix('coffee_'),
  tgbtc: TGBTC,
  layerzero: withPrefix('layerzero_'),
  cocoon: COCOON,
};

/** Every type name Atlas's classifier may store that a version or group names (for the docs). */
export const KNOWN_ACTION_TYPES: readonly string[] = [...V4, ...TGBTC];

/**
 * The supported set from the request: X-Actions-Version (one name) replaces supported_action_types;
 * nothing given means `latest`; `v1` is always included; unknown names count as literal types.
 */
export function supportedActionTypes(names: readonly string[] | undefined, headerVersion: string | null): string[] {
  const given = headerVersion ? [headerVersion] : names?.length ? names : ['latest'];
  const out = new Set<string>(V1);
  for (const n of given) for (const t of SHORTCUTS[n] ?? [n]) out.add(t);
  return [...out].sort();
}

const TYPE_NAME = /^[A-Za-z0-9_.]+$/;

/** The names of action_type / exclude_action_type, or the 422 message naming the parameter. */
export function invalidActionTypeParam(name: string, values: readonly string[] | undefined): string | null {
  return values?.some((v) => !TYPE_NAME.test(v)) ? `${name} contains invalid characters` : null;
}
