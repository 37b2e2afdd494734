/**
 * Background activity for the devnet: each step() sends about `tps` signed externals from the genesis
 * wallets (TON transfers with and without comments, jetton transfers, now and then a mint by the jetton's
 * admin or a burn by a holder, NFT transfers, marketplace trades (traffic-market.ts: cards listed on
 * sales and auctions, bought, bid on, cancelled, finished), highload batches, DNS record edits, and now
 * and then a bounced or aborted message). Seqnos are tracked here; a rejected
 * external makes that wallet re-read its seqno from the chain. The timer calling step() is the producer's.
 */
import { Address, Cell, toNano } from '@ton/core';
import { textCommentBody } from '../contracts/common';
import { createHighloadWalletV3 } from '../contracts/highload';
import { jettonWalletAddress } from '../contracts/jetton';
import { createWallet, WALLET_KINDS, type DevnetWallet, type StandardWalletKind } from '../contracts/wallets';
import { canRunCode, type ChainDriver } from './driver';
import type { GenesisAccount } from './genesis';
import { SeededRandom } from './keys';
import {
  abortMessage,
  binaryMessage,
  bounceMessage,
  dnsWalletRecordMessage,
  jettonBurnMessage,
  jettonMintMessage,
  jettonTransferMessage,
  nftTransferMessage,
  nowhereAddress,
} from './traffic-messages';
import { WalletHandle, type OutgoingMessage } from './wallet-handle';
import { marketMove, type MarketMove } from './traffic-market';

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

export interface TrafficGenerator {
  /** Send this step's messages; resolves to how many externals the chain accepted. */
  step(): Promise<number>;
  /** One marketplace move now (`move` if the chain allows it, else a random allowed one): which, and whether it was sent. */
  market(move?: MarketMove): Promise<{ move: MarketMove | null; sent: boolean }>;
  readonly stats: TrafficStats;
}

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

type Action = 'ton' | 'ton_comment' | 'jetton' | 'jetton_mint' | 'jetton_burn' | 'nft' | 'market' | 'highload' | 'dns' | 'binary' | 'bounce' | 'abort';

/** Relative weights of the actions. */
const WEIGHTS: [Action, number][] = [
  ['ton', 25],
  ['ton_comment', 25],
  ['jetton', 15],
  ['jetton_mint', 2],
  ['jetton_burn', 2],
  ['nft', 10],
  ['market', 6],
  ['highload', 8],
  ['dns', 4],
  ['binary', 5],
  ['bounce', 4],
  ['abort', 4],
];

const LOW_BALANCE = toNano('20');
const REFRESH_STEPS = 30;
const TOP_UP = toNano('200');

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

