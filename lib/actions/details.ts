// An action record as /api/v3's `details` object (api-v3.md §3.7): per-type keys, addresses raw,
// amounts and query ids as decimal strings, absent values null.
import { opcodeHex } from '../ton/opcode-hex';
import { EVAA_ASSET_MASTERS, EVAA_TON_ASSET_ID } from './addresses';
import { data, str, type Details } from './details-common';
import { nftDetails } from './details-nft';
import type { Action, ActionData, ActionValue, DexTransfer, PeerSwap } from './model';

/** A coffee staking position's move: the staker and its jetton wallet, the pool and its wallet, the amount. */
const stakingPosition = (a: Action) => ({
  source: a.source,
  source_jetton_wallet: a.source_secondary,
  pool: a.destination,
  pool_jetton_wallet: a.destination_secondary,
  asset: a.asset,
  amount: str(a.amount),
});

const leg = (t: DexTransfer | undefined) =>
  t && {
    asset: t.asset,
    source: t.source,
    destination: t.destination,
    source_jetton_wallet: t.source_jetton_wallet,
    destination_jetton_wallet: t.destination_jetton_wallet,
    amount: str(t.amount),
  };

function stringsOf(d: ActionData, keys: string[]): Details {
  const out: Details = {};
  for (const k of keys) out[k] = d[k] === undefined || d[k] === null ? null : typeof d[k] === 'bigint' ? String(d[k]) : d[k];
  return out;
}

/** Transfers of TON, jettons and NFTs, contract calls and deployments, swaps, DNS changes. */
function transferDetails(a: Action): Details | null {
  switch (a.type) {
    case 'call_contract':
      return { opcode: a.opcode === null ? undefined : opcodeHex(a.opcode), source: a.source, destination: a.destination, value: str(a.value), extra_currencies: null };
    case 'contract_deploy':
      return { opcode: a.opcode === null ? undefined : opcodeHex(a.opcode), source: a.source, destination: a.destination, value: str(a.value) };
    case 'ton_transfer': {
      const d = data(a, 'ton_transfer');
      return { source: a.source, destination: a.destination, value: str(a.value), value_extra_currencies: {}, comment: d.content ?? null, encrypted: d.encrypted ?? false };
    }
    case 'tick_tock':
      return {};
    case 'jetton_transfer': {
      const d = data(a, 'jetton_transfer');
      return {
        asset: a.asset,
        sender: a.source,
        receiver: a.destination,
        sender_jetton_wallet: a.source_secondary,
        receiver_jetton_wallet: a.destination_secondary,
        amount: str(a.amount),
        comment: d.comment ?? null,
        is_encrypted_comment: d.is_encrypted_comment ?? false,
        query_id: str(d.query_id),
        response_destination: d.response_destination ?? null,
        custom_payload: d.custom_payload ?? null,
        forward_payload: d.forward_payload ?? null,
        forward_amount: str(d.forward_amount),
      };
    }
    case 'jetton_mint':
      return { asset: a.asset, receiver: a.destination, receiver_jetton_wallet: a.destination_secondary, amount: str(a.amount), ton_amount: str(a.value) };
    case 'jetton_burn':
      return { owner: a.source, owner_jetton_wallet: a.source_secondary, asset: a.asset, amount: str(a.amount) };
    case 'jetton_swap': {
      const d = data(a, 'jetton_swap');
      const incoming = d.dex_incoming_transfer as DexTransfer | undefined;
      const outgoing = d.dex_outgoing_transfer as DexTransfer | undefined;
      const out: Details = {
        dex: d.dex ?? null,
        sender: d.sender ?? null,
        asset_in: a.asset,
        asset_out: a.asset2,
        dex_incoming_transfer: leg(incoming) ?? null,
        dex_outgoing_transfer: leg(outgoing) ?? null,
        peer_swaps: ((d.peer_swaps as PeerSwap[] | undefined) ?? []).map((p) => ({ asset_in: p.asset_in, amount_in: str(p.amount_in), asset_out: p.asset_out, amount_out: str(p.amount_out) })),
      };
      if (d.dex === 'tonco') out.min_out_amount = str(d.min_out_amount);
      return out;
    }
    case 'nft_mint':
      return { owner: a.destination ?? undefined, nft_item: a.asset_secondary, nft_collection: a.asset, nft_item_index: str(data(a, 'nft_mint').nft_item_index) };
    // The .ton item is the asset (api-v3.md: "asset (domain item)"), its collection asset_secondary.
    case 'change_dns': {
      const d = data(a, 'change_dns');
      return { key: d.key ?? null, value: d.value ?? null, source: a.source, asset: a.asset, nft_collection: a.asset_secondary };
    }
    case 'delete_dns':
      return { hash: data(a, 'delete_dns').key ?? null, source: a.source, asset: a.asset, nft_collection: a.asset_secondary };
    case 'renew_dns':
      return { source: a.source, asset: a.asset, nft_collection: a.asset_secondary };
  }
  return null;
}

