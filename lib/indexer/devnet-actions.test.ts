// The devnet genesis indexed with the derive stage, end to end: every action type the genesis makes
// (lib/devnet/genesis/README.md) as /api/v3/actions answers it, the token routes for the contracts the
// genesis added (the governed jetton, the off-chain jetton, the auction) against their get-methods, and
// the marketplace trades the background traffic makes through the genesis' deployer (listings, purchase,
// cancellations, bids, outbids, a finished auction) as /actions, /events and /traces answer them.
import { Address, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DNS_CATEGORY } from '../devnet/contracts/dns';
import {
  GENESIS_AUCTION,
  GENESIS_JETTON_AMOUNTS as A,
  GENESIS_JETTON2_AMOUNTS as J2,
  GENESIS_MULTISIG,
  GENESIS_OFFCHAIN_JETTON_URI,
  GENESIS_QUERY_IDS,
  GENESIS_SOLD_SALE,
  GENESIS_STABLECOIN,
  GENESIS_TEXTS,
} from '../devnet/genesis/genesis';
import { ActionsResponse } from '../api/v3/models/actions';
import { JettonMastersResponse, JettonWalletsResponse } from '../api/v3/models/jettons';
import { NftSalesResponse } from '../api/v3/models/nfts';
import { EventsResponse, TracesResponse } from '../api/v3/models/traces';
import type { ActionJson } from '../api/v3/models/actions';
import type { JettonMasterJson, JettonWalletJson } from '../api/v3/models/jettons';
import type { NftSaleJson } from '../api/v3/models/nfts';
import { createTrafficGenerator, type MarketMove } from '../devnet/genesis';
import { startTestChain, type TestChain } from '../testing/chain';
import { liveGetMethod } from '../testing/get-method';
import { modelProblems } from '../testing/v3';
import { rawUpper } from '../ton/address';
import { readWalletData } from '../ton/jetton-getters';
import { readAuctionData, readSaleData } from '../ton/nft-getters';

let chain: TestChain;
let all: ActionJson[];
const acc = (name: string) => rawUpper(Address.parseRaw(chain.account(name).address));
const raw = (a: Address | null) => (a ? rawUpper(a) : null);

const getMethod = (address: string, method: string) => liveGetMethod(chain, address, method);

/** The genesis' actions of `type` whose details match `details`: exactly one is expected. */
function one(type: string, details: Record<string, unknown>): ActionJson {
  const found = all.filter((a) => a.type === type && Object.entries(details).every(([k, v]) => JSON.stringify(a.details[k]) === JSON.stringify(v)));
  expect(found, `${type} ${JSON.stringify(details)}`).toHaveLength(1);
  return found[0]!;
}

beforeAll(async () => {
  chain = await startTestChain({ seed: 'devnet-actions', rounds: 0, index: true, derive: true });
  const r = await chain.callV3<{ actions: ActionJson[] }>('actions', { limit: 1000, sort: 'asc' });
  expect(r.status, r.text).toBe(200);
  expect(modelProblems(r.body, ActionsResponse)).toEqual([]);
  all = r.body.actions;
}, 300_000);
afterAll(() => chain?.close());

