// The matchers in the order they run: a node taken by one is not matched again as a base node, so
// protocol flows that contain simpler ones (a swap holds jetton transfers) run after those.
import { cocoonMatchers as cocoon } from './cocoon';
import { coffeeMatchers as coffee } from './coffee';
import { dedustMatchers as dedust } from './dedust';
import { dnsMatchers as dns } from './dns';
import { evaaMatchers as evaa } from './evaa';
import { jettonMatchers as jettons } from './jettons';
import { jvaultMatchers as jvault } from './jvault';
import { layerzeroMatchers as layerzero } from './layerzero';
import type { Matcher } from './matcher';
import { multisigMatchers as multisig } from './multisig';
import { nftMatchers as nft } from './nft';
import { stakingMatchers as staking } from './staking';
import { stonfiMatchers as stonfi } from './stonfi';
import { tgbtcMatchers as tgbtc } from './tgbtc';
import { toncoMatchers as tonco } from './tonco';
import { vestingMatchers as vesting } from './vesting';

export const MATCHERS: Matcher[] = [
  nft.mint,
  staking.tonstakers,
  staking.ethenaUnstake,
  vesting.sendMessage,
  vesting.addWhitelist,
  multisig.createOrder,
  multisig.approve,
  multisig.execute,
  dedust.deposit,
  jvault.stake,
  coffee.stakingDeposit,
  coffee.mevProtectHoldJetton,
  evaa.jettonSupply,
  evaa.tonSupply,
  evaa.withdraw,
  jvault.claim,
  jvault.unstakeRequest,
  jettons.mint,
  jettons.transfer,
  jettons.burn,
  tgbtc.dkg,
  tgbtc.mint,
  tgbtc.burn,
  tgbtc.newKeyFallback,
  nft.transfer,
  nft.telegramPurchase,
  dns.change,
  stonfi.swapV1,
  stonfi.swapV2,
  dedust.swap,
  coffee.swap,
  coffee.createPoolCreator,
  coffee.createPool,
  coffee.depositLiquidity,
  coffee.stakingClaim,
  coffee.mevProtectHold,
  tonco.swap,
  tonco.depositLiquidity,
  tonco.withdrawLiquidity,
  layerzero.send,
  layerzero.commitPacket,
  layerzero.dvnVerify,
  layerzero.receive,
  cocoon.matcher,
  nft.ownershipAssigned,
];
