/**
 * The devnet's genesis scenario: the faucet holds the whole supply in the zero state, and everything else
 * is created by real transactions (signed externals through the ChainDriver): wallets of every version,
 * a jetton, NFTs with a sale, `.ton` DNS names, a vesting wallet and a set of edge cases; then (added
 * later, after those) an off-chain-content jetton, a governed (USDT-like) jetton, an NFT auction, a sale
 * that is bought, vesting messages, a failed jetton transfer, a DNS renewal, a multisig wallet and the NFT
 * marketplace's deployer (README.md lists them).
 * Everything derives from the seed: the same seed gives the same keys and addresses.
 */
import { writeFile } from 'node:fs/promises';
import { Address, beginCell, Cell, contractAddress, internal, toNano } from '@ton/core';
import { compileAuctionContract, nftAuctionInit } from '../contracts/auction';
import { compileDeployerContract, nftDeployerInit } from '../contracts/marketplace';
import { binaryBody, encryptedCommentBody, offchainContent, onchainContent, textCommentBody } from '../contracts/common';
import {
  compileDnsContracts,
  DNS_CATEGORY,
  dnsChangeRecordBody,
  dnsCollectionInit,
  dnsItemAddress,
  dnsRecordSet,
  dnsRegisterBody,
  type DnsCode,
} from '../contracts/dns';
import { createHighloadWalletV3 } from '../contracts/highload';
import {
  jettonBurnBody,
  jettonMintBody,
  jettonMinterInit,
  jettonTransferBody,
  jettonWalletAddress,
  type JettonMetadata,
} from '../contracts/jetton';
import { compileMultisigContracts, multisigInit, multisigOrderAddress } from '../contracts/multisig';
import { nftCollectionInit, nftItemAddress, nftMintBody, nftSaleInit, nftTransferBody, sbtItemCode } from '../contracts/nft';
import {
  compileStablecoinContracts,
  STABLECOIN_STATUS,
  stablecoinMintBody,
  stablecoinMinterInit,
  stablecoinSetStatusBody,
  stablecoinWalletAddress,
} from '../contracts/stablecoin';
import { vestingAddWhitelistBody, vestingInit, vestingSendBody } from '../contracts/vesting';
import { createWallet, type DevnetWallet, type StandardWalletKind } from '../contracts/wallets';
import { multisigApproveBody, multisigNewOrderBody, packMultisigOrder } from '../../ton/multisig';
import { canRunCode, chainNow, storageUsedOf, type ChainDriver } from './driver';
import { deriveKeyPair, seedBytes } from './keys';
import { WalletHandle } from './wallet-handle';

export interface GenesisAccount {
  name: string;
  kind: string;
  /** Raw form, as Address.toRawString() gives it ("0:abc…", lower-case hex). */
  address: string;
  friendly: { bounceable: string; nonBounceable: string };
  /** Wallets only: the 64-byte ed25519 secret key (seed ‖ public key) as @ton/crypto uses it, hex. */
  secret_key_hex?: string;
}

export interface GenesisOptions {
  seed: string;
  /** Friendly forms with the test-only flag (default false). */
  testOnly?: boolean;
}

/** The devnet's total supply: 100,000,000 TON, all of it on the faucet in the zero state. */
export const GENESIS_TOTAL_SUPPLY = 10n ** 17n;

/** What the faucet sends each wallet (nanoton); balances end slightly lower after the wallets' own sends. */
export const GENESIS_FUNDING: Readonly<Record<string, bigint>> = {
  admin: toNano('10000'),
  alice: toNano('10000'),
  bob: toNano('10000'),
  carol: toNano('1000'),
  wallet_v1r1: toNano('1000'),
  wallet_v1r2: toNano('1000'),
  wallet_v1r3: toNano('1000'),
  wallet_v2r1: toNano('1000'),
  wallet_v2r2: toNano('1000'),
  wallet_v3r1: toNano('1000'),
  wallet_v3r2: toNano('1000'),
  wallet_v4r2: toNano('1000'),
  wallet_v5beta: toNano('1000'),
  wallet_v5r1: toNano('1000'),
  master_wallet: toNano('1000'),
  highload: toNano('5000'),
};

/** Wallets the scenario creates: name → version (and workchain). */
export const GENESIS_WALLETS: readonly { name: string; kind: StandardWalletKind | 'highload_wallet_v3'; workchain: number }[] = [
  { name: 'admin', kind: 'wallet_v4r2', workchain: 0 },
  { name: 'alice', kind: 'wallet_v4r2', workchain: 0 },
  { name: 'bob', kind: 'wallet_v5r1', workchain: 0 },
  { name: 'carol', kind: 'wallet_v3r2', workchain: 0 },
  { name: 'wallet_v1r1', kind: 'wallet_v1r1', workchain: 0 },
  { name: 'wallet_v1r2', kind: 'wallet_v1r2', workchain: 0 },
  { name: 'wallet_v1r3', kind: 'wallet_v1r3', workchain: 0 },
  { name: 'wallet_v2r1', kind: 'wallet_v2r1', workchain: 0 },
  { name: 'wallet_v2r2', kind: 'wallet_v2r2', workchain: 0 },
  { name: 'wallet_v3r1', kind: 'wallet_v3r1', workchain: 0 },
  { name: 'wallet_v3r2', kind: 'wallet_v3r2', workchain: 0 },
  { name: 'wallet_v4r2', kind: 'wallet_v4r2', workchain: 0 },
  { name: 'wallet_v5beta', kind: 'wallet_v5beta', workchain: 0 },
  { name: 'wallet_v5r1', kind: 'wallet_v5r1', workchain: 0 },
  { name: 'master_wallet', kind: 'wallet_v4r2', workchain: -1 },
  { name: 'highload', kind: 'highload_wallet_v3', workchain: 0 },
];

