/**
 * Genesis steps: the three jettons (ATLAS with on-chain metadata, an off-chain-content one, the governed
 * USDT-like one), issued by one parameterized step, and the failed ATLAS transfer.
 */
import { beginCell, toNano, type Address, type Cell, type StateInit } from '@ton/core';
import { offchainContent, textCommentBody } from '../contracts/common';
import { jettonBurnBody, jettonMintBody, jettonMinterInit, jettonTransferBody, jettonWalletAddress, type JettonMintArgs } from '../contracts/jetton';
import { STABLECOIN_STATUS, stablecoinMintBody, stablecoinMinterInit, stablecoinSetStatusBody, stablecoinWalletAddress } from '../contracts/stablecoin';
import type { GenesisContext } from './context';
import {
  GENESIS_JETTON,
  GENESIS_JETTON_AMOUNTS,
  GENESIS_JETTON2_AMOUNTS,
  GENESIS_OFFCHAIN_JETTON_URI,
  GENESIS_QUERY_IDS,
  GENESIS_STABLECOIN,
  GENESIS_TEXTS,
} from './scenario';

/** A jetton the admin issues: its minter, who holds its wallets, what is minted and transferred. */
export interface JettonIssue {
  /** Account names: `<minterName>` for the minter, `<holder>_<walletSuffix>` for each holder's wallet. */
  minterName: string;
  walletSuffix: string;
  minter: { address: Address; init: StateInit };
  walletOf: (owner: Address) => Address;
  mintBody: (args: JettonMintArgs) => Cell;
  holders: readonly string[];
  /** The first mint deploys the minter (non-bounceable, with its state init); the next carry query ids 1, 2, … */
  mints: readonly { to: string; amount: bigint }[];
  transfers: readonly { from: string; to: string; amount: bigint; forwardTonAmount?: bigint; comment?: string; queryId: bigint }[];
}

/** Deploy a jetton's minter with its first mint, mint the rest, then make the transfers, in that order. */
export async function issueJetton(g: GenesisContext, j: JettonIssue): Promise<void> {
  const { driver, add, W, admin } = g;
  add(j.minterName, 'jetton_minter', j.minter.address);
  for (const holder of j.holders) add(`${holder}_${j.walletSuffix}`, 'jetton_wallet', j.walletOf(W(holder).address));
  for (const [i, mint] of j.mints.entries()) {
    const first = i === 0;
    const body = j.mintBody({
      to: W(mint.to).address,
      amount: mint.amount,
      tonToWallet: toNano('0.1'),
      minter: j.minter.address,
      responseAddress: admin.address,
      ...(first ? {} : { queryId: BigInt(i) }),
    });
    await admin.send(driver, [{ to: j.minter.address, value: toNano('0.25'), bounce: !first, ...(first ? { init: j.minter.init } : {}), body }]);
  }
  for (const t of j.transfers) {
    const from = W(t.from);
    const body = jettonTransferBody({
      amount: t.amount,
      destination: W(t.to).address,
      responseDestination: from.address,
      forwardTonAmount: t.forwardTonAmount,
      forwardPayload: t.comment === undefined ? undefined : textCommentBody(t.comment),
      queryId: t.queryId,
    });
    await from.send(driver, [{ to: j.walletOf(from.address), value: toNano('0.2'), bounce: true, body }]);
  }
}

