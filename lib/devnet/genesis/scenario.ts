/**
 * What the genesis scenario makes, as data: the accounts' shape, the wallets and their funding, the
 * jettons' metadata and amounts, the texts and query ids tests look for, the auction, sale and multisig
 * settings. The steps that use them are in steps-*.ts, their order in steps.ts.
 */
import { toNano } from '@ton/core';
import type { JettonMetadata } from '../contracts/jetton';
import type { StandardWalletKind } from '../contracts/wallets';

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


/** The label of `files.ton`, whose `storage` record names a TON Storage bag (bag id: seedBytes(seed, 'bag:files')). */
export const GENESIS_STORAGE_DOMAIN = 'files';