/** Liquidity deposits, staking, elections, subscriptions, multisig orders and vesting messages. */
function walletDetails(a: Action): Details | null {
  switch (a.type) {
    case 'dex_deposit_liquidity': {
      const d = data(a, 'dex_deposit_liquidity');
      return {
        dex: d.dex ?? null,
        amount_1: str(d.amount1),
        amount_2: str(d.amount2),
        asset_1: d.asset1 ?? null,
        asset_2: d.asset2 ?? null,
        user_jetton_wallet_1: d.user_jetton_wallet_1 ?? null,
        user_jetton_wallet_2: d.user_jetton_wallet_2 ?? null,
        source: a.source,
        pool: a.destination,
        destination_liquidity: d.dex === 'dedust' ? a.destination_secondary : a.destination,
        lp_tokens_minted: str(d.lp_tokens_minted),
        target_asset_1: d.target_asset_1 ?? null,
        target_asset_2: d.target_asset_2 ?? null,
        target_amount_1: str(d.target_amount_1),
        target_amount_2: str(d.target_amount_2),
        vault_excesses: ((d.vault_excesses as ActionData[] | undefined) ?? []).map((e) => ({ asset: e.asset ?? null, amount: str(e.amount) })),
        tick_lower: str(d.tick_lower),
        tick_upper: str(d.tick_upper),
        nft_index: str(d.nft_index),
        nft_address: d.nft_address ?? null,
      };
    }
    case 'stake_deposit':
    case 'stake_withdrawal':
    case 'stake_withdrawal_request': {
      const d = data(a, 'staking');
      const out: Details = {
        provider: d.provider ?? null,
        stake_holder: a.source,
        pool: a.destination,
        asset: a.asset,
        tokens_burnt: str(d.tokens_burnt),
      };
      if (a.type !== 'stake_withdrawal_request') out.amount = str(a.amount);
      if (a.type === 'stake_deposit') out.tokens_minted = str(d.tokens_minted);
      if (a.type === 'stake_deposit' && d.provider === 'ethena') out.source_asset = a.asset2;
      else out.payout_nft = d.ts_nft ?? null;
      if (d.provider === 'ethena' && a.type === 'stake_withdrawal_request') out.tokens_minted = str(d.tokens_minted);
      return out;
    }
    case 'election_deposit':
    case 'election_recover':
      return { stake_holder: a.source, amount: str(a.amount) };
    case 'subscribe':
    case 'unsubscribe':
      return { subscriber: a.source, beneficiary: a.destination, subscription: a.destination_secondary, amount: str(a.amount) };
    case 'multisig_create_order': {
      const d = data(a, 'multisig_create_order');
      return {
        query_id: str(d.query_id),
        order_seqno: str(d.order_seqno),
        is_created_by_signer: d.is_created_by_signer ?? null,
        is_signed_by_creator: d.is_signed_by_creator ?? null,
        creator_index: d.creator_index ?? null,
        expiration_date: d.expiration_date ?? null,
        order_boc: d.order_boc ?? null,
        source: a.source,
        destination: a.destination,
        destination_order: a.destination_secondary,
      };
    }
    case 'multisig_approve': {
      const d = data(a, 'multisig_approve');
      return { signer_index: d.signer_index ?? null, exit_code: d.exit_code ?? null, source: a.source, destination: a.destination };
    }
    case 'multisig_execute': {
      const d = data(a, 'multisig_execute');
      return {
        query_id: str(d.query_id),
        order_seqno: str(d.order_seqno),
        expiration_date: d.expiration_date ?? null,
        approvals_num: d.approvals_num ?? null,
        signers_hash: d.signers_hash ?? null,
        order_boc: d.order_boc ?? null,
        source: a.source,
        destination: a.destination,
      };
    }
    case 'vesting_send_message': {
      const d = data(a, 'vesting_send_message');
      return { query_id: str(d.query_id), message_boc: d.message_boc ?? null, source: a.source, vesting: a.destination, destination: a.destination_secondary, amount: str(a.amount) };
    }
    case 'vesting_add_whitelist': {
      const d = data(a, 'vesting_add_whitelist');
      return { query_id: str(d.query_id), accounts_added: d.accounts_added ?? [], source: a.source, vesting: a.destination };
    }
  }
  return null;
}