/** The jetton of the devnet (all metadata on-chain). */
export const GENESIS_JETTON: JettonMetadata = {
  name: 'Atlas Devnet Token',
  symbol: 'ATLAS',
  decimals: 9,
  description: 'A jetton minted at genesis of the Atlas devnet — für Tests, テスト用 🧪',
  image: 'https://atlas.devnet/static/atlas-token.png',
};

const UNIT = 10n ** 9n; // one whole token at 9 decimals

/** Jetton amounts of the scenario (base units). */
export const GENESIS_JETTON_AMOUNTS = {
  mintAlice: 1_000_000n * UNIT,
  mintBob: 500_000n * UNIT,
  aliceToCarol: 12_345n * UNIT,
  bobToAlice: 2_500n * UNIT,
  bobBurn: 1_000n * UNIT,
} as const;

/** Texts the scenario sends (tests look for them). */
export const GENESIS_TEXTS = {
  unicode: 'Hello Bob 👋 — 你好，世界！こんにちは 🌏 Привет ✨',
  long: Array.from({ length: 12 }, (_, i) => `Line ${i + 1}: the quick brown fox jumps over the lazy dog — 速い茶色の狐 🦊.`).join('\n'),
  jettonToCarol: 'Thanks for the coffee ☕',
  jettonToAlice: 'Invoice #42 — paid ✅',
  nftGift: 'A gift for you 🎁',
  /** The forward comment of carol's ATLAS transfer of more than she holds (it fails on her jetton wallet). */
  jettonOverdraft: 'More than I have 💸',
  /** alice → bob in the governed jetton. */
  stablecoinToBob: 'Rent for December 🏠',
  /** The comment of the message alice has her vesting wallet send bob. */
  vestingSend: 'Paid from the vesting wallet 🔓',
} as const;

/** The query ids that mark single genesis messages (an e2e finds the transaction by them). */
export const GENESIS_QUERY_IDS = {
  /** carol's failing ATLAS transfer (jetton_transfer, success false; carol_jetton's transaction aborts). */
  jettonOverdraft: 706n,
  vestingSend: 31n,
  vestingWhitelist: 32n,
  /** alice's DNS renewal of alice.ton (change_dns_record with key 0 and no value). */
  dnsRenew: 81n,
  /** alice's multisig order 0 (new_order), bob's approval of it, the admin's order 1. */
  multisigCreate: 91n,
  multisigApprove: 92n,
  multisigPropose: 93n,
} as const;

/** The second jetton: TEP-64 off-chain content, nothing but this URI on chain (nothing fetches it offline). */
export const GENESIS_OFFCHAIN_JETTON_URI = 'https://atlas.devnet/jettons/ofc.json';

/** The governed ("stablecoin") jetton: a USDT-like minter with a metadata URI and 6 decimals. */
export const GENESIS_STABLECOIN = { uri: 'https://atlas.devnet/jettons/usdt.json', decimals: 6 } as const;

const MICRO = 10n ** 6n; // one whole token at 6 decimals

/** Amounts of the off-chain and governed jettons (base units). */
export const GENESIS_JETTON2_AMOUNTS = {
  offchainMintAlice: 250_000n * UNIT,
  stableMintAlice: 5_000_000n * MICRO,
  stableMintBob: 2_000_000n * MICRO,
  stableAliceToBob: 1_234_500_000n, // 1,234.5
  stableBobToCarol: 100n * MICRO,
  /** What carol tries to send of the ATLAS she holds (GENESIS_JETTON_AMOUNTS.aliceToCarol): far more. */
  atlasOverdraft: 1_000_000n * UNIT,
} as const;

/** The auction of nft_item_3 (bob's): still open at the end of genesis, alice's bid leading carol's. */
export const GENESIS_AUCTION = {
  minBid: toNano('1'),
  maxBid: toNano('100'),
  minStep: 10,
  duration: 30 * 86_400,
  bids: [
    { bidder: 'carol', amount: toNano('2') },
    { bidder: 'alice', amount: toNano('3') },
  ],
} as const;

/** The fixed-price sale of nft_item_4 (carol's) that bob buys at genesis. */
export const GENESIS_SOLD_SALE = { price: toNano('5'), marketplaceFee: toNano('0.25'), royalty: toNano('0.25') } as const;

/**
 * The multisig v2 wallet: alice, bob and carol sign (indexes 0, 1, 2), the admin proposes, two approvals
 * execute. Order 0 (alice's, approved by bob) pays wallet_v4r2 and sends carol ATLAS the multisig holds;
 * order 1 (the admin's, approved by carol only) stays pending.
 */
