// Contract interfaces (api-v3.md §4.7), as toncenter detects them (ton-index-go index/detect): an exact
// code-hash match names one interface; otherwise every interface whose get-method ids are all present in
// the code is listed, sorted. The ids a code declares are read by lib/ton/contract-methods.
import { Cell } from '@ton/core';
import { deserializeBoc } from './boc';
import { methodId } from './contract-methods';
import { walletCodeHashes } from './wallets';

interface Interface {
  name: string;
  methods: string[];
  codeHashes: string[];
}

const iface = (name: string, methods: string[], codeHashes: string[] = []): Interface => ({ name, methods, codeHashes });

// toncenter's table, in its order (index/detect/interfaces.go). One name really ends with a space. The
// standard wallets' code hashes are lib/ton/wallets.ts's, the one place they are kept.
const INTERFACES: Interface[] = [
  iface('airdrop_interlocker_v1', ['get_contract_data'], ['rNK47E23QUOW+lNphlPswEpBbuNknY9bILQfF2rYM/A=']),
  iface('airdrop_interlocker_v2', ['get_distribution_info', 'get_unlocks_info', 'get_available_claim_amount'], ['D/RKlvwkgRESNtjZkg/W4pthCCFePsW6dh6tlgKtraQ=']),
  iface('bidask_pool', ['get_pool_info', 'get_current_bin', 'get_sqrt_p', 'get_active_range']),
  iface('bidask_range', ['get_pool_addr', 'get_lp_multitoken_wallet']),
  iface('bidask_lp_multitoken', ['get_bins_number', 'get_nft_data']),
  iface('bidask_internal_liquidity_vault', ['get_liquidity_data']),
  iface('cron', ['get_cron_info']),
  iface('daolama_vault', ['get_pool_data']),
  iface('dedust_factory', ['get_vault_address', 'get_pool_address', 'get_liquidity_deposit_address']),
  iface('dedust_liquidity_deposit ', ['get_balances', 'get_target_balances']),
  iface('dedust_pool', ['get_reserves', 'get_assets', 'get_jetton_data', 'is_stable', 'get_trade_fee', 'estimate_swap_out']),
  iface('dedust_vault', ['get_asset']),
  iface('dns', ['dnsresolve']),
  iface('gram_miner', ['get_pow_params'], ['zK5v+2A8fT53mrWewmf/wi3B6+CvmDmQIomnqD5MAPE=']),
  iface('jetton_master', ['get_jetton_data', 'get_wallet_address']),
  iface('jetton_wallet', ['get_wallet_data']),
  iface('jetton_wallet_v1', [], ['vrBoPr64kn/p/I7AoYvH3ReJlomCWhIeq0bFo6hg0M4=']),
  iface('jetton_wallet_v2', [], ['jSjqQht36AX+pSrPM1KWSZ8Drsjp/SHdtfJWSqZcSN4=']),
  iface('jetton_wallet_governed', [], ['iUaPAseOVwgC45l5yFFvw43wfqdqSDV+BTbyuns+43s=']),
  iface('tonstake_pool', ['get_pool_full_data']),
  iface('validator_controller', ['get_validator_controller_data']),
  iface('locker', ['get_locker_data', 'get_bill_address']),
  iface('locker_bill', ['get_locker_bill_data']),
  iface('lockup_vesting', ['get_lockup_data']),
  iface('lockup_universal', ['get_balances']),
  iface('megatonfi_router', ['get_mining_data', 'get_lp_data']),
  iface('megatonfi_exchange', ['get_lp_swap_data', 'get_lp_mining_data']),
  iface('moon_pool', ['get_jetton_data', 'get_reserves', 'get_assets', 'get_wallet_address'], ['KAgWUlMoah5P5j76ubo1SBE3qsCxoPntzLj2RC3eRsQ=']),
  iface('moon_booster', ['get_status', 'get_pool'], ['zoTDgsi2rA0FISu6o00F5U4eMOLMkony2cnWRyahEqg=']),
  iface('moon_order_factory', ['get_id', 'get_pipe'], ['0Ec31vZ4EDqeRIwiEJkZ0PnL4F7xsag8XnuIZoOlRwQ=']),
  iface('moon_order', ['get_status', 'get_order_amount', 'get_fill_out', 'get_vesting_data'], [
    'iMONKVhrXXSLrbx7Tb/iOcJcuFypxFhqROBVB6bt9qY=',
    '7gcUCzzP4mHtKFgPYKFr2kxLnG19p64F9bfH4rHf4iY=',
  ]),
  iface('multisig_v2', ['get_multisig_data', 'get_order_address'], ['09FNqaYn8Ow1MzQYKXYq+SuVQLIb8DZl+sCcK0bqu6w=']),
  iface('multisig_order_v2', ['get_order_data'], ['oB4Ff71CiEArmJjXjWe9TpAlTJPFhmh5vC0dEoZUNrw=']),
  iface('nft_sale', ['get_sale_data']),
  iface('nft_auction_v1', ['get_sale_data']),
  iface('nft_offer_getgems_v1', [], ['bl1mf6bvqBh8bQKe/UAVYBIy/S42wpHbw0be2rbcgCQ=']),
  iface('nft_sale_getgems_v4', ['get_fix_price_data_v4'], ['a5WmQYucnSNZBF0edVm41UmuDlBvJMqrWPowyPsf64Y=']),
  iface('nft_sale_getgems_v3', [], [
    'JCIfpXHlQuBVx3vt/b9SfHr0YM/cfzRMRQeHtM+h600=',
    '3rU7bFdlwebNI4v0e8XoO6WWvcwEsLhM1Qqx5HSgjzE=',
    'MgUN+sRPZIZrzIbyzZ4TBf6dyts5WcACI3z7CQLUQyM=',
  ]),
  iface('nft_sale_getgems_v2', [], ['gnj0xSM95vvtyWmvUZNEp6m//FRIVtuphqlcC8+Fcck=']),
  iface('nft_auction_getgems_v3', [], ['G9nFo5v/t6DzQViLXdkrgTqEK/Ze8UEJOCIAzq+Pct8=', 'ZmiHL6eXBUQ//UdSPo6eqfdquZ+aC1nSfej4GhwnudQ=']),
  iface('nft_auction_getgems_v4', ['get_auction_data_v4'], ['zlp4U06qps7tja/UhtB262CpsNbb+1Nnb2YmScBomVY=']),
  iface('nft_collection', ['get_nft_content', 'get_collection_data', 'get_nft_address_by_index']),
  iface('nft_item', ['get_nft_data']),
  iface('nft_item_simple', [], ['TJEjgoaC+m9DeXq0FzK8qJDK4Bdm4GdBACUFFuC/jUI=']),
  iface('editable', ['get_editor']),
  iface('sbt', ['get_authority_address']),
  iface('payment_channel', ['get_channel_data']),
  iface('pyth_price_oracle', [
    'get_update_fee',
    'get_single_update_fee',
    'get_governance_data_source_index',
    'get_governance_data_source',
    'get_last_executed_governance_sequence',
    'get_is_valid_data_source',
    'get_price_unsafe',
    'get_price_no_older_than',
    'get_ema_price_unsafe',
    'get_ema_price_no_older_than',
    'get_chain_id',
    'get_current_guardian_set_index',
    'get_guardian_set',
    'get_governance_chain_id',
    'get_governance_contract',
    'governance_action_is_consumed',
  ]),
  iface('stonfi_pool', ['get_pool_data', 'get_expected_outputs', 'get_expected_tokens', 'get_expected_liquidity', 'get_lp_account_address']),
  iface('stonfi_pool_v2', ['get_pool_data', 'get_pool_type', 'get_lp_account_address', 'get_jetton_data', 'get_wallet_address']),
  iface('stonfi_router_v2', ['get_vault_address', 'get_pool_address', 'get_router_data', 'get_router_version']),
  iface('stonfi_router', ['get_router_data', 'get_pool_address']),
  iface('stonfi_lp_account_v2', ['get_lp_account_data']),
  iface('stonfi_vault_v2', ['get_vault_data']),
  iface('omniston_referral', [], ['7cxi8XUil/vaJAjAnKQgs6+VKBAuM7ngoOvjhVPBj+w=', 'bNo1HDwO42iHOl6hD1O5pHpVqs3I3rP9EDwvloyVJSc=']),
  iface('storage_provider', ['get_wallet_params', 'get_storage_params', 'seqno', 'get_public_key', 'get_storage_contract_address']),
  iface('storage_contract', ['get_storage_contract_data', 'get_torrent_hash', 'is_active', 'get_next_proof_info']),
  iface('storm_vamm', ['get_amm_name', 'get_amm_status', 'get_amm_contract_data', 'get_exchange_settings', 'get_spot_price', 'get_terminal_amm_price', 'get_vamm_type']),
  iface('storm_referral', ['get_nft_data', 'get_referral_data']),
  iface('storm_referral_collection', ['get_referral_vaults_whitelist']),
  iface('storm_executor', ['get_nft_data', 'get_executor_balances']),
  iface('storm_executor_collection', ['get_amm_name']),
  iface('storm_vault', [
    'get_executor_collection_address',
    'get_referral_collection_address',
    'get_vault_contract_data',
    'get_lp_minter_address',
    'get_vault_whitelisted_addresses',
    'get_vault_data',
    'get_vault_type',
  ]),
  iface('storm_position_manager', ['get_position_manager_contract_data']),
  iface('subscription_v1', ['get_subscription_data']),
  iface('subscription_v2', ['get_subscription_info', 'get_payment_info', 'get_cron_info'], ['XUG7cGLs/yqv7/IFppEtfFyyIwjbHRLCCH3IzAORwy4=']),
  iface('coffee_mev_protector', [], ['WPvC26JoTTi4C/zj3Fqf/OAK+bRkx7TcIc9X46rhHxw=']),
  iface('coffee_cross_dex', [], ['/qnGoe9eqyxcqU1r7x4zmUxXhqvrUmR2DhUNozv7Nnc=']),
  iface('coffee_staking_master', ['get_stored_data', 'get_collection_data', 'get_nft_address_by_index', 'get_nft_content']),
  iface('coffee_staking_vault', ['get_stored_data', 'get_master_address']),
  iface('coffee_staking_item', ['get_stored_data', 'get_nft_data']),
  iface('coffee_factory', [
    'get_vault_address',
    'get_pool_address',
    'get_pool_address_no_settings',
    'get_pool_creator_address',
    'get_pool_creator_address_no_settings',
    'get_liquidity_depository_address',
    'get_liquidity_depository_address_no_settings',
    'get_admin_address',
    'get_code',
  ]),
  iface('coffee_vault', ['get_asset', 'is_active']),
  iface('coffee_pool', ['get_jetton_data', 'get_wallet_address', 'get_pool_data', 'estimate_swap_amount', 'estimate_liquidity_withdraw_amount', 'estimate_liquidity_deposit_amount']),
  iface('jetton_wallet_coffee_lp', [], ['18OPqZSoKCZXIJ+T68Xf6Qil8G0uQfDAhekXvE9UorM=']),
  iface('teleitem', ['get_telemint_auction_state', 'get_telemint_auction_config', 'get_telemint_token_name']),
  iface('tonco_pool', ['get_collection_data', 'getIsActive', 'getPoolStateAndConfiguration', 'getChildContracts', 'getAllTickInfos'], ['vJR9FjRsL9yEW3pEY4L1nIassHXiox2/qVbNDJ5UZ44=']),
  iface('tonco_router', ['getRouterState', 'getPoolAddress', 'getChildContracts'], ['m5iR6qfbe+zGzN2hvZqNJdw98oF9V+SyfsAD2vgaRDk=']),
  iface('tonkeeper_2fa', ['get_wallet_addr', 'get_root_pubkey', 'get_seed_pubkey', 'get_delegation_state', 'get_estimated_attached_value'], ['xe8Z3yKu6LcHvXoYEXTkAKQiUiPFrkDYMg9d3XB9NKE=']),
  iface('tv_pool', ['get_pool_data', 'get_nominator_data', 'list_nominators', 'list_votes']),
  iface('wallet_v1r1', [], walletCodeHashes('wallet_v1r1')),
  iface('wallet_v1r2', ['seqno'], walletCodeHashes('wallet_v1r2')),
  iface('wallet_v1r3', ['seqno', 'get_public_key'], walletCodeHashes('wallet_v1r3')),
  iface('wallet_v2r1', ['seqno'], walletCodeHashes('wallet_v2r1')),
  iface('wallet_v2r2', ['seqno', 'get_public_key'], walletCodeHashes('wallet_v2r2')),
  iface('wallet_v3r1', ['seqno'], walletCodeHashes('wallet_v3r1')),
  iface('wallet_v3r2', ['get_public_key', 'seqno'], walletCodeHashes('wallet_v3r2')),
  iface('wallet_v4r1', ['get_plugin_list', 'is_plugin_installed', 'get_public_key', 'seqno', 'get_subwallet_id'], walletCodeHashes('wallet_v4r1')),
  iface('wallet_v4r2', ['get_plugin_list', 'is_plugin_installed', 'get_public_key', 'seqno', 'get_subwallet_id'], walletCodeHashes('wallet_v4r2')),
  iface('wallet_v5_beta', ['seqno'], walletCodeHashes('wallet_v5_beta')),
  iface('wallet_v5r1', ['seqno', 'get_public_key', 'get_subwallet_id', 'get_extensions', 'is_signature_allowed'], walletCodeHashes('wallet_v5r1')),
  iface('tg_wallet', [], ['kUmuUcHkaJcQzr94MCl7Fqz7rbNjqSClN4k+f/7sp2g=']),
  iface('wallet_highload_v1r1', [], ['2M27t58sXKpnesRQdwvgNRviHhJQSG3oXMUqoz3RZIQ=']),
  iface('wallet_highload_v1r2', [], ['Dc7tISadZgE+lbGfu1xVpvAa2tQIN7qo5SHN46AqpGw=']),
  iface('wallet_highload_v2', ['get_public_key'], ['lJTRzI7fEvBWcaGpugmSEJbrUIEeGSTsZcPGKfu4CBI=']),
  iface('wallet_highload_v2r1', [], ['jOtFs81LXMYOquHBO5wJI5Jnf+U2sumy2AG2Lv+TH+E=']),
  iface('wallet_highload_v2r2', [], ['ID3U81ittJmTEpqpJcrDmRa2ig5PeNJujywraer6Vnk=']),
  iface('wallet_highload_v3r1', ['get_public_key', 'get_subwallet_id', 'get_timeout'], ['EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=']),
  iface('wallet_preprocessed_v2', [], ['Reu86bXSNYhstr/hw62TtwjeBYJEiSNlye4N/kOct7U=']),
  iface('wallet_vesting', ['seqno', 'get_public_key', 'get_vesting_data'], ['tItTGr7DtxRjgpH3137W3J9qJynvyiBHcTc3TUrotZA=']),
  iface('whales_pool', ['get_staking_status', 'get_pool_status', 'get_member', 'get_members_raw', 'get_params']),
  iface('x1000_wallet_v1', [], ['Q9RHFtMmqDLO1WprYKAstnYw4E9Xhf6J+HhKEQzzYVE=']),
  iface('x1000_affiliate_account', ['get_affiliate_account_data'], ['RFb60SpDTEiYsFrGW6td6A2zPydcYCB0bejhEaXNpOY=']),
  iface('x1000_affiliate_program', ['get_affiliate_account_address'], ['yLuWL5k+Jp+RQ1u+dsG7rdb6Tq0+msgcoJdeGCDL7ws=']),
];