export function actionDetails(a: Action): Details {
  const protocol = transferDetails(a) ?? walletDetails(a) ?? nftDetails(a) ?? protocolDetails(a);
  if (protocol) return protocol;
  if (a.type.startsWith('cocoon_')) {
    const d = data(a, a.type);
    return { ...stringsOf(d, Object.keys(d)), source: a.source, destination: a.destination, amount: str(a.amount) };
  }
  return { error: `unsupported action type: '${a.type}'` };
}

const LIMIT = 2n ** 53n;

/**
 * Integers the API prints as numbers (N in api-v3.md), inside objects too: numbers up to 2^53, decimal
 * strings beyond. Stored records hold them as decimal strings, fresh ones as bigints.
 */
function n(v: ActionValue | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) v = BigInt(v);
  if (typeof v === 'bigint') return v <= LIMIT && v >= -LIMIT ? Number(v) : v.toString();
  if (Array.isArray(v)) return v.map(n);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, n(x as ActionValue)]));
  return v;
}

/** The protocol types (EVAA, JVault, swap.coffee, TONCO liquidity, tgBTC, LayerZero) by api-v3.md §3.7. */
function protocolDetails(a: Action): Details | null {
  return lendingDetails(a) ?? coffeeDetails(a) ?? bridgeDetails(a);
}