/** ATLAS: on-chain metadata; mints, transfers with comments, a burn, and a call the minter aborts. */
export async function atlasJetton(g: GenesisContext): Promise<void> {
  const { driver, W, admin } = g;
  const minter = jettonMinterInit(admin.address, GENESIS_JETTON);
  g.remember('atlasMinter', minter.address);
  const walletOf = (owner: Address) => jettonWalletAddress(minter.address, owner);
  const bobJw = g.remember('bobAtlas', walletOf(W('bob').address));
  g.remember('carolAtlas', walletOf(W('carol').address));
  const A = GENESIS_JETTON_AMOUNTS;
  await issueJetton(g, {
    minterName: 'jetton_minter',
    walletSuffix: 'jetton',
    minter,
    walletOf,
    mintBody: jettonMintBody,
    holders: ['alice', 'bob', 'carol'],
    mints: [
      { to: 'alice', amount: A.mintAlice },
      { to: 'bob', amount: A.mintBob },
    ],
    transfers: [
      { from: 'alice', to: 'carol', amount: A.aliceToCarol, forwardTonAmount: toNano('0.01'), comment: GENESIS_TEXTS.jettonToCarol, queryId: 7n },
      { from: 'bob', to: 'alice', amount: A.bobToAlice, forwardTonAmount: toNano('0.02'), comment: GENESIS_TEXTS.jettonToAlice, queryId: 8n },
    ],
  });
  await W('bob').send(driver, [
    { to: bobJw, value: toNano('0.1'), bounce: true, body: jettonBurnBody({ amount: A.bobBurn, responseDestination: W('bob').address, queryId: 9n }) },
  ]);
  // An op the minter does not know: the compute phase aborts (exit 0xffff) and the message bounces.
  await admin.send(driver, [
    { to: minter.address, value: toNano('0.1'), bounce: true, body: beginCell().storeUint(0x0badc0de, 32).storeUint(0, 64).endCell() },
  ]);
}

/** A second jetton with off-chain (TEP-64 offchain#01) content: only the URI is on chain. */
export async function offchainJetton(g: GenesisContext): Promise<void> {
  const minter = jettonMinterInit(g.admin.address, offchainContent(GENESIS_OFFCHAIN_JETTON_URI));
  await issueJetton(g, {
    minterName: 'ofc_jetton_minter',
    walletSuffix: 'ofc_jetton',
    minter,
    walletOf: (owner) => jettonWalletAddress(minter.address, owner),
    mintBody: jettonMintBody,
    holders: ['alice'],
    mints: [{ to: 'alice', amount: GENESIS_JETTON2_AMOUNTS.offchainMintAlice }],
    transfers: [],
  });
}

/** The governed ("stablecoin") jetton: mints, transfers, and the admin locks carol's wallet. */
export async function governedJetton(g: GenesisContext): Promise<void> {
  const { driver, W, admin } = g;
  const code = await g.code.stablecoin;
  const minter = stablecoinMinterInit(code, { admin: admin.address, metadataUri: GENESIS_STABLECOIN.uri });
  const J2 = GENESIS_JETTON2_AMOUNTS;
  await issueJetton(g, {
    minterName: 'stablecoin_minter',
    walletSuffix: 'stablecoin',
    minter,
    walletOf: (owner) => stablecoinWalletAddress(code, minter.address, owner),
    mintBody: stablecoinMintBody,
    holders: ['alice', 'bob', 'carol'],
    mints: [
      { to: 'alice', amount: J2.stableMintAlice },
      { to: 'bob', amount: J2.stableMintBob },
    ],
    transfers: [
      { from: 'alice', to: 'bob', amount: J2.stableAliceToBob, forwardTonAmount: toNano('0.01'), comment: GENESIS_TEXTS.stablecoinToBob, queryId: 11n },
      { from: 'bob', to: 'carol', amount: J2.stableBobToCarol, queryId: 12n },
    ],
  });
  // The admin locks carol's wallet (get_status 3): it can neither send nor receive any more.
  await admin.send(driver, [
    { to: minter.address, value: toNano('0.1'), bounce: true, body: stablecoinSetStatusBody({ owner: W('carol').address, status: STABLECOIN_STATUS.locked, tonAmount: toNano('0.05'), queryId: 13n }) },
  ]);
}

/** A failed jetton transfer: carol asks for more ATLAS than she holds; her wallet aborts and the request bounces back to her. */
export async function failedJettonTransfer(g: GenesisContext): Promise<void> {
  const { driver, W } = g;
  await W('carol').send(driver, [
    {
      to: g.made('carolAtlas'),
      value: toNano('0.2'),
      bounce: true,
      body: jettonTransferBody({
        amount: GENESIS_JETTON2_AMOUNTS.atlasOverdraft,
        destination: W('bob').address,
        responseDestination: W('carol').address,
        forwardTonAmount: toNano('0.01'),
        forwardPayload: textCommentBody(GENESIS_TEXTS.jettonOverdraft),
        queryId: GENESIS_QUERY_IDS.jettonOverdraft,
      }),
    },
  ]);
}
