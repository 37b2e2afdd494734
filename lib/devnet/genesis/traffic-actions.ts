/**
 * The traffic generator's actions, one function each, over the shared TrafficState: each sends one
 * external (or falls back to a plain transfer when the chain offers nothing to act on) and says whether
 * the chain accepted it. The random draws happen in the same order as they always did, so a seed gives
 * the same traffic.
 */
import { Address, toNano } from '@ton/core';
import { textCommentBody } from '../contracts/common';
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
import { marketMove, type MarketMove } from './traffic-market';
import { LOW_BALANCE, TOP_UP, type Action, type TrafficState } from './traffic-state';
import type { OutgoingMessage, WalletHandle } from './wallet-handle';

export async function tonTransfer(t: TrafficState, withComment: boolean): Promise<boolean> {
  const { rng } = t;
  const from = rng.pick(t.senders);
  const to = rng.pick(t.others(from));
  const count = from.wallet.maxMessages > 1 && rng.next() < 0.2 ? 2 : 1;
  const msgs: OutgoingMessage[] = [];
  for (let i = 0; i < count; i++) {
    msgs.push({ to: (i === 0 ? to : rng.pick(t.others(from))).address, value: t.amount(0.01, 2), bounce: true, body: withComment ? t.comment() : undefined });
  }
  return t.send(from, msgs, withComment ? 'ton_comment' : 'ton');
}