export const GENESIS_MULTISIG = {
  threshold: 2,
  signers: ['alice', 'bob', 'carol'],
  proposers: ['admin'],
  funding: toNano('50'),
  /** ATLAS bob sends the multisig before order 0. */
  atlasIn: 5_000n * UNIT,
  payment: { to: 'wallet_v4r2', value: toNano('5'), comment: 'Paid by the multisig 🔐' },
  atlasToCarol: 1_500n * UNIT,
  pending: { to: 'carol', value: toNano('2'), comment: 'Waiting for a second approval ⏳' },
  /**
   * When both orders expire (2033-05-18): a fixed date, since a seeded devnet runs its genesis at
   * SEEDED_GENESIS_TIME (2024) and then follows the wall clock, and the pending order must stay open.
   */
  expiresAt: 2_000_000_000,
} as const;

/** Fixed times stored in contract data (they are part of addresses, so they cannot follow the clock). */
const SALE_CREATED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z
const VESTING_START = 1_767_225_600;
const DAY = 86_400;

/** Storage fee the frozen account owes at its first transaction: between freeze (0.1 TON) and delete (1 TON) limits. */
const FROZEN_TARGET_DUE = toNano('0.4');

/** Basechain storage prices of the sandbox's default config (param 18): per bit and per cell, per 65536 s. */
const BIT_PRICE_PS = 1n;
const CELL_PRICE_PS = 500n;

function describe(name: string, kind: string, address: Address, testOnly: boolean, secretKey?: Buffer): GenesisAccount {
  return {
    name,
    kind,
    address: address.toRawString(),
    friendly: {
      bounceable: address.toString({ bounceable: true, urlSafe: true, testOnly }),
      nonBounceable: address.toString({ bounceable: false, urlSafe: true, testOnly }),
    },
    ...(secretKey ? { secret_key_hex: secretKey.toString('hex') } : {}),
  };
}

/** The contract behind a wallet entry of {@link GENESIS_WALLETS} (or the faucet, a v4r2 wallet). */
export function genesisWalletContract(kind: StandardWalletKind | 'highload_wallet_v3', publicKey: Buffer, workchain: number): DevnetWallet {
  return kind === 'highload_wallet_v3' ? createHighloadWalletV3(publicKey, { workchain }) : createWallet(kind, publicKey, { workchain });
}

/**
 * Run the genesis scenario on `driver`'s chain and return every named account. Call it once, on a fresh
 * chain: the faucet and the frozen account are created with setGenesisAccount, the rest by transactions.
 */
