/** Genesis steps: the vesting wallet and its messages, and the multisig v2 wallet with two orders. */
import { internal, toNano } from '@ton/core';
import { textCommentBody } from '../contracts/common';
import { jettonTransferBody, jettonWalletAddress } from '../contracts/jetton';
import { multisigInit, multisigOrderAddress } from '../contracts/multisig';
import { vestingAddWhitelistBody, vestingInit, vestingSendBody } from '../contracts/vesting';
import { multisigApproveBody, multisigNewOrderBody, packMultisigOrder } from '../../ton/multisig';
import type { GenesisContext } from './context';
import { deriveKeyPair } from './keys';
import { GENESIS_MULTISIG, GENESIS_QUERY_IDS, GENESIS_TEXTS } from './scenario';

/** Fixed times stored in contract data (they are part of addresses, so they cannot follow the clock). */
const VESTING_START = 1_767_225_600; // 2026-01-01T00:00:00Z
const DAY = 86_400;

/** The vesting wallet: alice's, funded and deployed by the admin (its sender). */
export async function vestingWallet(g: GenesisContext): Promise<void> {
  const { driver, seed, add, W, admin } = g;
  const vestingKeys = deriveKeyPair(seed, 'vesting');
  const vesting = vestingInit({
    publicKey: vestingKeys.publicKey,
    startTime: VESTING_START,
    totalDuration: 48 * 30 * DAY,
    unlockPeriod: 30 * DAY,
    cliffDuration: 90 * DAY,
    totalAmount: toNano('1000'),
    sender: admin.address,
    owner: W('alice').address,
  });
  g.remember('vesting', vesting.address);
  add('vesting', 'vesting', vesting.address, vestingKeys.secretKey);
  await admin.send(driver, [{ to: vesting.address, value: toNano('1000.5'), bounce: false, init: vesting.init }]);
}

/**
 * Vesting messages: the sender whitelists carol; the owner has the wallet send bob a comment out of its
 * unlocked part (to a whitelisted address the contract would take only staking messages).
 */
export async function vestingMessages(g: GenesisContext): Promise<void> {
  const { driver, W, admin } = g;
  const vesting = g.made('vesting');
  await admin.send(driver, [
    { to: vesting, value: toNano('0.1'), bounce: true, body: vestingAddWhitelistBody({ addresses: [W('carol').address], queryId: GENESIS_QUERY_IDS.vestingWhitelist }) },
  ]);
  await W('alice').send(driver, [
    {
      to: vesting,
      value: toNano('0.1'),
      bounce: true,
      body: vestingSendBody({
        queryId: GENESIS_QUERY_IDS.vestingSend,
        message: internal({ to: W('bob').address, value: toNano('0.2'), bounce: true, body: textCommentBody(GENESIS_TEXTS.vestingSend) }),
      }),
    },
  ]);
}

/**
 * Multisig v2: deployed by the faucet; alice's order executes on bob's approval, the admin's order waits
 * with carol's approval only.
 */
export async function multisigWallet(g: GenesisContext): Promise<void> {
  const { driver, add, W, admin, faucet } = g;
  const M = GENESIS_MULTISIG;
  const multisigCode = await g.code.multisig;
  const ms = multisigInit(multisigCode, { threshold: M.threshold, signers: M.signers.map((n) => W(n).address), proposers: M.proposers.map((n) => W(n).address) });
  const msJetton = jettonWalletAddress(g.made('atlasMinter'), ms.address);
  const order0 = multisigOrderAddress(multisigCode, ms.address, 0n);
  const order1 = multisigOrderAddress(multisigCode, ms.address, 1n);
  add('multisig', 'multisig_v2', ms.address);
  add('multisig_jetton', 'jetton_wallet', msJetton);
  add('multisig_order_0', 'multisig_order_v2', order0);
  add('multisig_order_1', 'multisig_order_v2', order1);
  await faucet.send(driver, [{ to: ms.address, value: M.funding, bounce: false, init: ms.init }]);
  await W('bob').send(driver, [
    { to: g.made('bobAtlas'), value: toNano('0.2'), bounce: true, body: jettonTransferBody({ amount: M.atlasIn, destination: ms.address, responseDestination: W('bob').address, queryId: 90n }) },
  ]);
  const expires = M.expiresAt;
  const order0Actions = packMultisigOrder([
    { type: 'transfer', sendMode: 3, message: internal({ to: W(M.payment.to).address, value: M.payment.value, bounce: true, body: textCommentBody(M.payment.comment) }) },
    {
      type: 'transfer',
      sendMode: 3,
      message: internal({
        to: msJetton,
        value: toNano('0.1'),
        bounce: true,
        body: jettonTransferBody({ amount: M.atlasToCarol, destination: W('carol').address, responseDestination: ms.address, queryId: GENESIS_QUERY_IDS.multisigCreate }),
      }),
    },
  ]);
  const signerIndex = (name: string) => M.signers.indexOf(name as (typeof M.signers)[number]);
  await W('alice').send(driver, [
    {
      to: ms.address,
      value: toNano('0.2'),
      bounce: true,
      body: multisigNewOrderBody({ queryId: GENESIS_QUERY_IDS.multisigCreate, orderSeqno: 0n, isSigner: true, index: signerIndex('alice'), expirationDate: expires, order: order0Actions }),
    },
  ]);
  await W('bob').send(driver, [{ to: order0, value: toNano('0.1'), bounce: true, body: multisigApproveBody(signerIndex('bob'), GENESIS_QUERY_IDS.multisigApprove) }]);
  const order1Actions = packMultisigOrder([
    { type: 'transfer', sendMode: 3, message: internal({ to: W(M.pending.to).address, value: M.pending.value, bounce: true, body: textCommentBody(M.pending.comment) }) },
  ]);
  await admin.send(driver, [
    {
      to: ms.address,
      value: toNano('0.2'),
      bounce: true,
      body: multisigNewOrderBody({ queryId: GENESIS_QUERY_IDS.multisigPropose, orderSeqno: 1n, isSigner: false, index: 0, expirationDate: expires, order: order1Actions }),
    },
  ]);
  await W('carol').send(driver, [{ to: order1, value: toNano('0.1'), bounce: true, body: textCommentBody('approve') }]);
}