/** DEX liquidity withdrawals, EVAA lending, TONCO pools and JVault staking. */
function lendingDetails(a: Action): Details | null {
  switch (a.type) {
    case 'dex_withdraw_liquidity': {
      const d = data(a, 'dex_withdraw_liquidity');
      return {
        dex: d.dex ?? null,
        amount_1: str(d.amount1),
        amount_2: str(d.amount2),
        asset_1: d.asset1_out ?? null,
        asset_2: d.asset2_out ?? null,
        user_jetton_wallet_1: d.user_jetton_wallet_1 ?? null,
        user_jetton_wallet_2: d.user_jetton_wallet_2 ?? null,
        lp_tokens_burnt: str(d.lp_tokens_burnt),
        is_refund: null,
        source: a.source,
        pool: a.destination,
        destination_liquidity: a.destination,
        burnt_nft_index: str(d.burned_nft_index),
        burnt_nft_address: d.burned_nft_address ?? null,
        tick_lower: str(d.tick_lower),
        tick_upper: str(d.tick_upper),
      };
    }
    case 'evaa_supply': {
      const d = data(a, 'evaa_supply');
      return {
        sender_jetton_wallet: a.source_secondary,
        recipient_jetton_wallet: d.recipient_jetton_wallet ?? null,
        master_jetton_wallet: d.master_jetton_wallet ?? null,
        master: d.master ?? null,
        asset_id: d.asset_id ?? null,
        is_ton: d.is_ton ?? null,
        source: a.source,
        source_wallet: a.source_secondary,
        recipient: a.destination,
        recipient_contract: a.destination_secondary,
        asset: a.asset,
        amount: str(a.amount),
      };
    }
    case 'evaa_withdraw': {
      const d = data(a, 'evaa_withdraw');
      return {
        recipient_jetton_wallet: d.recipient_jetton_wallet ?? null,
        master_jetton_wallet: d.master_jetton_wallet ?? null,
        master: d.master ?? null,
        fail_reason: d.fail_reason ?? null,
        asset_id: d.asset_id ?? null,
        source: a.source,
        recipient: a.destination,
        owner_contract: a.destination_secondary,
        asset: a.asset,
        amount: str(a.amount),
      };
    }
    case 'tonco_deploy_pool': {
      const d = data(a, 'tonco_deploy_pool');
      return {
        source: a.source,
        pool: a.destination_secondary,
        router: a.destination,
        router_jetton_wallet_1: d.jetton0_router_wallet ?? null,
        router_jetton_wallet_2: d.jetton1_router_wallet ?? null,
        jetton_minter_1: d.jetton0_minter ?? null,
        jetton_minter_2: d.jetton1_minter ?? null,
        tick_spacing: n(d.tick_spacing),
        initial_price_x96: str(d.initial_price_x96),
        protocol_fee: n(d.protocol_fee),
        lp_fee_base: n(d.lp_fee_base),
        lp_fee_current: n(d.lp_fee_current),
        pool_active: d.pool_active ?? null,
      };
    }
    case 'evaa_liquidate': {
      const d = data(a, 'evaa_liquidate');
      return {
        fail_reason: d.fail_reason ?? null,
        debt_amount: str(d.debt_amount),
        source: a.source,
        borrower: a.destination,
        borrower_contract: a.destination_secondary,
        collateral: a.asset,
        asset_id: d.asset_id ?? null,
        // The collateral's jetton master by its EVAA asset id (TON: known, no master).
        asset: EVAA_ASSET_MASTERS.get(d.asset_id as string) ?? null,
        is_known_asset: d.asset_id === EVAA_TON_ASSET_ID || EVAA_ASSET_MASTERS.has(d.asset_id as string),
        amount: str(a.amount),
      };
    }
    case 'jvault_claim': {
      const d = data(a, 'jvault_claim');
      const jettons = (d.claimed_jettons as ActionValue[] | undefined) ?? [];
      const amounts = (d.claimed_amounts as ActionValue[] | undefined) ?? [];
      return { claimed_rewards: jettons.map((j, i) => ({ jetton: j, amount: str(amounts[i]) })), source: a.source, stake_wallet: a.source_secondary, pool: a.destination };
    }
    case 'jvault_stake': {
      const d = data(a, 'jvault_stake');
      return {
        period: n(d.period),
        minted_stake_jettons: str(d.minted_stake_jettons),
        stake_wallet: d.stake_wallet ?? null,
        source: a.source,
        source_jetton_wallet: a.source_secondary,
        asset: a.asset,
        pool: a.destination,
        amount: str(a.amount),
      };
    }
    case 'jvault_unstake':
    case 'jvault_unstake_request':
      return { source: a.source, stake_wallet: a.source_secondary, pool: a.destination, amount: str(a.amount), exit_code: null, asset: a.asset, staking_asset: a.asset2 };
  }
  return null;
}