describe('GET /actions over the indexed genesis: every action type it makes', () => {
  it('a TON transfer with a comment', () => {
    const a = one('ton_transfer', { source: acc('alice'), destination: acc('bob'), comment: GENESIS_TEXTS.unicode });
    expect(a.success).toBe(true);
    expect(a.details).toMatchObject({ value: toNano('1.5').toString(), encrypted: false });
  });

  it('jetton transfers of the standard and the governed jetton, with their comments', () => {
    const atlas = one('jetton_transfer', { sender: acc('alice'), receiver: acc('carol'), asset: acc('jetton_minter') });
    expect(atlas.success).toBe(true);
    expect(atlas.details).toMatchObject({ amount: A.aliceToCarol.toString(), comment: GENESIS_TEXTS.jettonToCarol, sender_jetton_wallet: acc('alice_jetton'), receiver_jetton_wallet: acc('carol_jetton') });
    const stable = one('jetton_transfer', { sender: acc('alice'), receiver: acc('bob'), asset: acc('stablecoin_minter') });
    expect(stable.success).toBe(true);
    expect(stable.details).toMatchObject({
      amount: J2.stableAliceToBob.toString(),
      comment: GENESIS_TEXTS.stablecoinToBob,
      sender_jetton_wallet: acc('alice_stablecoin'),
      receiver_jetton_wallet: acc('bob_stablecoin'),
      query_id: '11',
    });
  });

  it('the failed jetton transfer: more than carol holds, success false, nothing reached a receiver wallet', () => {
    const a = one('jetton_transfer', { sender: acc('carol'), query_id: GENESIS_QUERY_IDS.jettonOverdraft.toString() });
    expect(a.success).toBe(false);
    expect(a.details).toMatchObject({
      asset: acc('jetton_minter'),
      receiver: acc('bob'),
      sender_jetton_wallet: acc('carol_jetton'),
      receiver_jetton_wallet: null,
      amount: J2.atlasOverdraft.toString(),
      comment: GENESIS_TEXTS.jettonOverdraft,
    });
  });

  it('jetton mints (all three jettons) and a burn', () => {
    expect(one('jetton_mint', { asset: acc('jetton_minter'), receiver: acc('alice') }).details.amount).toBe(A.mintAlice.toString());
    expect(one('jetton_mint', { asset: acc('ofc_jetton_minter'), receiver: acc('alice') }).details.amount).toBe(J2.offchainMintAlice.toString());
    const stable = one('jetton_mint', { asset: acc('stablecoin_minter'), receiver: acc('bob') });
    expect(stable.details).toMatchObject({ amount: J2.stableMintBob.toString(), receiver_jetton_wallet: acc('bob_stablecoin'), ton_amount: toNano('0.1').toString() });
    const burn = one('jetton_burn', { owner: acc('bob'), asset: acc('jetton_minter') });
    expect(burn.details).toMatchObject({ owner_jetton_wallet: acc('bob_jetton'), amount: A.bobBurn.toString() });
  });

  it('NFT mint, transfer and purchase', () => {
    expect(one('nft_mint', { nft_item: acc('nft_item_3') }).details).toMatchObject({ nft_collection: acc('nft_collection'), nft_item_index: '3' });
    const gift = one('nft_transfer', { nft_item: acc('nft_item_0') });
    expect(gift.details).toMatchObject({ old_owner: acc('alice'), new_owner: acc('carol'), is_purchase: false, forward_amount: toNano('0.01').toString() });
    // The sale handed the item to bob and paid carol: one nft_purchase (its transfer and the payout nested).
    const bought = one('nft_purchase', { nft_item: acc('nft_item_4') });
    expect(bought.success).toBe(true);
    expect(bought.details).toMatchObject({
      nft_collection: acc('nft_collection'),
      old_owner: acc('nft_sale_sold'),
      new_owner: acc('bob'),
      is_purchase: true,
      price: GENESIS_SOLD_SALE.price.toString(),
      real_old_owner: acc('carol'),
      marketplace_address: acc('admin'),
      marketplace: 'getgems',
      payout_address: acc('carol'),
      royalty_address: null,
    });
    // The seller gets the price less the fee and the royalty, plus what the sale had left of its gas.
    const payout = BigInt(bought.details.payout_amount as string);
    expect(payout >= GENESIS_SOLD_SALE.price - GENESIS_SOLD_SALE.marketplaceFee - GENESIS_SOLD_SALE.royalty && payout < GENESIS_SOLD_SALE.price).toBe(true);
    // The fee and the royalty stay TON transfers of their own.
    expect(all.filter((a) => a.type === 'ton_transfer' && a.details.source === acc('nft_sale_sold'))).toHaveLength(2);
  });

  it('the genesis auction: carol\'s bid, then alice\'s, which outbids her (auction_outbid with GetGems\' comment)', () => {
    const bids = all.filter((a) => a.type === 'auction_bid' && a.details.auction === acc('nft_auction'));
    expect(bids.map((b) => [b.details.bidder, b.details.amount, b.details.nft_item, b.details.nft_collection])).toEqual(
      GENESIS_AUCTION.bids.map((b) => [acc(b.bidder), b.amount.toString(), acc('nft_item_3'), acc('nft_collection')]),
    );
    expect(one('auction_outbid', { auction_address: acc('nft_auction') }).details).toMatchObject({
      bidder: acc(GENESIS_AUCTION.bids[0].bidder),
      new_bidder: acc(GENESIS_AUCTION.bids[1].bidder),
      amount: GENESIS_AUCTION.bids[0].amount.toString(),
      comment: 'Your bid has been outbid by another user.',
      marketplace: 'getgems',
    });
  });

  it('DNS: a record change and a renewal', () => {
    const change = one('change_dns', { source: acc('alice'), asset: acc('alice.ton') });
    expect(change.details).toEqual({
      key: DNS_CATEGORY.wallet.toString(16).padStart(64, '0'),
      value: {
        sum_type: 'DNSSmcAddress',
        dns_smc_address: acc('wallet_v5r1'),
        dns_adnl_address: null,
        dns_text: null,
        dns_next_resolver_address: null,
        dns_storage_address: null,
        flags: 0,
      },
      source: acc('alice'),
      asset: acc('alice.ton'),
      nft_collection: acc('dns_collection'),
    });
    const renew = one('renew_dns', { source: acc('alice') });
    expect(renew.success).toBe(true);
    expect(renew.details).toEqual({ source: acc('alice'), asset: acc('alice.ton'), nft_collection: acc('dns_collection') });
  });

  it('vesting: the owner\'s send and the sender\'s whitelist', () => {
    const send = one('vesting_send_message', { source: acc('alice') });
    expect(send.details).toMatchObject({ vesting: acc('vesting'), destination: acc('bob'), amount: toNano('0.2').toString(), query_id: GENESIS_QUERY_IDS.vestingSend.toString() });
    one('ton_transfer', { source: acc('vesting'), destination: acc('bob'), comment: GENESIS_TEXTS.vestingSend });
    const wl = one('vesting_add_whitelist', { source: acc('admin') });
    expect(wl.details).toEqual({ query_id: GENESIS_QUERY_IDS.vestingWhitelist.toString(), accounts_added: [acc('carol')], source: acc('admin'), vesting: acc('vesting') });
  });

  it('multisig: orders created by a signer and a proposer, approvals by index and by comment, an execution', () => {
    const M = GENESIS_MULTISIG;
    const byAlice = one('multisig_create_order', { source: acc('alice') });
    expect(byAlice.success).toBe(true);
    expect(byAlice.details).toMatchObject({
      query_id: GENESIS_QUERY_IDS.multisigCreate.toString(),
      order_seqno: '0',
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 0,
      expiration_date: M.expiresAt,
      destination: acc('multisig'),
      destination_order: acc('multisig_order_0'),
    });
    expect(one('multisig_create_order', { source: acc('admin') }).details).toMatchObject({
      query_id: GENESIS_QUERY_IDS.multisigPropose.toString(),
      order_seqno: '1',
      is_created_by_signer: false,
      is_signed_by_creator: false,
      destination_order: acc('multisig_order_1'),
    });
    expect(one('multisig_approve', { source: acc('bob') }).details).toEqual({ signer_index: 1, exit_code: 0, source: acc('bob'), destination: acc('multisig_order_0') });
    // carol approved with an "approve" comment: the order found her by address, and so does Atlas (signer 2).
    expect(one('multisig_approve', { source: acc('carol') }).details).toEqual({ signer_index: 2, exit_code: 0, source: acc('carol'), destination: acc('multisig_order_1') });
    const executed = one('multisig_execute', { source: acc('multisig_order_0') });
    expect(executed.details).toMatchObject({ destination: acc('multisig'), order_seqno: '0', approvals_num: 2, expiration_date: M.expiresAt, query_id: GENESIS_QUERY_IDS.multisigApprove.toString() });
    expect(executed.details.order_boc).toBe(byAlice.details.order_boc);
    // What the order sent stays its own actions.
    one('ton_transfer', { source: acc('multisig'), destination: acc(M.payment.to), comment: M.payment.comment });
    expect(one('jetton_transfer', { sender: acc('multisig'), receiver: acc('carol') }).details).toMatchObject({ amount: M.atlasToCarol.toString() });
  });

  it('contract deploys', () => {
    expect(one('contract_deploy', { destination: acc('nft_auction') }).details).toMatchObject({ source: acc('bob'), value: toNano('0.1').toString() });
    expect(one('contract_deploy', { destination: acc('nft_sale_sold') }).details).toMatchObject({ source: acc('admin') });
  });
});