export async function jettonTransfer(t: TrafficState): Promise<boolean> {
  const { rng } = t;
  const cache = await t.jettonHolders();
  const holders = [...cache.entries()].filter(([, v]) => v.balance > 0n);
  if (holders.length === 0) return tonTransfer(t, true);
  const [from, { jw, balance }] = rng.pick(holders);
  const to = rng.pick(t.others(from));
  let part = balance / BigInt(50 + rng.int(200));
  if (part === 0n) part = balance;
  const ok = await t.send(
    from,
    [
      jettonTransferMessage({
        jettonWallet: jw,
        from: from.address,
        to: to.address,
        amount: part,
        forwardTonAmount: rng.next() < 0.7 ? toNano('0.005') : 0n,
        forwardPayload: rng.next() < 0.7 ? t.comment() : null,
        queryId: BigInt(t.stats.sent),
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
export async function jettonMint(t: TrafficState): Promise<boolean> {
  const { minter, minterAdmin, rng } = t;
  const admin = minterAdmin ? t.senders.find((h) => h.address.equals(Address.parseRaw(minterAdmin.address))) : undefined;
  if (!minter || !admin) return tonTransfer(t, true);
  const to = rng.pick(t.others(admin));
  const part = BigInt(1 + rng.int(1000)) * 10n ** 9n;
  const ok = await t.send(admin, [jettonMintMessage({ minter, admin: admin.address, to: to.address, amount: part, queryId: BigInt(t.stats.sent) })], 'jetton_mint');
  const dest = ok ? (await t.jettonHolders()).get(to) : undefined;
  if (dest) dest.balance += part;
  return ok;
}

/** A holder burns a small part of its balance. */
export async function jettonBurn(t: TrafficState): Promise<boolean> {
  const { rng } = t;
  const cache = await t.jettonHolders();
  const holders = [...cache.entries()].filter(([, v]) => v.balance > 0n);
  if (holders.length === 0) return tonTransfer(t, true);
  const [from, { jw, balance }] = rng.pick(holders);
  let part = balance / BigInt(100 + rng.int(400));
  if (part === 0n) part = balance;
  const ok = await t.send(from, [jettonBurnMessage({ jettonWallet: jw, from: from.address, amount: part, queryId: BigInt(t.stats.sent) })], 'jetton_burn');
  if (ok) cache.get(from)!.balance -= part;
  return ok;
}

export async function nftTransfer(t: TrafficState): Promise<boolean> {
  const { rng } = t;
  const cache = await t.owners();
  const owned = t.nftItems.map((item) => ({ item, owner: cache.get(item.toRawString()) ?? null })).filter((x) => x.owner !== null);
  if (owned.length === 0) return tonTransfer(t, false);
  const { item, owner } = rng.pick(owned) as { item: Address; owner: WalletHandle };
  const to = rng.pick(t.others(owner));
  const ok = await t.send(
    owner,
    [
      nftTransferMessage({
        item,
        from: owner.address,
        to: to.address,
        forwardAmount: rng.next() < 0.5 ? toNano('0.01') : 0n,
        forwardPayload: rng.next() < 0.5 ? t.comment() : null,
      }),
    ],
    'nft',
  );
  if (ok) cache.set(item.toRawString(), to);
  return ok;
}

/** One marketplace move (traffic-market.ts): `move` if the chain allows it, else a random allowed one. */
export async function market(t: TrafficState, move?: MarketMove): Promise<{ move: MarketMove | null; sent: boolean }> {
  const admin = t.minterAdmin ? Address.parseRaw(t.minterAdmin.address) : null;
  if (!t.marketplace || !admin) return { move: null, sent: false };
  const r = await marketMove(
    { bc: t.bc, rng: t.rng, senders: t.senders, items: t.nftItems, deployer: t.marketplace, feeTo: admin, send: (h, msgs) => t.send(h, msgs, 'market') },
    move,
  );
  // Cards changed hands (listed, bought, returned): read the owners again before the next plain transfer.
  if (r.sent) t.forget({ owners: true });
  return r;
}

export async function highloadBatch(t: TrafficState): Promise<boolean> {
  const { rng } = t;
  const h = t.highload;
  if (!h) return tonTransfer(t, true);
  const n = 1 + rng.int(5);
  const msgs: OutgoingMessage[] = [];
  for (let i = 0; i < n; i++) {
    msgs.push({ to: rng.pick(t.senders).address, value: t.amount(0.01, 0.5), bounce: true, body: rng.next() < 0.5 ? textCommentBody(`payout ${t.stats.sent}-${i}`) : undefined });
  }
  return t.send(h, msgs, 'highload');
}

export async function dnsEdit(t: TrafficState): Promise<boolean> {
  const { rng } = t;
  const cache = await t.owners();
  const editable = t.dnsItems.filter((item) => cache.get(item.toRawString()));
  if (editable.length === 0) return tonTransfer(t, true);
  const item = rng.pick(editable);
  const owner = cache.get(item.toRawString()) as WalletHandle;
  const target = rng.pick(t.senders);
  return t.send(owner, [dnsWalletRecordMessage({ item, target: target.address })], 'dns');
}

export async function binary(t: TrafficState): Promise<boolean> {
  const { rng } = t;
  const from = rng.pick(t.senders);
  const to = rng.pick(t.others(from));
  return t.send(from, [binaryMessage({ to: to.address, op: 0x10000000 + rng.int(0x0fffffff), payload: rng.bytes(16 + rng.int(64)) })], 'binary');
}

export async function bounce(t: TrafficState): Promise<boolean> {
  const from = t.rng.pick(t.senders);
  t.freshCounter += 1;
  return t.send(from, [bounceMessage({ nowhere: nowhereAddress(t.options.seed, t.freshCounter), value: t.amount(0.05, 1), body: t.comment() })], 'bounce');
}

export async function abort(t: TrafficState): Promise<boolean> {
  if (!t.minter) return bounce(t);
  const from = t.rng.pick(t.senders);
  return t.send(from, [abortMessage({ minter: t.minter, n: t.stats.sent })], 'abort');
}

/** The faucet tops up every sender (and the highload wallet) whose balance ran low. */
export async function topUpIfLow(t: TrafficState): Promise<void> {
  const f = t.faucet;
  if (!f) return;
  const low: OutgoingMessage[] = [];
  for (const h of [...t.senders, ...(t.highload ? [t.highload] : [])]) {
    if ((await t.balanceOf(h.address)) < LOW_BALANCE) low.push({ to: h.address, value: TOP_UP, bounce: true, body: textCommentBody('faucet top-up') });
  }
  for (let i = 0; i < low.length; i += 4) await t.send(f, low.slice(i, i + 4), 'ton_comment');
}

/** Each action's function. */
export const ACTIONS: Record<Action, (t: TrafficState) => Promise<boolean>> = {
  ton: (t) => tonTransfer(t, false),
  ton_comment: (t) => tonTransfer(t, true),
  jetton: jettonTransfer,
  jetton_mint: jettonMint,
  jetton_burn: jettonBurn,
  nft: nftTransfer,
  market: async (t) => {
    const r = await market(t);
    return r.move ? r.sent : nftTransfer(t);
  },
  highload: highloadBatch,
  dns: dnsEdit,
  binary,
  bounce,
  abort,
};