/** swap.coffee: pools, staking, vaults and MEV protection. */
function coffeeDetails(a: Action): Details | null {
  switch (a.type) {
    case 'coffee_create_pool': {
      const d = data(a, 'coffee_create_pool');
      return {
        source: a.source,
        source_jetton_wallet: a.source_secondary,
        initiator_1: null,
        initiator_2: null,
        pool: a.destination,
        pool_creator_contract: a.destination_secondary,
        provided_asset: a.asset,
        amount: str(a.amount),
        asset_1: a.asset,
        asset_2: a.asset2,
        amount_1: str(d.amount_1),
        amount_2: str(d.amount_2),
        lp_tokens_minted: str(d.lp_tokens_minted),
      };
    }
    case 'coffee_create_pool_creator':
      return {
        source: a.source,
        source_jetton_wallet: a.source_secondary,
        deposit_recipient: a.destination,
        pool_creator_contract: a.destination_secondary,
        provided_asset: a.asset,
        asset_1: a.asset2,
        asset_2: a.asset2_secondary,
        amount: str(a.amount),
      };
    case 'coffee_staking_deposit': {
      const d = data(a, 'coffee_staking_deposit');
      return { ...stakingPosition(a), minted_item_address: d.minted_item_address ?? null, minted_item_index: str(d.minted_item_index) };
    }
    case 'coffee_staking_withdraw': {
      const d = data(a, 'coffee_staking_withdraw');
      return {
        ...stakingPosition(a),
        nft_address: d.nft_address ?? null,
        nft_index: str(d.nft_index),
        points: str(d.points),
      };
    }
    case 'coffee_create_vault':
      return { source: a.source, vault: a.destination, asset: a.asset, value: str(a.value) };
    case 'coffee_staking_claim_rewards':
      return { pool: a.source, pool_jetton_wallet: a.source_secondary, recipient: a.destination, recipient_jetton_wallet: a.destination_secondary, asset: a.asset, amount: str(a.amount) };
    case 'coffee_mev_protect_hold_funds':
      return { source: a.source, source_jetton_wallet: a.source_secondary, mev_contract: a.destination, mev_contract_jetton_wallet: a.destination_secondary, asset: a.asset, amount: str(a.amount) };
  }
  return null;
}

/** Bridges: tgBTC and LayerZero. */
function bridgeDetails(a: Action): Details | null {
  switch (a.type) {
    case 'tgbtc_mint':
    case 'tgbtc_mint_fallback':
      return { source: a.source, destination: a.destination, amount: str(a.amount), asset: a.asset, bitcoin_tx_id: a.asset_secondary, destination_wallet: a.destination_secondary };
    case 'tgbtc_burn':
    case 'tgbtc_burn_fallback':
      return { source: a.source, source_wallet: a.source_secondary, destination: a.destination, amount: str(a.amount), asset: a.asset };
    case 'tgbtc_new_key':
    case 'tgbtc_new_key_fallback':
      return { source: a.source, pubkey: a.source_secondary, coordinator: a.destination, pegout: a.destination_secondary, amount: str(a.amount), asset: a.asset };
    case 'tgbtc_dkg_log_fallback':
      return { coordinator: a.source, pubkey: a.asset, timestamp: n(a.value) };
    case 'layerzero_send':
      return { initiator: a.source, layerzero_send_data: n(a.layerzero_send_data), layerzero_packet_data: n(a.layerzero_packet_data) };
    case 'layerzero_send_tokens':
      return {
        sender: a.source,
        sender_wallet: a.source_secondary,
        oapp: a.destination,
        oapp_wallet: a.destination_secondary,
        asset: a.asset,
        amount: str(a.amount),
        layerzero_send_data: n(a.layerzero_send_data),
        layerzero_packet_data: n(a.layerzero_packet_data),
      };
    case 'layerzero_receive':
      return { sender: a.source, oapp: a.destination, channel: a.destination_secondary, layerzero_packet_data: n(a.layerzero_packet_data) };
    case 'layerzero_commit_packet':
      return {
        sender: a.source,
        endpoint: a.source_secondary,
        uln: a.destination,
        uln_connection: a.destination_secondary,
        channel: a.asset,
        msglib_connection: a.asset_secondary,
        layerzero_packet_data: n(a.layerzero_packet_data),
      };
    case 'layerzero_dvn_verify': {
      const d = data(a, 'layerzero_dvn_verify');
      return { initiator: a.source, nonce: n(d.nonce), status: d.status ?? null, dvn: d.dvn ?? null, proxy: d.proxy ?? null, uln: d.uln ?? null, uln_connection: d.uln_connection ?? null };
    }
  }
  return null;
}