describe('token routes for the contracts the genesis added, against their get-methods', () => {
  it('jetton/wallets of the governed jetton: balances, owners and code as get_wallet_data answers', async () => {
    const r = await chain.callV3<{ jetton_wallets: JettonWalletJson[] }>('jetton/wallets', { jetton_address: acc('stablecoin_minter'), limit: 100 });
    expect(r.status, r.text).toBe(200);
    expect(modelProblems(r.body, JettonWalletsResponse)).toEqual([]);
    const wallets = r.body.jetton_wallets;
    expect(wallets.map((w) => w.address).sort()).toEqual([acc('alice_stablecoin'), acc('bob_stablecoin'), acc('carol_stablecoin')].sort());
    for (const w of wallets) {
      const live = readWalletData(await getMethod(w.address, 'get_wallet_data'));
      expect({ balance: w.balance, owner: w.owner, jetton: w.jetton }).toEqual({ balance: live.balance.toString(), owner: raw(live.owner), jetton: acc('stablecoin_minter') });
      expect(w.code_hash).toBe(live.walletCode.hash().toString('base64'));
    }
    expect(wallets.find((w) => w.owner === acc('carol'))!.balance).toBe(J2.stableBobToCarol.toString());
  });

  it('jetton/masters: the off-chain jetton\'s URI and the governed jetton\'s { uri, decimals }', async () => {
    const r = await chain.callV3<{ jetton_masters: JettonMasterJson[] }>('jetton/masters', { address: [acc('ofc_jetton_minter'), acc('stablecoin_minter')] });
    expect(r.status, r.text).toBe(200);
    expect(modelProblems(r.body, JettonMastersResponse)).toEqual([]);
    const byAddress = new Map(r.body.jetton_masters.map((m) => [m.address, m]));
    const ofc = byAddress.get(acc('ofc_jetton_minter'))!;
    expect(ofc.jetton_content).toEqual({ uri: GENESIS_OFFCHAIN_JETTON_URI });
    expect(ofc.total_supply).toBe(J2.offchainMintAlice.toString());
    const stable = byAddress.get(acc('stablecoin_minter'))!;
    expect(stable.jetton_content).toEqual({ uri: GENESIS_STABLECOIN.uri, decimals: String(GENESIS_STABLECOIN.decimals) });
    expect(stable.admin_address).toBe(acc('admin'));
    for (const m of [ofc, stable]) {
      const live = await getMethod(m.address, 'get_jetton_data');
      expect(m.total_supply).toBe(String((live[0] as { value: bigint }).value));
    }
  });

  it('nft/sales: the open auction as get_sale_data answers', async () => {
    const r = await chain.callV3<{ nft_sales: NftSaleJson[] }>('nft/sales', { address: [acc('nft_auction')] });
    expect(r.status, r.text).toBe(200);
    expect(modelProblems(r.body, NftSalesResponse)).toEqual([]);
    expect(r.body.nft_sales).toHaveLength(1);
    const sale = r.body.nft_sales[0]!;
    const live = readAuctionData(await getMethod(acc('nft_auction'), 'get_sale_data'));
    expect(sale).toMatchObject({
      type: 'getgems_auction',
      address: acc('nft_auction'),
      nft_address: acc('nft_item_3'),
      nft_owner_address: acc('bob'),
      marketplace_address: acc('admin'),
      created_at: Number(live.createdAt),
    });
    expect(sale.details).toMatchObject({
      end_flag: false,
      end_time: Number(live.endTime),
      last_bid: GENESIS_AUCTION.bids[1].amount.toString(),
      last_member: acc('alice'),
      min_step: GENESIS_AUCTION.minStep,
      mp_fee_address: raw(live.mpFeeAddress),
      mp_fee_factor: 5,
      mp_fee_base: 100,
      royalty_fee_address: raw(live.royaltyFeeAddress),
      max_bid: GENESIS_AUCTION.maxBid.toString(),
      min_bid: GENESIS_AUCTION.minBid.toString(),
      last_bid_at: Number(live.lastBidAt),
      is_canceled: false,
    });
    expect(live.lastBid).toBe(GENESIS_AUCTION.bids[1].amount);
  });
});