const BY_CODE_HASH = new Map<string, string>();
for (const i of INTERFACES) for (const h of i.codeHashes) BY_CODE_HASH.set(h, i.name);
const BY_METHODS = INTERFACES.filter((i) => i.methods.length).map((i) => ({ name: i.name, ids: i.methods.map(methodId) }));

/**
 * Interfaces of a contract from its code hash (base64) and get-method ids.
 * [quirk] toncenter answers null when the code has methods but none matches; Atlas answers [] — "no
 * known interface" is an empty list, and null stays what it means in the address book: no code at all.
 */
export function detectInterfaces(codeHash: string | null, methods: readonly number[] | null): string[] {
  if (codeHash) {
    const exact = BY_CODE_HASH.get(codeHash);
    if (exact) return [exact];
  }
  if (!methods?.length) return [];
  const present = new Set(methods);
  return BY_METHODS.filter((i) => i.ids.every((id) => present.has(id)))
    .map((i) => i.name)
    .sort();
}

/** The interfaces whose accounts are tokens toncenter keeps metadata for, by metadata type. */
export const TOKEN_INTERFACES: Readonly<Record<string, 'jetton_masters' | 'jetton_wallets' | 'nft_items' | 'nft_collections'>> = {
  jetton_master: 'jetton_masters',
  jetton_wallet: 'jetton_wallets',
  jetton_wallet_v1: 'jetton_wallets',
  jetton_wallet_v2: 'jetton_wallets',
  jetton_wallet_governed: 'jetton_wallets',
  nft_item: 'nft_items',
  nft_item_simple: 'nft_items',
  nft_collection: 'nft_collections',
};

/** The root cell of a stored BoC (code or data), or null when the bytes are not one. */
export function bocCell(boc: Uint8Array | null | undefined): Cell | null {
  if (!boc?.length) return null;
  try {
    return deserializeBoc(Buffer.from(boc.buffer, boc.byteOffset, boc.byteLength))[0] ?? null;
  } catch {
    return null;
  }
}
