// The matchers in the order they run: a node taken by one is not matched again as a base node, so
// protocol flows that contain simpler ones (a swap holds jetton transfers) run after those.
import { BEMO, BEMO_STTON, bemoMatchers as bemo } from './bemo';
import { cocoonMatchers as cocoon } from './cocoon';
import { COFFEE, coffeeMatchers as coffee } from './coffee';
import { coffeeStakingMatchers as coffeeStaking } from './coffee-staking';
import { DEDUST, dedustMatchers as dedust } from './dedust';
import { DEDUST_V2, dedustV2Matchers as dedustV2 } from './dedust-v2';
import { DEDUST_V2_LP, dedustV2LiquidityMatchers as dedustV2Lp } from './dedust-v2-liquidity';
import { DNS_OP, dnsMatchers as dns } from './dns';
import { EVAA, evaaMatchers as evaa } from './evaa';
import { jettonMatchers as jettons, OP } from './jettons';
import { JVAULT, jvaultMatchers as jvault } from './jvault';
import { LZ, layerzeroMatchers as layerzero } from './layerzero';
import { ANY, def, TON, type MatcherDef } from './matcher';
import { multisigMatchers as multisig } from './multisig';
import { MARKET_OP, marketplaceMatchers as market } from './marketplace';
import { NFT_OP, nftMatchers as nft } from './nft';
import { ETHENA, ethenaMatchers as ethena } from './ethena';
import { SUBSCRIPTION_OP, subscriptionMatchers as subscriptions } from './subscriptions';
import { TONSTAKERS, tonstakersMatchers as tonstakers } from './tonstakers';
import { ELECTOR_OP, validatorMatchers as validators } from './validators';
import { STONFI, stonfiMatchers as stonfi } from './stonfi';
import { STONFI_LP, stonfiLiquidityMatchers as stonfiLiquidity } from './stonfi-liquidity';
import { TGBTC, tgbtcMatchers as tgbtc } from './tgbtc';
import { TONCO, toncoMatchers as tonco } from './tonco';
import { vestingMatchers as vesting } from './vesting';
import { WHALES, whalesMatchers as whales } from './whales';
import { MULTISIG_OP } from '../../ton/multisig';
import { VESTING_OP } from '../../ton/owner-ops';
import { OPS } from '../bodies';
import { COMMENT_OP } from '../cells';

