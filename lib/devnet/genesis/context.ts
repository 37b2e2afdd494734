/**
 * What the genesis steps (steps.ts) share: the chain driver and seed, the named accounts found so far
 * (in the order they were found: the genesis file lists them so), the wallets the devnet signs for, the
 * Tolk contracts being compiled, and what an earlier step made that a later one uses.
 */
import type { Address } from '@ton/core';
import { compileAuctionContract } from '../contracts/auction';
import { compileDeployerContract } from '../contracts/marketplace';
import { compileDnsContracts } from '../contracts/dns';
import { compileMultisigContracts } from '../contracts/multisig';
import { compileStablecoinContracts } from '../contracts/stablecoin';
import type { ChainDriver } from './driver';
import type { GenesisAccount } from './scenario';
import type { WalletHandle } from './wallet-handle';

/** What a step made that a later step uses. */
export interface GenesisMade {
  faucet: WalletHandle;
  /** The account the zero state leaves owing storage fees, frozen by the first message to it. */
  frozen: Address;
  /** A never-deployed address carol's bounceable transfer bounces from. */
  bounceTarget: Address;
  /** The ATLAS jetton's minter and wallets (the multisig, the failed transfer and bob's sends use them). */
  atlasMinter: Address;
  bobAtlas: Address;
  carolAtlas: Address;
  nftCollection: Address;
  dnsCollection: Address;
  aliceTon: Address;
  vesting: Address;
}

export class GenesisContext {
  readonly accounts: GenesisAccount[] = [];
  readonly wallets = new Map<string, WalletHandle>();
  readonly #made: Partial<GenesisMade> = {};
  /** The Tolk contracts, compiled while the first steps run (once per process). */
  readonly code = {
    dns: compileDnsContracts(),
    stablecoin: compileStablecoinContracts(),
    auction: compileAuctionContract(),
    multisig: compileMultisigContracts(),
    deployer: compileDeployerContract(),
  };

  constructor(
    readonly driver: ChainDriver,
    readonly seed: string,
    readonly testOnly: boolean,
  ) {}

  /** Name an account (the genesis file lists them in this order). */
  readonly add = (name: string, kind: string, address: Address, secretKey?: Buffer): void => {
    this.accounts.push({
      name,
      kind,
      address: address.toRawString(),
      friendly: {
        bounceable: address.toString({ bounceable: true, urlSafe: true, testOnly: this.testOnly }),
        nonBounceable: address.toString({ bounceable: false, urlSafe: true, testOnly: this.testOnly }),
      },
      ...(secretKey ? { secret_key_hex: secretKey.toString('hex') } : {}),
    });
  };

  /** A wallet of GENESIS_WALLETS by name. */
  readonly W = (name: string): WalletHandle => {
    const h = this.wallets.get(name);
    if (!h) throw new Error(`no wallet ${name}`);
    return h;
  };

  get admin(): WalletHandle {
    return this.W('admin');
  }

  get faucet(): WalletHandle {
    return this.made('faucet');
  }

  remember<K extends keyof GenesisMade>(key: K, value: GenesisMade[K]): GenesisMade[K] {
    this.#made[key] = value;
    return value;
  }

  /** What an earlier step made (a step order that breaks this throws rather than going on without it). */
  made<K extends keyof GenesisMade>(key: K): GenesisMade[K] {
    const v = this.#made[key];
    if (v === undefined) throw new Error(`genesis: ${key} is made by a later step`);
    return v as GenesisMade[K];
  }
}