export function createTrafficGenerator(driver: ChainDriver, accounts: GenesisAccount[], options: TrafficOptions): TrafficGenerator {
  const bc = driver.blockchain;
  const rng = new SeededRandom(`traffic:${options.seed}`);
  const stats: TrafficStats = { steps: 0, sent: 0, rejected: 0, byAction: {} };
  const byKind = (kind: string) => accounts.filter((a) => a.kind === kind).map((a) => Address.parseRaw(a.address));
  const minter = byKind('jetton_minter')[0] ?? null;
  const minterAdmin = accounts.find((a) => a.name === 'admin') ?? null;
  const nftItems = byKind('nft_item');
  const dnsItems = byKind('dns_item');
  let faucet: WalletHandle | null = null;
  let senders: WalletHandle[] = [];
  let highload: WalletHandle | null = null;
  let ready: Promise<void> | null = null;
  let carry = 0;
  let freshCounter = 0;

  const isActive = async (address: Address) => (await bc.getContract(address)).accountState?.type === 'active';

  async function init(): Promise<void> {
    for (const account of accounts) {
      if (!account.secret_key_hex) continue;
      const wallet = genesisWalletOf(account, Buffer.from(account.secret_key_hex, 'hex'));
      if (!wallet) continue;
      const handle = new WalletHandle(account.name, wallet, Buffer.from(account.secret_key_hex, 'hex'));
      // Not deployed, or deployed with code the chain cannot run (wallet_v5beta: a library it lacks).
      if (!(await isActive(handle.address)) || !canRunCode(driver, wallet.init.code)) continue;
      await handle.resync(bc);
      if (account.kind === 'faucet') faucet = handle;
      else if (handle.isHighload) highload = handle;
      else senders.push(handle);
    }
    senders = senders.sort((a, b) => a.name.localeCompare(b.name));
    if (senders.length < 2) throw new Error('traffic: fewer than two usable genesis wallets');
  }

  const others = (h: WalletHandle) => senders.filter((x) => x !== h);

  async function balanceOf(address: Address): Promise<bigint> {
    return (await bc.getContract(address)).balance;
  }

  /** Send and account for it; on rejection resync the wallet's seqno. */
  async function send(h: WalletHandle, messages: OutgoingMessage[], action: Action): Promise<boolean> {
    try {
      await h.send(driver, messages);
      stats.sent += 1;
      stats.byAction[action] = (stats.byAction[action] ?? 0) + 1;
      return true;
    } catch {
      stats.rejected += 1;
      await h.resync(bc).catch(() => undefined);
      return false;
    }
  }

  function comment(): Cell {
    return textCommentBody(rng.pick(COMMENTS));
  }

  function amount(minTon: number, maxTon: number): bigint {
    const milli = Math.round((minTon + rng.next() * (maxTon - minTon)) * 1000);
    return BigInt(milli) * 1_000_000n;
  }

  async function tonTransfer(withComment: boolean): Promise<boolean> {
    const from = rng.pick(senders);
    const to = rng.pick(others(from));
    const count = from.wallet.maxMessages > 1 && rng.next() < 0.2 ? 2 : 1;
    const msgs: OutgoingMessage[] = [];
    for (let i = 0; i < count; i++) {
      msgs.push({ to: (i === 0 ? to : rng.pick(others(from))).address, value: amount(0.01, 2), bounce: true, body: withComment ? comment() : undefined });
    }
    return send(from, msgs, withComment ? 'ton_comment' : 'ton');
  }

  // Jetton balances and NFT owners are read from the chain now and then (every REFRESH_STEPS steps) and
  // kept up to date locally in between, so a step costs few get-method runs.
  let jettonCache: Map<WalletHandle, { jw: Address; balance: bigint }> | null = null;
  let ownerCache: Map<string, WalletHandle | null> | null = null;

  async function jettonHolders(): Promise<Map<WalletHandle, { jw: Address; balance: bigint }>> {
    if (jettonCache) return jettonCache;
    const cache = new Map<WalletHandle, { jw: Address; balance: bigint }>();
    if (minter) {
      for (const h of senders) {
        const jw = jettonWalletAddress(minter, h.address);
        const balance = (await isActive(jw)) ? (await bc.runGetMethod(jw, 'get_wallet_data')).stackReader.readBigNumber() : 0n;
        cache.set(h, { jw, balance });
      }
    }
    jettonCache = cache;
    return cache;
  }

  async function jettonTransfer(): Promise<boolean> {
    const cache = await jettonHolders();
    const holders = [...cache.entries()].filter(([, v]) => v.balance > 0n);
    if (holders.length === 0) return tonTransfer(true);
    const [from, { jw, balance }] = rng.pick(holders);
    const to = rng.pick(others(from));
    let part = balance / BigInt(50 + rng.int(200));
    if (part === 0n) part = balance;
    const ok = await send(
      from,
      [
        jettonTransferMessage({
          jettonWallet: jw,
          from: from.address,
          to: to.address,
          amount: part,
          forwardTonAmount: rng.next() < 0.7 ? toNano('0.005') : 0n,
          forwardPayload: rng.next() < 0.7 ? comment() : null,
          queryId: BigInt(stats.sent),
        }),
      ],
      'jetton',
    );
    if (ok) {
      cache.get(from)!.balance -= part;
      const dest = cache.get(to);
      if (dest) dest.balance += part;
    }
    return ok;
  }

  /** The jetton's admin mints a little to a random wallet (the admin is the genesis wallet named `admin`). */
  async function jettonMint(): Promise<boolean> {
    const admin = minterAdmin ? senders.find((h) => h.address.equals(Address.parseRaw(minterAdmin.address))) : undefined;
    if (!minter || !admin) return tonTransfer(true);
    const to = rng.pick(others(admin));
    const part = BigInt(1 + rng.int(1000)) * 10n ** 9n;
    const ok = await send(admin, [jettonMintMessage({ minter, admin: admin.address, to: to.address, amount: part, queryId: BigInt(stats.sent) })], 'jetton_mint');
    const dest = ok ? (await jettonHolders()).get(to) : undefined;
    if (dest) dest.balance += part;
    return ok;
  }

  /** A holder burns a small part of its balance. */
  async function jettonBurn(): Promise<boolean> {
    const cache = await jettonHolders();
    const holders = [...cache.entries()].filter(([, v]) => v.balance > 0n);
    if (holders.length === 0) return tonTransfer(true);
    const [from, { jw, balance }] = rng.pick(holders);
    let part = balance / BigInt(100 + rng.int(400));
    if (part === 0n) part = balance;
    const ok = await send(from, [jettonBurnMessage({ jettonWallet: jw, from: from.address, amount: part, queryId: BigInt(stats.sent) })], 'jetton_burn');
    if (ok) cache.get(from)!.balance -= part;
    return ok;
  }

  async function owners(): Promise<Map<string, WalletHandle | null>> {
    if (ownerCache) return ownerCache;
    const cache = new Map<string, WalletHandle | null>();
    for (const item of [...nftItems, ...dnsItems]) {
      let owner: WalletHandle | null = null;
      if (await isActive(item)) {
        const r = (await bc.runGetMethod(item, 'get_nft_data')).stackReader;
        r.skip(3);
        const o = r.readAddressOpt();
        owner = o ? (senders.find((h) => h.address.equals(o)) ?? null) : null;
      }
      cache.set(item.toRawString(), owner);
    }
    ownerCache = cache;
    return cache;
  }

  async function nftTransfer(): Promise<boolean> {
    const cache = await owners();
    const owned = nftItems.map((item) => ({ item, owner: cache.get(item.toRawString()) ?? null })).filter((x) => x.owner !== null);
    if (owned.length === 0) return tonTransfer(false);
    const { item, owner } = rng.pick(owned) as { item: Address; owner: WalletHandle };
    const to = rng.pick(others(owner));
    const ok = await send(
      owner,
      [
        nftTransferMessage({
          item,
          from: owner.address,
          to: to.address,
          forwardAmount: rng.next() < 0.5 ? toNano('0.01') : 0n,
          forwardPayload: rng.next() < 0.5 ? comment() : null,
        }),
      ],
      'nft',
    );
    if (ok) cache.set(item.toRawString(), to);
    return ok;
  }

  const marketplace = byKind('nft_marketplace')[0] ?? null;
  async function market(move?: MarketMove): Promise<{ move: MarketMove | null; sent: boolean }> {
    const admin = minterAdmin ? Address.parseRaw(minterAdmin.address) : null;
    if (!marketplace || !admin) return { move: null, sent: false };
    const r = await marketMove(
      { bc, rng, senders, items: nftItems, deployer: marketplace, feeTo: admin, send: (h, msgs) => send(h, msgs, 'market') },
      move,
    );
    // Cards changed hands (listed, bought, returned): read the owners again before the next plain transfer.
    if (r.sent) ownerCache = null;
    return r;
  }

  async function highloadBatch(): Promise<boolean> {
    const h = highload as WalletHandle | null;
    if (!h) return tonTransfer(true);
    const n = 1 + rng.int(5);
    const msgs: OutgoingMessage[] = [];
    for (let i = 0; i < n; i++) {
      msgs.push({ to: rng.pick(senders).address, value: amount(0.01, 0.5), bounce: true, body: rng.next() < 0.5 ? textCommentBody(`payout ${stats.sent}-${i}`) : undefined });
    }
    return send(h, msgs, 'highload');
  }

  async function dnsEdit(): Promise<boolean> {
    const cache = await owners();
    const editable = dnsItems.filter((item) => cache.get(item.toRawString()));
    if (editable.length === 0) return tonTransfer(true);
    const item = rng.pick(editable);
    const owner = cache.get(item.toRawString()) as WalletHandle;
    const target = rng.pick(senders);
    return send(owner, [dnsWalletRecordMessage({ item, target: target.address })], 'dns');
  }

  async function binary(): Promise<boolean> {
    const from = rng.pick(senders);
    const to = rng.pick(others(from));
    return send(from, [binaryMessage({ to: to.address, op: 0x10000000 + rng.int(0x0fffffff), payload: rng.bytes(16 + rng.int(64)) })], 'binary');
  }

  async function bounce(): Promise<boolean> {
    const from = rng.pick(senders);
    freshCounter += 1;
    return send(from, [bounceMessage({ nowhere: nowhereAddress(options.seed, freshCounter), value: amount(0.05, 1), body: comment() })], 'bounce');
  }

  async function abort(): Promise<boolean> {
    if (!minter) return bounce();
    const from = rng.pick(senders);
    return send(from, [abortMessage({ minter, n: stats.sent })], 'abort');
  }

  async function topUpIfLow(): Promise<void> {
    const f = faucet as WalletHandle | null;
    if (!f) return;
    const low: OutgoingMessage[] = [];
    for (const h of [...senders, ...(highload ? [highload] : [])]) {
      if ((await balanceOf(h.address)) < LOW_BALANCE) low.push({ to: h.address, value: TOP_UP, bounce: true, body: textCommentBody('faucet top-up') });
    }
    for (let i = 0; i < low.length; i += 4) await send(f, low.slice(i, i + 4), 'ton_comment');
  }

  const total = WEIGHTS.reduce((s, [, w]) => s + w, 0);
  function chooseAction(): Action {
    let x = rng.next() * total;
    for (const [a, w] of WEIGHTS) {
      if ((x -= w) < 0) return a;
    }
    return 'ton';
  }

  async function one(action: Action): Promise<boolean> {
    switch (action) {
      case 'ton':
        return tonTransfer(false);
      case 'ton_comment':
        return tonTransfer(true);
      case 'jetton':
        return jettonTransfer();
      case 'jetton_mint':
        return jettonMint();
      case 'jetton_burn':
        return jettonBurn();
      case 'nft':
        return nftTransfer();
      case 'market': {
        const r = await market();
        return r.move ? r.sent : nftTransfer();
      }
      case 'highload':
        return highloadBatch();
      case 'dns':
        return dnsEdit();
      case 'binary':
        return binary();
      case 'bounce':
        return bounce();
      case 'abort':
        return abort();
    }
  }

  const ensureReady = async () => {
    ready ??= init().catch((e: unknown) => {
      ready = null;
      throw e;
    });
    await ready;
  };

  return {
    stats,
    async market(move?: MarketMove) {
      await ensureReady();
      return market(move);
    },
    async step(): Promise<number> {
      await ensureReady();
      stats.steps += 1;
      const before = stats.sent;
      if (stats.steps % REFRESH_STEPS === 1) {
        jettonCache = null;
        ownerCache = null;
        await topUpIfLow();
      }
      carry += Math.max(0, options.tps);
      const n = Math.floor(carry);
      carry -= n;
      for (let i = 0; i < n; i++) await one(chooseAction());
      return stats.sent - before;
    },
  };
}