export async function runGenesis(driver: ChainDriver, options: GenesisOptions): Promise<GenesisAccount[]> {
  const { seed } = options;
  const testOnly = options.testOnly ?? false;
  const accounts: GenesisAccount[] = [];
  const add = (name: string, kind: string, address: Address, secretKey?: Buffer) => {
    accounts.push(describe(name, kind, address, testOnly, secretKey));
  };
  const dnsCodePromise = compileDnsContracts();
  const stablecoinCodePromise = compileStablecoinContracts();
  const auctionCodePromise = compileAuctionContract();
  const multisigCodePromise = compileMultisigContracts();
  const deployerCodePromise = compileDeployerContract();

  // ---- Zero state: the faucet with the whole supply, and an account that owes storage fees ----------
  const faucetKeys = deriveKeyPair(seed, 'faucet');
  const faucet = new WalletHandle('faucet', createWallet('wallet_v4r2', faucetKeys.publicKey), faucetKeys.secretKey, { deployed: true });
  await driver.setGenesisAccount(faucet.address, { ...faucet.wallet.init, balance: GENESIS_TOTAL_SUPPLY });
  add('faucet', 'faucet', faucet.address, faucetKeys.secretKey);

  // A contract with a 0 balance whose storage was last paid long ago: its first transaction freezes it.
  // Its address is that of its (small) initial state while its current data is large, as for a contract
  // that grew its storage: a frozen account whose state hash equals its address would be serialized as
  // account_uninit, so the state must differ from the initial one for the account to show as frozen.
  const frozenCode = createWallet('wallet_v3r2', deriveKeyPair(seed, 'frozen').publicKey).init.code;
  const frozenInitialData = beginCell().storeBuffer(seedBytes(seed, 'frozen:data:0')).endCell();
  let frozenData = frozenInitialData;
  for (let i = 1; i < 32; i++) {
    // 127-byte cells: enough storage that the fee reaches the target within a few years of "last paid".
    frozenData = beginCell().storeBuffer(Buffer.concat([seedBytes(seed, `frozen:data:${i}`), Buffer.alloc(95, i)])).storeRef(frozenData).endCell();
  }
  const frozenInit = { code: frozenCode, data: frozenData };
  const frozenAddress = contractAddress(0, { code: frozenCode, data: frozenInitialData });
  const used = storageUsedOf(frozenCode, frozenData);
  const perPeriod = used.bits * BIT_PRICE_PS + used.cells * CELL_PRICE_PS; // nanoton per 65536 s
  const owedSeconds = Number((FROZEN_TARGET_DUE * 65536n) / perPeriod);
  await driver.setGenesisAccount(frozenAddress, { ...frozenInit, balance: 0n, lastPaid: Math.max(0, chainNow(driver.blockchain) - owedSeconds) });
  add('frozen', 'frozen', frozenAddress);

  // ---- Wallets: funded by the faucet (non-bounceable, they are not deployed yet), then deployed -------
  const wallets = new Map<string, WalletHandle>();
  for (const w of GENESIS_WALLETS) {
    const keys = deriveKeyPair(seed, w.name);
    const handle = new WalletHandle(w.name, genesisWalletContract(w.kind, keys.publicKey, w.workchain), keys.secretKey);
    wallets.set(w.name, handle);
    add(w.name, w.kind, handle.address, keys.secretKey);
  }
  const W = (name: string): WalletHandle => {
    const h = wallets.get(name);
    if (!h) throw new Error(`no wallet ${name}`);
    return h;
  };
  const uninitAddress = createWallet('wallet_v4r2', deriveKeyPair(seed, 'uninit_receiver').publicKey).address;
  const bounceTarget = createWallet('wallet_v4r2', deriveKeyPair(seed, 'bounce_target').publicKey).address;
  add('uninit_receiver', 'uninit', uninitAddress);
  add('bounce_target', 'nonexist', bounceTarget);

  const funding = GENESIS_WALLETS.map((w) => ({ to: W(w.name).address, value: GENESIS_FUNDING[w.name], bounce: false }));
  funding.push({ to: uninitAddress, value: toNano('7'), bounce: false }); // stays uninit: nobody deploys it
  for (let i = 0; i < funding.length; i += 4) {
    await faucet.send(driver, funding.slice(i, i + 4));
  }
  // Sending anything to the frozen account runs its storage phase: 0.01 TON in, ~0.4 TON owed → frozen.
  await faucet.send(driver, [{ to: frozenAddress, value: toNano('0.01'), bounce: false, body: textCommentBody('wake up') }]);

  // Each wallet deploys itself with its first external: a small transfer with a comment (alice first,
  // since the others greet her with bounceable messages).
  await W('alice').send(driver, [{ to: faucet.address, value: toNano('1'), bounce: true, body: textCommentBody('alice is here') }]);
  for (const w of GENESIS_WALLETS) {
    if (w.name === 'alice' || w.name === 'highload') continue;
    if (!canRunCode(driver, W(w.name).wallet.init.code)) continue; // v5beta: deployed by twins() instead
    await W(w.name).send(driver, [{ to: W('alice').address, value: toNano('0.5'), bounce: true, body: textCommentBody(`hello from ${w.name}`) }]);
  }
  // The highload wallet deploys with a batch of three transfers.
  await W('highload').send(driver, [
    { to: W('wallet_v1r1').address, value: toNano('2'), bounce: true, body: textCommentBody('payout #1') },
    { to: W('wallet_v2r1').address, value: toNano('2'), bounce: true, body: textCommentBody('payout #2') },
    { to: W('wallet_v3r1').address, value: toNano('2'), bounce: true },
  ]);
  await W('highload').send(driver, [{ to: W('carol').address, value: toNano('3'), bounce: true, body: textCommentBody('single payout') }]);

  // ---- Comments and edge cases ---------------------------------------------------------------------
  await W('alice').send(driver, [
    { to: W('bob').address, value: toNano('1.5'), bounce: true, body: textCommentBody(GENESIS_TEXTS.unicode) },
    { to: W('bob').address, value: toNano('0.2'), bounce: true, body: encryptedCommentBody(Buffer.concat([seedBytes(seed, 'enc:0'), seedBytes(seed, 'enc:1')])) },
  ]);
  await W('bob').send(driver, [{ to: W('carol').address, value: toNano('0.3'), bounce: true, body: textCommentBody(GENESIS_TEXTS.long) }]);
  await W('carol').send(driver, [
    { to: W('wallet_v3r1').address, value: toNano('0.1'), bounce: true, body: binaryBody(0xdeadbeef, Buffer.concat([seedBytes(seed, 'bin:0'), seedBytes(seed, 'bin:1')])) },
  ]);
  // Bounceable transfer to an account that does not exist: it bounces back to carol.
  await W('carol').send(driver, [{ to: bounceTarget, value: toNano('2'), bounce: true, body: textCommentBody('are you there?') }]);

  // ---- Jetton --------------------------------------------------------------------------------------
  const admin = W('admin');
  const minter = jettonMinterInit(admin.address, GENESIS_JETTON);
  add('jetton_minter', 'jetton_minter', minter.address);
  const aliceJw = jettonWalletAddress(minter.address, W('alice').address);
  const bobJw = jettonWalletAddress(minter.address, W('bob').address);
  const carolJw = jettonWalletAddress(minter.address, W('carol').address);
  add('alice_jetton', 'jetton_wallet', aliceJw);
  add('bob_jetton', 'jetton_wallet', bobJw);
  add('carol_jetton', 'jetton_wallet', carolJw);
  const A = GENESIS_JETTON_AMOUNTS;
  await admin.send(driver, [
    {
      to: minter.address,
      value: toNano('0.25'),
      bounce: false,
      init: minter.init,
      body: jettonMintBody({ to: W('alice').address, amount: A.mintAlice, tonToWallet: toNano('0.1'), minter: minter.address, responseAddress: admin.address }),
    },
  ]);
  await admin.send(driver, [
    {
      to: minter.address,
      value: toNano('0.25'),
      bounce: true,
      body: jettonMintBody({ to: W('bob').address, amount: A.mintBob, tonToWallet: toNano('0.1'), minter: minter.address, responseAddress: admin.address, queryId: 1n }),
    },
  ]);
  await W('alice').send(driver, [
    {
      to: aliceJw,
      value: toNano('0.2'),
      bounce: true,
      body: jettonTransferBody({
        amount: A.aliceToCarol,
        destination: W('carol').address,
        responseDestination: W('alice').address,
        forwardTonAmount: toNano('0.01'),
        forwardPayload: textCommentBody(GENESIS_TEXTS.jettonToCarol),
        queryId: 7n,
      }),
    },
  ]);
  await W('bob').send(driver, [
    {
      to: bobJw,
      value: toNano('0.2'),
      bounce: true,
      body: jettonTransferBody({
        amount: A.bobToAlice,
        destination: W('alice').address,
        responseDestination: W('bob').address,
        forwardTonAmount: toNano('0.02'),
        forwardPayload: textCommentBody(GENESIS_TEXTS.jettonToAlice),
        queryId: 8n,
      }),
    },
  ]);
  await W('bob').send(driver, [
    { to: bobJw, value: toNano('0.1'), bounce: true, body: jettonBurnBody({ amount: A.bobBurn, responseDestination: W('bob').address, queryId: 9n }) },
  ]);
  // An op the minter does not know: the compute phase aborts (exit 0xffff) and the message bounces.
  await admin.send(driver, [
    { to: minter.address, value: toNano('0.1'), bounce: true, body: beginCell().storeUint(0x0badc0de, 32).storeUint(0, 64).endCell() },
  ]);

  // ---- NFT collection, items, a transfer and a sale ------------------------------------------------
  const collection = nftCollectionInit({
    owner: admin.address,
    collectionContent: onchainContent({
      name: 'Atlas Devnet Cards',
      description: 'NFTs minted at genesis of the Atlas devnet',
      image: 'https://atlas.devnet/static/cards.png',
    }),
    commonContent: 'https://atlas.devnet/nft/',
    royalty: { numerator: 5, denominator: 100, recipient: admin.address },
  });
  add('nft_collection', 'nft_collection', collection.address);
  const items = [0, 1, 2].map((i) => nftItemAddress(collection.address, i));
  items.forEach((a, i) => add(`nft_item_${i}`, 'nft_item', a));
  const itemOwners = [W('alice'), W('alice'), W('bob')];
  await admin.send(driver, [
    {
      to: collection.address,
      value: toNano('0.2'),
      bounce: false,
      init: collection.init,
      body: nftMintBody({ index: 0, owner: itemOwners[0].address, individualContent: '0.json', itemValue: toNano('0.05') }),
    },
  ]);
  await admin.send(driver, [
    { to: collection.address, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 1, owner: itemOwners[1].address, individualContent: '1.json', itemValue: toNano('0.05'), queryId: 1n }) },
    { to: collection.address, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 2, owner: itemOwners[2].address, individualContent: '2.json', itemValue: toNano('0.05'), queryId: 2n }) },
  ]);
  await W('alice').send(driver, [
    {
      to: items[0],
      value: toNano('0.1'),
      bounce: true,
      body: nftTransferBody({ newOwner: W('carol').address, responseDestination: W('alice').address, forwardAmount: toNano('0.01'), forwardPayload: textCommentBody(GENESIS_TEXTS.nftGift) }),
    },
  ]);
  const sale = nftSaleInit({
    marketplace: W('alice').address,
    nft: items[1],
    fullPrice: toNano('100'),
    marketplaceFeeTo: admin.address,
    marketplaceFee: toNano('2.5'),
    royaltyTo: admin.address,
    royalty: toNano('5'),
    createdAt: SALE_CREATED_AT,
  });
  add('nft_sale', 'nft_sale', sale.address);
  await W('alice').send(driver, [{ to: sale.address, value: toNano('0.1'), bounce: false, init: sale.init }]);
  await W('alice').send(driver, [
    {
      to: items[1],
      value: toNano('0.2'),
      bounce: true,
      body: nftTransferBody({ newOwner: sale.address, responseDestination: W('alice').address, forwardAmount: toNano('0.05') }),
    },
  ]);

  // ---- DNS: the .ton collection and two names -------------------------------------------------------
  const dnsCode = await dnsCodePromise;
  const dns = dnsCollectionInit(dnsCode, {
    admin: admin.address,
    content: onchainContent({ name: 'TON DNS (devnet)', description: '.ton domains of the Atlas devnet', image: 'https://atlas.devnet/static/dns.png' }),
  });
  add('dns_collection', 'dns_collection', dns.address);
  const aliceTon = dnsItemAddress(dnsCode, dns.address, 'alice');
  const atlasTon = dnsItemAddress(dnsCode, dns.address, 'atlas');
  add('alice.ton', 'dns_item', aliceTon);
  add('atlas.ton', 'dns_item', atlasTon);
  const domainContent = (domain: string) => onchainContent({ name: domain, description: `${domain} on the Atlas devnet`, domain });
  await admin.send(driver, [
    {
      to: dns.address,
      value: toNano('0.3'),
      bounce: false,
      init: dns.init,
      body: dnsRegisterBody({
        label: 'alice',
        owner: W('alice').address,
        content: domainContent('alice.ton'),
        records: dnsRecordSet([
          { category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: W('alice').address } },
          { category: DNS_CATEGORY.site, record: { type: 'adnl_address', adnl: seedBytes(seed, 'adnl:alice') } },
          { category: DNS_CATEGORY.nextResolver, record: { type: 'next_resolver', address: aliceTon } },
        ]),
      }),
    },
  ]);
  await admin.send(driver, [
    {
      to: dns.address,
      value: toNano('0.3'),
      bounce: true,
      body: dnsRegisterBody({
        label: 'atlas',
        owner: admin.address,
        content: domainContent('atlas.ton'),
        records: dnsRecordSet([
          { category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: admin.address } },
          { category: DNS_CATEGORY.site, record: { type: 'storage_address', bagId: seedBytes(seed, 'bag:atlas') } },
          { category: DNS_CATEGORY.nextResolver, record: { type: 'next_resolver', address: atlasTon } },
        ]),
        queryId: 1n,
      }),
    },
  ]);
  // alice points her name's wallet record at her v5r1 wallet.
  await W('alice').send(driver, [
    {
      to: aliceTon,
      value: toNano('0.05'),
      bounce: true,
      body: dnsChangeRecordBody({ category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: W('wallet_v5r1').address } }),
    },
  ]);

  // ---- A soulbound badge (TEP-85): bob's, revocable by the admin --------------------------------------
  const badges = nftCollectionInit({
    owner: admin.address,
    collectionContent: onchainContent({ name: 'Atlas Devnet Badges', description: 'Soulbound badges of the Atlas devnet' }),
    commonContent: 'https://atlas.devnet/sbt/',
    itemCode: sbtItemCode(),
  });
  add('sbt_collection', 'nft_collection', badges.address);
  add('sbt_item_0', 'sbt_item', nftItemAddress(badges.address, 0, sbtItemCode()));
  await admin.send(driver, [
    {
      to: badges.address,
      value: toNano('0.2'),
      bounce: false,
      init: badges.init,
      body: nftMintBody({ index: 0, owner: W('bob').address, individualContent: 'badge-0.json', itemValue: toNano('0.05'), authority: admin.address }),
    },
  ]);
  // A badge cannot be given away: bob's transfer request aborts on the item and bounces back to him.
  await W('bob').send(driver, [
    {
      to: nftItemAddress(badges.address, 0, sbtItemCode()),
      value: toNano('0.05'),
      bounce: true,
      body: nftTransferBody({ newOwner: W('alice').address, responseDestination: W('bob').address, queryId: 85n }),
    },
  ]);

  // ---- Vesting ---------------------------------------------------------------------------------------
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
  add('vesting', 'vesting', vesting.address, vestingKeys.secretKey);
  await admin.send(driver, [{ to: vesting.address, value: toNano('1000.5'), bounce: false, init: vesting.init }]);

  // ---- A cross-workchain transfer from the masterchain wallet -----------------------------------------
  await W('master_wallet').send(driver, [{ to: W('bob').address, value: toNano('1'), bounce: true, body: textCommentBody('from the masterchain') }]);

  // ======== Added after the original scenario (earlier steps keep their addresses and results) ========

  // ---- A second jetton with off-chain (TEP-64 offchain#01) content: only the URI is on chain ---------
  const ofcMinter = jettonMinterInit(admin.address, offchainContent(GENESIS_OFFCHAIN_JETTON_URI));
  add('ofc_jetton_minter', 'jetton_minter', ofcMinter.address);
  const aliceOfc = jettonWalletAddress(ofcMinter.address, W('alice').address);
  add('alice_ofc_jetton', 'jetton_wallet', aliceOfc);
  const J2 = GENESIS_JETTON2_AMOUNTS;
  await admin.send(driver, [
    {
      to: ofcMinter.address,
      value: toNano('0.25'),
      bounce: false,
      init: ofcMinter.init,
      body: jettonMintBody({ to: W('alice').address, amount: J2.offchainMintAlice, tonToWallet: toNano('0.1'), minter: ofcMinter.address, responseAddress: admin.address }),
    },
  ]);

  // ---- The governed ("stablecoin") jetton: mints, a transfer, a locked wallet -------------------------
  const stableCode = await stablecoinCodePromise;
  const stable = stablecoinMinterInit(stableCode, { admin: admin.address, metadataUri: GENESIS_STABLECOIN.uri });
  add('stablecoin_minter', 'jetton_minter', stable.address);
  const stableWallet = (owner: string) => stablecoinWalletAddress(stableCode, stable.address, W(owner).address);
  add('alice_stablecoin', 'jetton_wallet', stableWallet('alice'));
  add('bob_stablecoin', 'jetton_wallet', stableWallet('bob'));
  add('carol_stablecoin', 'jetton_wallet', stableWallet('carol'));
  await admin.send(driver, [
    {
      to: stable.address,
      value: toNano('0.25'),
      bounce: false,
      init: stable.init,
      body: stablecoinMintBody({ to: W('alice').address, amount: J2.stableMintAlice, tonToWallet: toNano('0.1'), minter: stable.address, responseAddress: admin.address }),
    },
  ]);
  await admin.send(driver, [
    {
      to: stable.address,
      value: toNano('0.25'),
      bounce: true,
      body: stablecoinMintBody({ to: W('bob').address, amount: J2.stableMintBob, tonToWallet: toNano('0.1'), minter: stable.address, responseAddress: admin.address, queryId: 1n }),
    },
  ]);
  await W('alice').send(driver, [
    {
      to: stableWallet('alice'),
      value: toNano('0.2'),
      bounce: true,
      body: jettonTransferBody({
        amount: J2.stableAliceToBob,
        destination: W('bob').address,
        responseDestination: W('alice').address,
        forwardTonAmount: toNano('0.01'),
        forwardPayload: textCommentBody(GENESIS_TEXTS.stablecoinToBob),
        queryId: 11n,
      }),
    },
  ]);
  await W('bob').send(driver, [
    {
      to: stableWallet('bob'),
      value: toNano('0.2'),
      bounce: true,
      body: jettonTransferBody({ amount: J2.stableBobToCarol, destination: W('carol').address, responseDestination: W('bob').address, queryId: 12n }),
    },
  ]);
  // The admin locks carol's wallet (get_status 3): it can neither send nor receive any more.
  await admin.send(driver, [
    { to: stable.address, value: toNano('0.1'), bounce: true, body: stablecoinSetStatusBody({ owner: W('carol').address, status: STABLECOIN_STATUS.locked, tonAmount: toNano('0.05'), queryId: 13n }) },
  ]);

  // ---- Two more cards: one goes on auction, one is sold at a fixed price and bought ----------------------
  const item3 = nftItemAddress(collection.address, 3);
  const item4 = nftItemAddress(collection.address, 4);
  add('nft_item_3', 'nft_item', item3);
  add('nft_item_4', 'nft_item', item4);
  await admin.send(driver, [
    { to: collection.address, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 3, owner: W('bob').address, individualContent: '3.json', itemValue: toNano('0.05'), queryId: 3n }) },
    { to: collection.address, value: toNano('0.1'), bounce: true, body: nftMintBody({ index: 4, owner: W('carol').address, individualContent: '4.json', itemValue: toNano('0.05'), queryId: 4n }) },
  ]);
  const auction = nftAuctionInit(await auctionCodePromise, {
    marketplace: admin.address,
    nft: item3,
    createdAt: SALE_CREATED_AT,
    duration: GENESIS_AUCTION.duration,
    minBid: GENESIS_AUCTION.minBid,
    maxBid: GENESIS_AUCTION.maxBid,
    minStep: GENESIS_AUCTION.minStep,
    marketplaceFee: { address: admin.address, factor: 5, base: 100 },
    royalty: { address: admin.address, factor: 5, base: 100 },
  });
  add('nft_auction', 'nft_auction', auction.address);
  await W('bob').send(driver, [{ to: auction.address, value: toNano('0.1'), bounce: false, init: auction.init }]);
  await W('bob').send(driver, [
    { to: item3, value: toNano('0.2'), bounce: true, body: nftTransferBody({ newOwner: auction.address, responseDestination: W('bob').address, forwardAmount: toNano('0.05') }) },
  ]);
  for (const bid of GENESIS_AUCTION.bids) {
    await W(bid.bidder).send(driver, [{ to: auction.address, value: bid.amount, bounce: true }]);
  }
  const soldSale = nftSaleInit({
    marketplace: admin.address,
    nft: item4,
    fullPrice: GENESIS_SOLD_SALE.price,
    marketplaceFeeTo: admin.address,
    marketplaceFee: GENESIS_SOLD_SALE.marketplaceFee,
    royaltyTo: admin.address,
    royalty: GENESIS_SOLD_SALE.royalty,
    createdAt: SALE_CREATED_AT + 1,
  });
  add('nft_sale_sold', 'nft_sale', soldSale.address);
  // The marketplace deploys the sale (the sale contract takes its deployment from the marketplace only).
  await admin.send(driver, [{ to: soldSale.address, value: toNano('0.1'), bounce: false, init: soldSale.init }]);
  await W('carol').send(driver, [
    { to: item4, value: toNano('0.2'), bounce: true, body: nftTransferBody({ newOwner: soldSale.address, responseDestination: W('carol').address, forwardAmount: toNano('0.05') }) },
  ]);
  // bob buys it: the price plus the sale's gas allowance; the sale hands the item over and pays out.
  await W('bob').send(driver, [{ to: soldSale.address, value: GENESIS_SOLD_SALE.price + toNano('1'), bounce: true }]);

  // ---- Vesting: the sender whitelists carol; the owner has the wallet send bob a comment out of its
  // unlocked part (to a whitelisted address the contract would take only staking messages).
  await admin.send(driver, [
    { to: vesting.address, value: toNano('0.1'), bounce: true, body: vestingAddWhitelistBody({ addresses: [W('carol').address], queryId: GENESIS_QUERY_IDS.vestingWhitelist }) },
  ]);
  await W('alice').send(driver, [
    {
      to: vesting.address,
      value: toNano('0.1'),
      bounce: true,
      body: vestingSendBody({
        queryId: GENESIS_QUERY_IDS.vestingSend,
        message: internal({ to: W('bob').address, value: toNano('0.2'), bounce: true, body: textCommentBody(GENESIS_TEXTS.vestingSend) }),
      }),
    },
  ]);

  // ---- A failed jetton transfer: carol asks for more ATLAS than she holds; her wallet aborts and the
  // request bounces back to her.
  await W('carol').send(driver, [
    {
      to: carolJw,
      value: toNano('0.2'),
      bounce: true,
      body: jettonTransferBody({
        amount: J2.atlasOverdraft,
        destination: W('bob').address,
        responseDestination: W('carol').address,
        forwardTonAmount: toNano('0.01'),
        forwardPayload: textCommentBody(GENESIS_TEXTS.jettonOverdraft),
        queryId: GENESIS_QUERY_IDS.jettonOverdraft,
      }),
    },
  ]);

  // ---- DNS renewal: the owner's change_dns_record with key 0 and no value (what dns.ton.org's "renew"
  // sends: it changes no record, the item only sees its owner).
  await W('alice').send(driver, [
    { to: aliceTon, value: toNano('0.05'), bounce: true, body: dnsChangeRecordBody({ category: 0n, record: null, queryId: GENESIS_QUERY_IDS.dnsRenew }) },
  ]);

  // ---- Multisig v2: deployed by the faucet; alice's order executes on bob's approval, the admin's order
  // waits with carol's approval only.
  const M = GENESIS_MULTISIG;
  const multisigCode = await multisigCodePromise;
  const ms = multisigInit(multisigCode, { threshold: M.threshold, signers: M.signers.map((n) => W(n).address), proposers: M.proposers.map((n) => W(n).address) });
  const msJetton = jettonWalletAddress(minter.address, ms.address);
  const order0 = multisigOrderAddress(multisigCode, ms.address, 0n);
  const order1 = multisigOrderAddress(multisigCode, ms.address, 1n);
  add('multisig', 'multisig_v2', ms.address);
  add('multisig_jetton', 'jetton_wallet', msJetton);
  add('multisig_order_0', 'multisig_order_v2', order0);
  add('multisig_order_1', 'multisig_order_v2', order1);
  await faucet.send(driver, [{ to: ms.address, value: M.funding, bounce: false, init: ms.init }]);
  await W('bob').send(driver, [
    { to: bobJw, value: toNano('0.2'), bounce: true, body: jettonTransferBody({ amount: M.atlasIn, destination: ms.address, responseDestination: W('bob').address, queryId: 90n }) },
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

  await twins({ driver, faucet, v5beta: W('wallet_v5beta'), admin, owner: W('bob'), dns: dns.address, dnsCode, seed, add, domainContent });

  // ---- The NFT marketplace: a GetGems-style deployer owned by the admin, that the background traffic
  // lists cards through (sales and auctions it then buys, bids on, cancels and finishes: traffic.ts).
  const deployer = nftDeployerInit(await deployerCodePromise, { owner: admin.address });
  add('nft_marketplace', 'nft_marketplace', deployer.address);
  await admin.send(driver, [{ to: deployer.address, value: toNano('1'), bounce: false, init: deployer.init }]);

  return accounts;
}

/** The label of `files.ton`, whose `storage` record names a TON Storage bag (bag id: seedBytes(seed, 'bag:files')). */
export const GENESIS_STORAGE_DOMAIN = 'files';

/**
 * Twins of what v2 clients meet on mainnet (the last steps, so every earlier address and result stays):
 * - wallet_v5beta deployed as mainnet's v5 beta wallets are, its code the library cell that references
 *   the v5 beta code in the masterchain's libraries. That library is not on the devnet (no package ships
 *   its code), so the wallet cannot run: it is deployed by an internal message carrying its state init,
 *   which the account keeps although the compute phase fails (exit 9), as a deployment does on TON. It
 *   holds v5 beta's code and data, which is what getWalletInformation reads (seqno 0, its wallet id).
 * - `files.ton`, bob's, whose one record is a `storage` one (getTokenData's `storage` entry).
 */
async function twins(t: {
  driver: ChainDriver;
  faucet: WalletHandle;
  v5beta: WalletHandle;
  admin: WalletHandle;
  owner: WalletHandle;
  dns: Address;
  dnsCode: DnsCode;
  seed: string;
  add: (name: string, kind: string, address: Address) => void;
  domainContent: (domain: string) => Cell;
}): Promise<void> {
  await t.faucet.send(t.driver, [{ to: t.v5beta.address, value: toNano('0.1'), bounce: false, init: t.v5beta.wallet.init }]);
  const domain = `${GENESIS_STORAGE_DOMAIN}.ton`;
  const item = dnsItemAddress(t.dnsCode, t.dns, GENESIS_STORAGE_DOMAIN);
  t.add(domain, 'dns_item', item);
  await t.admin.send(t.driver, [
    {
      to: t.dns,
      value: toNano('0.3'),
      bounce: true,
      body: dnsRegisterBody({
        label: GENESIS_STORAGE_DOMAIN,
        owner: t.owner.address,
        content: t.domainContent(domain),
        records: dnsRecordSet([{ category: DNS_CATEGORY.storage, record: { type: 'storage_address', bagId: seedBytes(t.seed, 'bag:files') } }]),
        queryId: 2n,
      }),
    },
  ]);
}

/** Write the account list as JSON (pretty, one file). */
export async function writeGenesisFile(path: string, accounts: GenesisAccount[]): Promise<void> {
  await writeFile(path, JSON.stringify(accounts, null, 2) + '\n', 'utf8');
}

/** The address of a named genesis account (throws when absent). */
export function genesisAddress(accounts: readonly GenesisAccount[], name: string): Address {
  const a = accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no genesis account ${name}`);
  return Address.parseRaw(a.address);
}

