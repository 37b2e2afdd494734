/**
 * What the traffic generator's actions (traffic-actions.ts) share: the chain, the seeded random source,
 * the counters, the genesis wallets it sends from, and what it knows of the chain's jetton balances and
 * NFT owners — read from the chain now and then (every REFRESH_STEPS steps: `forget()`) and kept up to
 * date locally in between, so a step costs few get-method runs.
 */
import { Address, Cell, toNano } from '@ton/core';
import { textCommentBody } from '../contracts/common';
import { createHighloadWalletV3 } from '../contracts/highload';
import { jettonWalletAddress } from '../contracts/jetton';
import { createWallet, WALLET_KINDS, type DevnetWallet, type StandardWalletKind } from '../contracts/wallets';
import { canRunCode, type ChainDriver } from './driver';
import type { GenesisAccount } from './genesis';
import { SeededRandom } from './keys';
import { WalletHandle, type OutgoingMessage } from './wallet-handle';

export interface TrafficOptions {
  seed: string;
  /** Messages (signed externals) per step; the producer calls step() once a second. Fractions accumulate. */
  tps: number;
}

export interface TrafficStats {
  steps: number;
  sent: number;
  rejected: number;
  byAction: Record<string, number>;
}

export type Action = 'ton' | 'ton_comment' | 'jetton' | 'jetton_mint' | 'jetton_burn' | 'nft' | 'market' | 'highload' | 'dns' | 'binary' | 'bounce' | 'abort';

const COMMENTS = [
  'lunch 🍜',
  'rent for March',
  'спасибо!',
  '谢谢你的帮助',
  'ありがとう 🙏',
  'gm ☀️',
  'refund #1187',
  '🎉🎉🎉',
  'Ünïcödé tëst — ok',
  'payment for invoice 2026-0042, see attached terms and conditions; thanks again for the quick delivery',
];

/** The contract of a genesis wallet (any kind the devnet deploys) from its secret key; null for other accounts. */
export function genesisWalletOf(account: GenesisAccount, secret: Buffer): DevnetWallet | null {
  const publicKey = secret.subarray(32);
  const address = Address.parseRaw(account.address);
  let wallet: DevnetWallet;
  if (account.kind === 'faucet') wallet = createWallet('wallet_v4r2', publicKey, { workchain: address.workChain });
  else if (account.kind === 'highload_wallet_v3') wallet = createHighloadWalletV3(publicKey, { workchain: address.workChain });
  else if ((WALLET_KINDS as readonly string[]).includes(account.kind)) {
    wallet = createWallet(account.kind as StandardWalletKind, publicKey, { workchain: address.workChain });
  } else return null;
  return wallet.address.equals(address) ? wallet : null;
}

export type JettonHoldings = Map<WalletHandle, { jw: Address; balance: bigint }>;

export class TrafficState {
  readonly bc: ChainDriver['blockchain'];
  readonly rng: SeededRandom;
  readonly stats: TrafficStats = { steps: 0, sent: 0, rejected: 0, byAction: {} };
  readonly minter: Address | null;
  readonly minterAdmin: GenesisAccount | null;
  readonly nftItems: Address[];
  readonly dnsItems: Address[];
  readonly marketplace: Address | null;
  faucet: WalletHandle | null = null;
  senders: WalletHandle[] = [];
  highload: WalletHandle | null = null;
  /** Counts the never-deployed addresses bounces go to. */
  freshCounter = 0;
  #jettonCache: JettonHoldings | null = null;
  #ownerCache: Map<string, WalletHandle | null> | null = null;

  constructor(
    readonly driver: ChainDriver,
    readonly accounts: GenesisAccount[],
    readonly options: TrafficOptions,
  ) {
    this.bc = driver.blockchain;
    this.rng = new SeededRandom(`traffic:${options.seed}`);
    this.minter = this.byKind('jetton_minter')[0] ?? null;
    this.minterAdmin = accounts.find((a) => a.name === 'admin') ?? null;
    this.nftItems = this.byKind('nft_item');
    this.dnsItems = this.byKind('dns_item');
    this.marketplace = this.byKind('nft_marketplace')[0] ?? null;
  }