export const MATCHERS: MatcherDef[] = [
  def('nft mint', ANY, nft.mint),
  def('tonstakers delayed withdrawal', [TONSTAKERS.distributedAsset], tonstakers.delayedWithdrawal),
  def('tonstakers deposit', [TONSTAKERS.deposit], tonstakers.deposit),
  def('tonstakers withdrawal', [OP.burn], tonstakers.withdraw),
  def('bemo deposit', [BEMO.stake, BEMO.simpleTransfer], bemo.deposit),
  def('bemo simple deposit', TON, bemo.deposit),
  def('bemo withdrawal request', [OP.burn], bemo.withdrawalRequest),
  def('bemo withdrawal', [BEMO.unstake, BEMO_STTON.unstake], bemo.withdrawal),
  def('ethena withdrawal request', [OP.transfer], ethena.withdrawalRequest),
  def('nominator deposit', TON, validators.nominatorDeposit),
  def('nominator withdrawal request', TON, validators.nominatorWithdrawRequest),
  def('nominator payout', TON, validators.nominatorPayout),
  def('whales command', [WHALES.deposit, WHALES.withdraw, COMMENT_OP], whales.command),
  def('vesting send', [VESTING_OP.sendMessage], vesting.sendMessage),
  def('vesting whitelist', [VESTING_OP.addWhitelist], vesting.addWhitelist),
  def('multisig new order', [MULTISIG_OP.newOrder], multisig.createOrder),
  def('multisig approve', [MULTISIG_OP.approve, COMMENT_OP], multisig.approve),
  def('multisig execute', [MULTISIG_OP.execute], multisig.execute),
  def('jvault claim', [JVAULT.claim], jvault.claim),
  def('jvault unstake', [JVAULT.unstake], jvault.unstake),
  def('jvault unstake request', [JVAULT.unstakeRequest], jvault.unstakeRequest),
  def('jetton transfer', [OP.transfer], jettons.transfer),
  def('jetton burn', [OP.burn], jettons.burn),
  def('jvault stake', [OP.notify], jvault.stake),
  def('evaa jetton supply', [OP.notify], evaa.jettonSupply),
  def('evaa ton supply', [EVAA.supply], evaa.tonSupply),
  def('evaa withdraw', [EVAA.withdraw], evaa.withdraw),
  def('evaa liquidate', [EVAA.liquidate, OP.notify], evaa.liquidate),
  def('jetton mint', jettons.MINT_OPS, jettons.mint),
  def('ethena deposit', [ETHENA.mint], ethena.deposit),
  def('tgbtc dkg', [TGBTC.dkgLog], tgbtc.dkg),
  def('tgbtc mint', [TGBTC.mintLog], tgbtc.mint),
  def('tgbtc burn', [TGBTC.burnLog], tgbtc.burn),
  def('tgbtc new key', [TGBTC.newKeyLog], tgbtc.newKeyFallback),
  def('nft transfer', [NFT_OP.transfer], nft.transfer),
  def('nft ownership assigned', [NFT_OP.ownershipAssigned], nft.ownershipAssigned),
  def('nft discovery', [NFT_OP.getStaticData], nft.discovery),
  def('getgems purchase', [NFT_OP.transfer], market.purchase),
  def('getgems listing', [NFT_OP.transfer], market.putOnSale),
  def('getgems update sale', [MARKET_OP.saleUpdate], market.updateSale),
  def('getgems cancel sale', [MARKET_OP.saleCancel, COMMENT_OP], market.cancelSale),
  def('getgems finish auction', [MARKET_OP.auctionFinish, MARKET_OP.auctionStop, COMMENT_OP], market.finishAuction),
  def('getgems cancel auction', [MARKET_OP.auctionCancel, MARKET_OP.auctionFinish, MARKET_OP.auctionStop, COMMENT_OP], market.cancelAuction),
  def('auction bid', TON, market.bid),
  def('auction outbid', [COMMENT_OP, MARKET_OP.teleitemOutbid], market.outbid),
  def('teleitem auction', [MARKET_OP.teleitemStartAuction, MARKET_OP.teleitemCancelAuction], market.teleitemAuction),
  def('dns change', [OPS.change_dns_record], dns.change),
  def('dns purchase', [DNS_OP.fillUp], dns.purchase),
  def('dns release', [DNS_OP.releaseBalance], dns.release),
  def('election deposit', [ELECTOR_OP.newStake], validators.electionDeposit),
  def('election recover', [ELECTOR_OP.recoverStake], validators.electionRecover),
  def('subscribe', [SUBSCRIPTION_OP.response], subscriptions.subscribe),
  def('unsubscribe', [SUBSCRIPTION_OP.destruct], subscriptions.unsubscribe),
  def('stonfi v1 swap', [STONFI.v1Swap], stonfi.swapV1),
  def('stonfi v2 swap', [STONFI.v2Swap], stonfi.swapV2),
  def('stonfi v2 provide', [STONFI_LP.provide], stonfiLiquidity.provide),
  def('stonfi v2 withdraw', [STONFI_LP.burnNotification, STONFI_LP.refundToPool], stonfiLiquidity.withdraw),
  def('dedust swap', [DEDUST.swap], dedust.swap),
  def('dedust v2 swap', [DEDUST_V2.payNative, OP.notify], dedustV2.swap),
  def('dedust v2 withdraw', [DEDUST_V2.withdraw], dedustV2.withdraw),
  def('dedust v2 deposit', [DEDUST_V2_LP.joinLiquidity], dedustV2Lp.complete),
  def('dedust v2 deposit first side', [DEDUST_V2_LP.creditAsset], dedustV2Lp.partial),
  def('dedust deposit', [DEDUST.depositToPool], dedust.depositFinal),
  def('dedust deposit first half', [DEDUST.topUp], dedust.depositPartial),
  def('dedust deposit halves', [DEDUST.depositToPool], dedust.depositMerge),
  def('dedust withdraw', [OP.burn], dedust.withdraw),
  def('coffee swap', [COFFEE.swap], coffee.swap),
  def('coffee vault', [COFFEE.createVault], coffee.createVault),
  def('coffee pool creator', [COFFEE.createPoolCreator], coffee.createPoolCreator),
  def('coffee pool', [COFFEE.createPool], coffee.createPool),
  def('coffee deposit', [COFFEE.depositToDepository], coffee.depositLiquidity),
  def('coffee withdraw', [OP.burn], coffee.withdrawLiquidity),
  def('coffee staking deposit', [OP.notify], coffeeStaking.stakingDeposit),
  def('coffee staking withdraw', [COFFEE.stakingWithdraw], coffeeStaking.stakingWithdraw),
  def('coffee claim', [COFFEE.claimRewards], coffeeStaking.stakingClaim),
  def('coffee mev hold', [COFFEE.mevHold], coffeeStaking.mevProtectHold),
  def('coffee mev hold jetton', [OP.notify], coffeeStaking.mevProtectHoldJetton),
  def('coffee mev failed swap', [COFFEE.mevFailedSwap], coffeeStaking.mevFailedSwap),
  def('tonco swap', [TONCO.poolSwap], tonco.swap),
  def('tonco deposit', [TONCO.fundAccount], tonco.depositLiquidity),
  def('tonco withdraw', [TONCO.startBurn], tonco.withdrawLiquidity),
  def('tonco deploy pool', [TONCO.createPool], tonco.deployPool),
  def('layerzero send', [LZ.endpointSend], layerzero.send),
  def('layerzero send tokens', [LZ.endpointSend], layerzero.sendTokens),
  def('layerzero commit', [LZ.channelCommitPacket], layerzero.commitPacket),
  def('layerzero dvn verify', [LZ.connectionVerify], layerzero.dvnVerify),
  def('layerzero receive', [LZ.oappReceivePrepare], layerzero.receive),
  def('cocoon', ANY, cocoon.matcher),
];