describe('marketplace trades the background traffic makes through the genesis deployer', () => {
  /** Each move and the actions that appeared with it (all of them, nested ones included: by trace). */
  const moves: { move: MarketMove; actions: ActionJson[] }[] = [];
  const trade = (move: MarketMove, nth = 0) => moves.filter((m) => m.move === move)[nth]!.actions;
  const only = (actions: ActionJson[], type: string) => {
    const found = actions.filter((a) => a.type === type);
    expect(found, `${type} among ${actions.map((a) => a.type).join(', ')}`).toHaveLength(1);
    expect(found[0]!.success, type).toBe(true);
    return found[0]!;
  };
  const sale = async (address: string) => readSaleData(await getMethod(address, 'get_sale_data'));
  const auction = async (address: string) => readAuctionData(await getMethod(address, 'get_sale_data'));

  beforeAll(async () => {
    const traffic = createTrafficGenerator(chain.devnet.chain, chain.devnet.genesisAccounts, { seed: 'devnet-actions-market', tps: 0 });
    const seen = new Set(all.map((a) => a.action_id));
    const order: MarketMove[] = ['list_sale', 'buy', 'list_sale', 'cancel_sale', 'list_auction', 'bid', 'bid', 'finish_auction', 'list_auction', 'cancel_auction'];
    for (const move of order) {
      expect(await traffic.market(move), move).toEqual({ move, sent: true });
      await chain.seal();
      const r = await chain.callV3<{ actions: ActionJson[] }>('actions', { limit: 1000, sort: 'desc', supported_action_types: 'latest' });
      expect(modelProblems(r.body, ActionsResponse)).toEqual([]);
      const fresh = r.body.actions.filter((a) => !seen.has(a.action_id));
      for (const a of fresh) seen.add(a.action_id);
      moves.push({ move, actions: fresh });
    }
  }, 300_000);

  it('a listing through the deployer is nft_put_on_sale: the seller, the sale it opened, the price and fees as get_sale_data answers', async () => {
    const put = only(trade('list_sale'), 'nft_put_on_sale');
    const live = await sale(put.details.sale_address as string);
    expect(put.details).toMatchObject({
      owner: raw(live.nftOwner),
      nft_item: raw(live.nft),
      nft_collection: acc('nft_collection'),
      marketplace_address: acc('nft_marketplace'),
      listing_address: acc('nft_marketplace'),
      full_price: live.fullPrice.toString(),
      marketplace_fee: live.marketplaceFee.toString(),
      royalty_amount: live.royaltyAmount.toString(),
      marketplace_fee_address: raw(live.marketplaceFeeAddress),
      royalty_address: raw(live.royaltyAddress),
      marketplace: 'getgems',
    });
    // The sale's deployment stays an action of its own.
    expect(trade('list_sale').filter((a) => a.type === 'contract_deploy').map((a) => a.details.destination)).toEqual([put.details.sale_address]);
  });

  it('buying it is nft_purchase: the buyer, the price, the seller\'s payout; nothing else of the trade is an action of its own', async () => {
    const put = only(trade('list_sale'), 'nft_put_on_sale');
    const bought = only(trade('buy'), 'nft_purchase');
    const live = await sale(put.details.sale_address as string);
    expect(live.isComplete).toBe(true);
    expect(bought.details).toMatchObject({
      nft_item: put.details.nft_item,
      old_owner: put.details.sale_address,
      real_old_owner: put.details.owner,
      is_purchase: true,
      price: live.fullPrice.toString(),
      marketplace: 'getgems',
      marketplace_address: acc('nft_marketplace'),
      payout_address: put.details.owner,
    });
    expect(bought.details.new_owner).not.toBe(put.details.owner);
    expect(BigInt(bought.details.payout_amount as string)).toBeGreaterThanOrEqual(live.fullPrice - live.marketplaceFee - live.royaltyAmount);
  });

  it('a cancelled sale is nft_cancel_sale: the seller takes the item back', async () => {
    const put = only(trade('list_sale', 1), 'nft_put_on_sale');
    const cancel = only(trade('cancel_sale'), 'nft_cancel_sale');
    expect(cancel.details).toEqual({
      owner: put.details.owner,
      nft_item: put.details.nft_item,
      nft_collection: acc('nft_collection'),
      sale_address: put.details.sale_address,
      marketplace_address: acc('nft_marketplace'),
      marketplace: 'getgems',
    });
    expect((await sale(put.details.sale_address as string)).isComplete).toBe(true);
  });

  it('an auction listing is nft_put_on_auction; bids are auction_bid, the second one refunds the first bidder (auction_outbid)', async () => {
    const put = only(trade('list_auction'), 'nft_put_on_auction');
    const address = put.details.auction_address as string;
    const live = await auction(address);
    expect(put.details).toMatchObject({
      owner: raw(live.nftOwner),
      nft_item: raw(live.nft),
      marketplace_address: acc('nft_marketplace'),
      marketplace_fee_factor: live.mpFeeFactor.toString(),
      marketplace_fee_base: live.mpFeeBase.toString(),
      max_bid: live.maxBid.toString(),
      min_bid: live.minBid.toString(),
      marketplace: 'getgems',
    });
    const first = only(trade('bid'), 'auction_bid');
    expect(first.details).toMatchObject({ auction: address, nft_item: put.details.nft_item, nft_collection: acc('nft_collection') });
    expect(trade('bid').some((a) => a.type === 'auction_outbid')).toBe(false);
    const second = only(trade('bid', 1), 'auction_bid');
    const outbid = only(trade('bid', 1), 'auction_outbid');
    expect(outbid.details).toEqual({
      auction_address: address,
      bidder: first.details.bidder,
      new_bidder: second.details.bidder,
      nft_item: put.details.nft_item,
      nft_collection: acc('nft_collection'),
      amount: first.details.amount,
      comment: 'Your bid has been outbid by another user.',
      marketplace: 'getgems',
    });
    expect(BigInt(second.details.amount as string)).toBeGreaterThan(BigInt(first.details.amount as string));
  });

  it('the seller finishing it is nft_finish_auction, and the winner\'s nft_purchase at the last bid', async () => {
    const put = only(trade('list_auction'), 'nft_put_on_auction');
    const address = put.details.auction_address as string;
    const finish = only(trade('finish_auction'), 'nft_finish_auction');
    expect(finish.details).toMatchObject({ owner: put.details.owner, auction_address: address, nft_item: put.details.nft_item, marketplace: 'getgems' });
    const won = only(trade('finish_auction'), 'nft_purchase');
    const live = await auction(address);
    expect(live.end).toBe(true);
    expect(won.details).toMatchObject({ nft_item: put.details.nft_item, new_owner: raw(live.lastMember), price: live.lastBid.toString(), real_old_owner: put.details.owner, payout_address: put.details.owner });
  });

  it('an auction cancelled before any bid is nft_cancel_auction', async () => {
    const put = only(trade('list_auction', 1), 'nft_put_on_auction');
    const cancel = only(trade('cancel_auction'), 'nft_cancel_auction');
    expect(cancel.details).toMatchObject({ owner: put.details.owner, auction_address: put.details.auction_address, nft_item: put.details.nft_item, marketplace: 'getgems' });
    expect(await auction(put.details.auction_address as string)).toMatchObject({ end: true, isCanceled: true });
  });

  it('/traces and /events: v3 clients get the marketplace types, a v2 client the transfers and payouts they are made of', async () => {
    const bought = only(trade('buy'), 'nft_purchase');
    const traceId = bought.trace_id!;
    const latest = await chain.callV3<{ traces: { actions: ActionJson[] }[] }>('traces', { trace_id: traceId, include_actions: true });
    expect(modelProblems(latest.body, TracesResponse)).toEqual([]);
    expect(latest.body.traces[0]!.actions.map((a) => a.type)).toContain('nft_purchase');
    const v2 = await chain.callV3<{ events: { actions: ActionJson[] }[] }>('events', { trace_id: traceId, supported_action_types: 'v2' });
    expect(modelProblems(v2.body, EventsResponse)).toEqual([]);
    const types = v2.body.events[0]!.actions.map((a) => a.type);
    expect(types).not.toContain('nft_purchase');
    const transfer = v2.body.events[0]!.actions.find((a) => a.type === 'nft_transfer')!;
    expect(transfer.details).toMatchObject({ nft_item: bought.details.nft_item, new_owner: bought.details.new_owner, is_purchase: true });
    expect(types).toContain('ton_transfer'); // the seller's payout
    // A listing under v2: the item's two transfers (to the deployer, then to the sale).
    const put = only(trade('list_sale'), 'nft_put_on_sale');
    const listed = await chain.callV3<{ actions: ActionJson[] }>('actions', { trace_id: put.trace_id!, supported_action_types: 'v2' });
    expect(listed.body.actions.filter((a) => a.type === 'nft_transfer').map((a) => a.details.new_owner).sort()).toEqual([acc('nft_marketplace'), put.details.sale_address].sort());
  });
});