  byKind(kind: string): Address[] {
    return this.accounts.filter((a) => a.kind === kind).map((a) => Address.parseRaw(a.address));
  }

  async isActive(address: Address): Promise<boolean> {
    return (await this.bc.getContract(address)).accountState?.type === 'active';
  }

  /** The genesis wallets that can send: the faucet, the highload wallet, and the rest sorted by name. */
  async init(): Promise<void> {
    for (const account of this.accounts) {
      if (!account.secret_key_hex) continue;
      const wallet = genesisWalletOf(account, Buffer.from(account.secret_key_hex, 'hex'));
      if (!wallet) continue;
      const handle = new WalletHandle(account.name, wallet, Buffer.from(account.secret_key_hex, 'hex'));
      // Not deployed, or deployed with code the chain cannot run (wallet_v5beta: a library it lacks).
      if (!(await this.isActive(handle.address)) || !canRunCode(this.driver, wallet.init.code)) continue;
      await handle.resync(this.bc);
      if (account.kind === 'faucet') this.faucet = handle;
      else if (handle.isHighload) this.highload = handle;
      else this.senders.push(handle);
    }
    this.senders = this.senders.sort((a, b) => a.name.localeCompare(b.name));
    if (this.senders.length < 2) throw new Error('traffic: fewer than two usable genesis wallets');
  }

  others(h: WalletHandle): WalletHandle[] {
    return this.senders.filter((x) => x !== h);
  }

  async balanceOf(address: Address): Promise<bigint> {
    return (await this.bc.getContract(address)).balance;
  }

  /** Send and account for it; on rejection resync the wallet's seqno. */
  async send(h: WalletHandle, messages: OutgoingMessage[], action: Action): Promise<boolean> {
    try {
      await h.send(this.driver, messages);
      this.stats.sent += 1;
      this.stats.byAction[action] = (this.stats.byAction[action] ?? 0) + 1;
      return true;
    } catch {
      this.stats.rejected += 1;
      await h.resync(this.bc).catch(() => undefined);
      return false;
    }
  }

  comment(): Cell {
    return textCommentBody(this.rng.pick(COMMENTS));
  }

  amount(minTon: number, maxTon: number): bigint {
    const milli = Math.round((minTon + this.rng.next() * (maxTon - minTon)) * 1000);
    return BigInt(milli) * 1_000_000n;
  }

  /** Read jetton balances and NFT owners from the chain again when next needed. */
  forget(what: { jettons?: boolean; owners?: boolean } = { jettons: true, owners: true }): void {
    if (what.jettons) this.#jettonCache = null;
    if (what.owners) this.#ownerCache = null;
  }

  /** Each sender's ATLAS wallet and balance. */
  async jettonHolders(): Promise<JettonHoldings> {
    if (this.#jettonCache) return this.#jettonCache;
    const cache: JettonHoldings = new Map();
    if (this.minter) {
      for (const h of this.senders) {
        const jw = jettonWalletAddress(this.minter, h.address);
        const balance = (await this.isActive(jw)) ? (await this.bc.runGetMethod(jw, 'get_wallet_data')).stackReader.readBigNumber() : 0n;
        cache.set(h, { jw, balance });
      }
    }
    this.#jettonCache = cache;
    return cache;
  }

  /** Each NFT and DNS item's owner among the senders (raw address → owner, null when not one of them). */
  async owners(): Promise<Map<string, WalletHandle | null>> {
    if (this.#ownerCache) return this.#ownerCache;
    const cache = new Map<string, WalletHandle | null>();
    for (const item of [...this.nftItems, ...this.dnsItems]) {
      let owner: WalletHandle | null = null;
      if (await this.isActive(item)) {
        const r = (await this.bc.runGetMethod(item, 'get_nft_data')).stackReader;
        r.skip(3);
        const o = r.readAddressOpt();
        owner = o ? (this.senders.find((h) => h.address.equals(o)) ?? null) : null;
      }
      cache.set(item.toRawString(), owner);
    }
    this.#ownerCache = cache;
    return cache;
  }
}

export const LOW_BALANCE = toNano('20');
export const TOP_UP = toNano('200');
