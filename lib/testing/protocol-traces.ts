// Synthetic traces of protocol flows the fixture set has no example of, each built from the protocol's
// own message layouts (the opcodes and bodies its contracts send, who sends what to whom) with
// TraceBuilder: bemo liquid staking, TON Whales pools, STON.fi v2's two-sided liquidity provision, EVAA's
// asset ids and early refusals, DeDust v2 swaps, deposits and withdrawals. Each
// scenario names what it is, so tests can say what the classifier must make of it; the metamorphic and
// property suites run over them like over the real traces.
import { createHash } from 'node:crypto';
import { Address, beginCell, type Cell } from '@ton/core';
import { BEMO_FINANCIALS } from '../actions/addresses';
import { BEMO, BEMO_STTON } from '../actions/protocols/bemo';
import { DEDUST_V2 } from '../actions/protocols/dedust-v2';
import { DEDUST_V2_LP } from '../actions/protocols/dedust-v2-liquidity';
import { OP } from '../actions/protocols/jettons';
import { STONFI_LP } from '../actions/protocols/stonfi-liquidity';
import { WHALES } from '../actions/protocols/whales';
import type { TraceTransaction } from '../actions/model';
import type { Input } from './trace-mutations';
import { TraceBuilder } from './trace-builder';

const TON = 1_000_000_000n;
const addr = (raw: string) => Address.parse(raw);
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

// TEP-74 bodies.
const internalTransfer = (amount: bigint, from: string, response: string, forward = 0n) =>
  beginCell().storeUint(OP.internalTransfer, 32).storeUint(7, 64).storeCoins(amount).storeAddress(addr(from)).storeAddress(addr(response)).storeCoins(forward).storeBit(0).endCell();
const notify = (amount: bigint, sender: string, payload?: Cell) => {
  const b = beginCell().storeUint(OP.notify, 32).storeUint(7, 64).storeCoins(amount).storeAddress(addr(sender));
  return (payload ? b.storeBit(1).storeRef(payload) : b.storeBit(0)).endCell();
};
const transfer = (amount: bigint, to: string, response: string, forward: bigint, payload?: Cell) => {
  const b = beginCell().storeUint(OP.transfer, 32).storeUint(7, 64).storeCoins(amount).storeAddress(addr(to)).storeAddress(addr(response)).storeBit(0).storeCoins(forward);
  return (payload ? b.storeBit(1).storeRef(payload) : b.storeBit(0)).endCell();
};
const burn = (amount: bigint, response: string) => beginCell().storeUint(OP.burn, 32).storeUint(7, 64).storeCoins(amount).storeAddress(addr(response)).storeBit(0).endCell();
const burnNotification = (amount: bigint, owner: string, receiver: string) =>
  beginCell().storeUint(OP.burnNotification, 32).storeUint(7, 64).storeCoins(amount).storeAddress(addr(owner)).storeAddress(addr(receiver)).storeBit(0).endCell();
const excesses = () => beginCell().storeUint(OP.excesses, 32).storeUint(7, 64).endCell();

export interface Scenario {
  id: string;
  input: Input;
}

// ---- bemo ---------------------------------------------------------------------------------------------

export type BemoGeneration = 'stTON' | 'bmTON';

/** The user, their wallet of the financial's jetton (known to the index) and the financial: stTON's own address, or a bmTON one. */
function bemoParties(b: TraceBuilder, gen: BemoGeneration) {
  const user = b.address();
  const wallet = b.address();
  const financial = gen === 'stTON' ? [...BEMO_FINANCIALS][0]! : b.address();
  b.interfaces.set(wallet, { jettonWallet: { owner: user, jetton: financial, balance: null } });
  return { user, wallet, financial };
}

/**
 * A deposit: TON to the financial (stTON: an empty body; bmTON: stake#4253c4d5), minted into the user's
 * wallet (stTON forwards 0.02 TON with the mint and keeps a 0.05 TON fee; bmTON forwards 0.06 TON), or
 * refused (bounced).
 */
export function bemoDeposit(gen: BemoGeneration, refused = false): Scenario {
  const b = new TraceBuilder(`bemo-deposit:${gen}:${refused}`);
  const { user, wallet, financial } = bemoParties(b, gen);
  const root = b.external(user);
  const body = gen === 'bmTON' ? beginCell().storeUint(BEMO.stake, 32).storeUint(5, 64).storeCoins(10_000_000n).storeBit(0).endCell() : null;
  const fin = b.send(root, financial, { value: 100n * TON, body });
  if (refused) b.fail(fin, 73);
  else {
    const forwarded = gen === 'stTON' ? 20_000_000n : 60_000_000n;
    const mint = b.send(fin, wallet, { value: forwarded, body: internalTransfer(96n * TON, financial, user, 10_000_000n), bounce: gen === 'stTON' });
    b.send(mint, user, { value: 10_000_000n, body: notify(96n * TON, financial) });
    b.send(mint, user, { value: 5_000_000n, body: excesses(), bounce: false });
  }
  return { id: `bemo ${gen} deposit${refused ? ' (refused)' : ''}`, input: b.input() };
}

/** Burning the jettons: the financial deploys an unstake request contract (stTON: op 100), or refuses the notification (bounce). */
export function bemoWithdrawalRequest(gen: BemoGeneration, refused = false): Scenario {
  const b = new TraceBuilder(`bemo-request:${gen}:${refused}`);
  const { user, wallet, financial } = bemoParties(b, gen);
  const request = b.address();
  const root = b.external(user);
  const w = b.send(root, wallet, { value: 200_000_000n, body: burn(50n * TON, user) });
  const fin = b.send(w, financial, { value: 180_000_000n, body: burnNotification(50n * TON, user, user) });
  if (refused) b.fail(fin, 74);
  else {
    const deploy = beginCell()
      .storeUint(gen === 'stTON' ? BEMO_STTON.deployUnstakeRequest : BEMO.deployUnstakeRequest, 32)
      .storeAddress(addr(user)).storeCoins(52n * TON).storeCoins(50n * TON);
    if (gen === 'bmTON') deploy.storeBit(0);
    const t = b.send(fin, request, { value: 150_000_000n, body: deploy.storeUint(1_760_200_000, 32).endCell(), bounce: false });
    t.origStatus = 'nonexist';
  }
  return { id: `bemo ${gen} withdrawal request${refused ? ' (refused)' : ''}`, input: b.input() };
}

/** An unlocked unstake request poked by its owner: the financial pays (stTON: plain TON), or returns the request for later. */
export function bemoWithdrawal(gen: BemoGeneration, returned = false): Scenario {
  const b = new TraceBuilder(`bemo-withdrawal:${gen}:${returned}`);
  const { user, financial } = bemoParties(b, gen);
  const request = b.address();
  const root = b.external(user);
  const poke = b.send(root, request, { value: 100_000_000n });
  const stton = gen === 'stTON';
  const unstake = beginCell().storeUint(stton ? BEMO_STTON.unstake : BEMO.unstake, 32).storeUint(41, 64).storeAddress(addr(user)).storeCoins(52n * TON).storeCoins(50n * TON);
  if (!stton) unstake.storeBit(0);
  const fin = b.send(poke, financial, { value: 120_000_000n, body: unstake.endCell(), bounce: false });
  if (returned) {
    const back = beginCell().storeUint(stton ? BEMO_STTON.returnUnstakeRequest : BEMO.returnUnstakeRequest, 32).storeUint(1_760_300_000, 32).endCell();
    b.send(fin, request, { value: 100_000_000n, body: back, bounce: false });
  } else {
    const note = stton ? null : beginCell().storeUint(BEMO.unstakeNotification, 32).storeUint(0, 64).storeBit(0).endCell();
    b.send(fin, user, { value: 52n * TON + 100_000_000n, body: note, bounce: false });
  }
  return { id: `bemo ${gen} withdrawal${returned ? ' (returned for later)' : ''}`, input: b.input() };
}

// ---- TON Whales ---------------------------------------------------------------------------------------

/** A member's command to a whales pool, by opcode or by text, and the pool's receipt (or a bounce). */
export function whalesCommand(opts: { command: 'deposit' | 'withdraw'; text: boolean; outcome: 'accepted' | 'completed' | 'delayed' | 'refused' }): Scenario {
  const b = new TraceBuilder(`whales:${opts.command}:${opts.text}:${opts.outcome}`);
  const member = b.address();
  const pool = b.address();
  if (opts.text) b.interfaces.set(pool, { whalesPool: true });
  const root = b.external(member);
  const deposit = opts.command === 'deposit';
  const body = opts.text
    ? comment(deposit ? 'Deposit' : 'Withdraw')
    : deposit
      ? beginCell().storeUint(WHALES.deposit, 32).storeUint(9, 64).storeCoins(0n).endCell()
      : beginCell().storeUint(WHALES.withdraw, 32).storeUint(9, 64).storeCoins(0n).storeCoins(30n * TON).endCell();
  const p = b.send(root, pool, { value: deposit ? 50n * TON : 200_000_000n, body });
  const texts = { accepted: 'Stake 49.8 accepted', completed: 'Withdraw completed', delayed: 'Withdraw requested. Please, retry the command when your balance is ready.' } as const;
  const ops = { accepted: WHALES.depositResponse, completed: WHALES.withdrawResponse, delayed: WHALES.withdrawDelayed } as const;
  if (opts.outcome === 'refused') b.fail(p, 77);
  else {
    const reply = opts.text ? comment(texts[opts.outcome]) : beginCell().storeUint(ops[opts.outcome], 32).storeUint(9, 64).endCell();
    b.send(p, member, { value: opts.outcome === 'completed' ? 30n * TON + 100_000_000n : 100_000_000n, body: reply, bounce: false });
  }
  return { id: `whales ${opts.command} by ${opts.text ? 'text' : 'opcode'} (${opts.outcome})`, input: b.input() };
}

// ---- STON.fi v2: both sides of a liquidity provision in one trace ---------------------------------------

/**
 * The user sends two jetton transfers to the router at once; each reaches the pool as provide_lp and
 * the user's LP account; the second side completes the account, which asks the pool to mint LP jettons
 * (or, `refunded`, gives both back).
 */
export function stonfiDoubleProvide(opts: { refunded?: boolean } = {}): Scenario {
  const b = new TraceBuilder(`stonfi-double:${!!opts.refunded}`);
  const user = b.address();
  const router = b.address();
  const pool = b.address();
  const account = b.address();
  const [jettonA, jettonB] = [b.address(), b.address()];
  const [userA, userB, routerA, routerB, lpWallet] = [b.address(), b.address(), b.address(), b.address(), b.address()];
  b.interfaces.set(userA, { jettonWallet: { owner: user, jetton: jettonA, balance: null } });
  b.interfaces.set(userB, { jettonWallet: { owner: user, jetton: jettonB, balance: null } });
  b.interfaces.set(routerA, { jettonWallet: { owner: router, jetton: jettonA, balance: null } });
  b.interfaces.set(routerB, { jettonWallet: { owner: router, jetton: jettonB, balance: null } });
  b.interfaces.set(lpWallet, { jettonWallet: { owner: user, jetton: pool, balance: null } });
  const root = b.external(user);
  const provideBody = (a1: bigint, a2: bigint) =>
    beginCell().storeUint(STONFI_LP.provide, 32).storeUint(3, 64).storeAddress(addr(user)).storeCoins(a1).storeCoins(a2).storeAddress(addr(user)).endCell();
  const side = (wallet: string, routerWallet: string, amount: bigint, first: boolean) => {
    const t = b.send(root, wallet, { value: 300_000_000n, body: transfer(amount, router, user, 250_000_000n, beginCell().storeUint(0x37c096df, 32).endCell()) });
    const internal = b.send(t, routerWallet, { value: 280_000_000n, body: internalTransfer(amount, user, user, 250_000_000n) });
    const n = b.send(internal, router, { value: 250_000_000n, body: notify(amount, user, beginCell().storeUint(0x37c096df, 32).endCell()) });
    const provide = b.send(n, pool, { value: 240_000_000n, body: provideBody(first ? amount : 0n, first ? 0n : amount) });
    return b.send(provide, account, { value: 230_000_000n, body: beginCell().storeUint(STONFI_LP.addLiquidity, 32).storeUint(3, 64).storeCoins(first ? amount : 0n).storeCoins(first ? 0n : amount).endCell() });
  };
  side(userA, routerA, 1000n, true);
  const second = side(userB, routerB, 2000n, false);
  const cb = b.send(second, pool, { value: 200_000_000n, body: beginCell().storeUint(STONFI_LP.cbAddLiquidity, 32).storeUint(3, 64).storeCoins(1000n).storeCoins(2000n).endCell() });
  if (opts.refunded) b.send(cb, account, { value: 150_000_000n, body: beginCell().storeUint(STONFI_LP.addLiquidity, 32).storeUint(3, 64).storeCoins(1000n).storeCoins(2000n).endCell() });
  else b.send(cb, lpWallet, { value: 150_000_000n, body: internalTransfer(1400n, pool, user) });
  return { id: `stonfi v2 two-sided provide${opts.refunded ? ' (refunded)' : ''}`, input: b.input() };
}

// ---- EVAA ---------------------------------------------------------------------------------------------

/** sha256 of an asset's name: EVAA's asset id. */
const assetId = (name: string) => BigInt('0x' + createHash('sha256').update(name).digest('hex'));

/**
 * A TON supply: supply_master#1 to the master, supply_user#11 to the user contract (after the user
 * header: version, upgrade info, upgrade exec), supply_success#11a back with the amount supplied.
 */
export function evaaTonSupply(): Scenario {
  const b = new TraceBuilder('evaa-ton-supply');
  const [user, master, userContract] = [b.address(), b.address(), b.address()];
  const root = b.external(user);
  const supply = beginCell().storeUint(0x1, 32).storeUint(11, 64).storeInt(0, 2).storeUint(5n * TON, 64).storeAddress(addr(user)).storeUint(0, 64).storeRef(beginCell().endCell()).endCell();
  const m = b.send(root, master, { value: 5n * TON + 300_000_000n, body: supply });
  const supplyUser = beginCell().storeCoins(4).storeBit(0).storeUint(0, 2).storeUint(0x11, 32).storeUint(11, 64).storeUint(assetId('TON'), 256).storeUint(5n * TON, 64).endCell();
  const u = b.send(m, userContract, { value: 250_000_000n, body: supplyUser });
  const ok = beginCell().storeUint(0x11a, 32).storeUint(11, 64).storeAddress(addr(user)).storeUint(assetId('TON'), 256).storeUint(4_999_999_000n, 64).endCell();
  const back = b.send(u, master, { value: 200_000_000n, body: ok });
  b.send(back, user, { value: 100_000_000n, body: comment('EVAA supply.'), bounce: false });
  return { id: 'evaa TON supply', input: b.input() };
}

/** A liquidation the master refused at once (a TON liquidate_master#3 bounced): stTON collateral asked. */
export function evaaLiquidationRejected(): Scenario {
  const b = new TraceBuilder('evaa-liquidation-rejected');
  const [liquidator, borrower, master] = [b.address(), b.address(), b.address()];
  const root = b.external(liquidator);
  const liquidate = beginCell()
    .storeUint(0x3, 32).storeUint(12, 64).storeAddress(addr(borrower)).storeAddress(addr(liquidator)).storeUint(assetId('stTON'), 256)
    .storeUint(1n * TON, 64).storeInt(0, 2).storeUint(20n * TON, 64)
    .storeRef(beginCell().storeUint(0, 64).storeRef(beginCell().endCell()).endCell()).storeRef(beginCell().endCell())
    .endCell();
  b.fail(b.send(root, master, { value: 20n * TON + 500_000_000n, body: liquidate }), 0x30f1);
  return { id: 'evaa liquidation rejected at once', input: b.input() };
}

// ---- DeDust v2 ---------------------------------------------------------------------------------------

const dv2Swap = (minOut: bigint, next?: { pool: string; minOut: bigint }) => {
  const b = beginCell().storeUint(DEDUST_V2.swap, 32).storeCoins(minOut).storeUint(1_760_000_900, 40);
  if (next) b.storeBit(1).storeRef(beginCell().storeAddress(addr(next.pool)).storeCoins(next.minOut).storeUint(1_760_000_900, 40).storeBit(0).endCell());
  else b.storeBit(0);
  return b.storeBit(0).storeBit(0).endCell();
};
const payoutConfig = () => beginCell().storeUint(0, 8).endCell();
const payNative = (amount: bigint, payment: Cell) => beginCell().storeUint(DEDUST_V2.payNative, 32).storeUint(21, 64).storeCoins(amount).storeRef(payment).storeRef(payoutConfig()).endCell();
const payJetton = (payment: Cell) => beginCell().storeUint(DEDUST_V2.payJetton, 32).storeRef(payment).storeRef(payoutConfig()).endCell();
const swapLog = (amountIn: bigint, amountOut: bigint, who: string) =>
  beginCell().storeUint(DEDUST_V2.swapEvent, 32).storeBit(1).storeCoins(amountIn).storeCoins(amountOut).storeAddress(addr(who)).storeAddress(addr(who)).storeRef(beginCell().endCell()).storeRef(beginCell().endCell()).endCell();
const dv2Payout = (amount: bigint, exitCode: number) => beginCell().storeUint(DEDUST_V2.payout, 32).storeUint(21, 64).storeCoins(amount).storeInt(exitCode, 32).storeBit(0).endCell();

/**
 * DeDust v2 swaps: TON for a jetton (pay_native, one pool), a jetton for TON (pay_jetton, payout), TON for
 * a jetton through two pools (TON → X → Y), and a refused swap (no log, TON paid back with an exit code).
 */
export function dedustV2Swap(kind: 'ton-in' | 'jetton-in' | 'two-hops' | 'refused' | 'jetton-refused'): Scenario {
  const b = new TraceBuilder(`dedust-v2:${kind}`);
  const user = b.address();
  const [poolA, poolB, jettonX, jettonY] = [b.address(), b.address(), b.address(), b.address()];
  const [poolAX, userX, poolBX, poolBY, userY] = [b.address(), b.address(), b.address(), b.address(), b.address()];
  const wallets: [string, string, string][] = [[poolAX, poolA, jettonX], [userX, user, jettonX], [poolBX, poolB, jettonX], [poolBY, poolB, jettonY], [userY, user, jettonY]];
  for (const [w, owner, jetton] of wallets) b.interfaces.set(w, { jettonWallet: { owner, jetton, balance: null } });
  b.interfaces.set(poolA, { dedustPool: { assets: [null, jettonX] } });
  const root = b.external(user);
  /** The pool's jetton wallet pays `amount` to `to` (its wallet `toWallet`), with a forward payload or not. */
  const pay = (pool: TraceTransaction, poolWallet: string, toWallet: string, to: string, amount: bigint, payload?: Cell) => {
    const t = b.send(pool, poolWallet, { value: 100_000_000n, body: transfer(amount, to, user, payload ? 50_000_000n : 1n, payload) });
    const internal = b.send(t, toWallet, { value: 90_000_000n, body: internalTransfer(amount, pool.account, user, payload ? 50_000_000n : 1n) });
    const n = b.send(internal, to, { value: payload ? 50_000_000n : 1n, body: notify(amount, pool.account, payload) });
    b.send(internal, user, { value: 30_000_000n, body: excesses(), bounce: false });
    return n;
  };
  if (kind === 'jetton-in' || kind === 'jetton-refused') {
    const t = b.send(root, userX, { value: 300_000_000n, body: transfer(500n, poolA, user, 200_000_000n, payJetton(dv2Swap(100n))) });
    const internal = b.send(t, poolAX, { value: 250_000_000n, body: internalTransfer(500n, user, user, 200_000_000n) });
    const pool = b.send(internal, poolA, { value: 200_000_000n, body: notify(500n, user, payJetton(dv2Swap(100n))) });
    if (kind === 'jetton-refused') {
      pay(pool, poolAX, userX, user, 500n);
      return { id: 'dedust v2 swap jetton refused', input: b.input() };
    }
    b.log(pool, swapLog(500n, 120n, user));
    b.send(pool, user, { value: 120n + 50_000_000n, body: dv2Payout(120n, 0), bounce: false });
    return { id: 'dedust v2 swap jetton → TON', input: b.input() };
  }
  const route = kind === 'two-hops' ? dv2Swap(10n, { pool: poolB, minOut: 30n }) : dv2Swap(10n);
  const pool = b.send(root, poolA, { value: 5n * TON + 300_000_000n, body: payNative(5n * TON, route) });
  if (kind === 'refused') {
    b.send(pool, user, { value: 5n * TON + 200_000_000n, body: dv2Payout(5n * TON, 301), bounce: false });
    return { id: 'dedust v2 swap refused', input: b.input() };
  }
  b.log(pool, swapLog(5n * TON, 1000n, user));
  if (kind === 'ton-in') {
    pay(pool, poolAX, userX, user, 1000n);
    return { id: 'dedust v2 swap TON → jetton', input: b.input() };
  }
  const hop = pay(pool, poolAX, poolBX, poolB, 1000n, payJetton(dv2Swap(30n)));
  b.log(hop, swapLog(1000n, 40n, user));
  pay(hop, poolBY, userY, user, 40n);
  return { id: 'dedust v2 swap TON → X → Y', input: b.input() };
}

/** A DeDust v2 withdrawal of a TON/X position: both assets paid (TON by payout, X by the pool's wallet), or refused (no log, nothing paid). */
export function dedustV2Withdraw(refused = false): Scenario {
  const b = new TraceBuilder(`dedust-v2-withdraw:${refused}`);
  const [user, pool, position, jettonX, poolX, userX] = [b.address(), b.address(), b.address(), b.address(), b.address(), b.address()];
  b.interfaces.set(poolX, { jettonWallet: { owner: pool, jetton: jettonX, balance: null } });
  b.interfaces.set(userX, { jettonWallet: { owner: user, jetton: jettonX, balance: null } });
  const root = b.external(user);
  const w = b.send(root, pool, { value: 500_000_000n, body: beginCell().storeUint(DEDUST_V2.withdraw, 32).storeUint(8, 64).storeCoins(777n).storeCoins(1n).storeCoins(1n).storeBit(0).storeRef(payoutConfig()).endCell() });
  const burn = b.send(w, position, { value: 400_000_000n, body: beginCell().storeUint(DEDUST_V2.withdrawLiquidity, 32).storeUint(8, 64).storeCoins(777n).endCell() });
  const exit = b.send(burn, pool, { value: 300_000_000n, body: beginCell().storeUint(DEDUST_V2.exitLiquidity, 32).storeUint(8, 64).storeCoins(777n).endCell() });
  if (!refused) {
    b.log(exit, beginCell().storeUint(DEDUST_V2.withdrawalEvent, 32).storeCoins(777n).storeCoins(2n * TON).storeCoins(3000n).storeAddress(addr(user)).storeAddress(addr(user)).storeRef(beginCell().endCell()).endCell());
    b.send(exit, user, { value: 2n * TON + 50_000_000n, body: dv2Payout(2n * TON, 0), bounce: false });
    const t = b.send(exit, poolX, { value: 100_000_000n, body: transfer(3000n, user, user, 1n) });
    const internal = b.send(t, userX, { value: 90_000_000n, body: internalTransfer(3000n, pool, user, 1n) });
    b.send(internal, user, { value: 1n, body: notify(3000n, pool) });
  }
  return { id: `dedust v2 withdraw${refused ? ' (refused)' : ''}`, input: b.input() };
}

/**
 * A DeDust v2 deposit of TON and X sent at once: each side credited to the escrow, the second completes
 * it, the pool joins (logs the deposit, credits the position, pays back TON dust), or rejects the join
 * (no log, both sides paid back).
 */
export function dedustV2Deposit(rejected = false): Scenario {
  const b = new TraceBuilder(`dedust-v2-deposit:${rejected}`);
  const [user, pool, escrow, position, jettonX, poolX, userX] = [b.address(), b.address(), b.address(), b.address(), b.address(), b.address(), b.address()];
  b.interfaces.set(poolX, { jettonWallet: { owner: pool, jetton: jettonX, balance: null } });
  b.interfaces.set(userX, { jettonWallet: { owner: user, jetton: jettonX, balance: null } });
  const payload = beginCell().storeUint(DEDUST_V2_LP.deposit, 32).storeCoins(2n * TON).storeCoins(3000n).storeCoins(1n).storeUint(0, 16).endCell();
  const credit = (isX: boolean, amount: bigint) => beginCell().storeUint(DEDUST_V2_LP.creditAsset, 32).storeUint(4, 64).storeBit(isX).storeCoins(amount).endCell();
  const root = b.external(user);
  const tonSide = b.send(root, pool, { value: 2n * TON + 300_000_000n, body: payNative(2n * TON, payload) });
  const t = b.send(root, userX, { value: 400_000_000n, body: transfer(3000n, pool, user, 300_000_000n, payJetton(payload)) });
  const internal = b.send(t, poolX, { value: 350_000_000n, body: internalTransfer(3000n, user, user, 300_000_000n) });
  const jettonSide = b.send(internal, pool, { value: 300_000_000n, body: notify(3000n, user, payJetton(payload)) });
  b.send(tonSide, escrow, { value: 200_000_000n, body: credit(true, 2n * TON) });
  const second = b.send(jettonSide, escrow, { value: 200_000_000n, body: credit(false, 3000n) });
  const joinBody = beginCell().storeUint(DEDUST_V2_LP.joinLiquidity, 32).storeUint(4, 64).storeRef(beginCell().endCell()).storeCoins(2n * TON).storeCoins(3000n).storeAddress(addr(user)).endCell();
  const j = b.send(second, pool, { value: 300_000_000n, body: joinBody });
  if (rejected) {
    b.send(j, user, { value: 2n * TON, body: dv2Payout(2n * TON, 0), bounce: false });
    const back = b.send(j, poolX, { value: 100_000_000n, body: transfer(3000n, user, user, 1n) });
    const i2 = b.send(back, userX, { value: 90_000_000n, body: internalTransfer(3000n, pool, user, 1n) });
    b.send(i2, user, { value: 1n, body: notify(3000n, pool) });
  } else {
    b.log(j, beginCell().storeUint(DEDUST_V2_LP.depositEvent, 32).storeCoins(1_999_000_000n).storeCoins(3000n).storeCoins(2449n).storeAddress(addr(user)).storeAddress(addr(user)).storeRef(beginCell().endCell()).endCell());
    b.send(j, position, { value: 100_000_000n, body: beginCell().storeUint(0x855afcbd, 32).storeUint(4, 64).storeCoins(2449n).endCell() });
    b.send(j, user, { value: 1_000_000n, body: dv2Payout(1_000_000n, 0), bounce: false });
  }
  return { id: `dedust v2 deposit${rejected ? ' (rejected)' : ''}`, input: b.input() };
}

/** A plain payment with a comment between two wallets (bounceable): the base case next to the protocols. */
export function tonPayment(): Scenario {
  const b = new TraceBuilder('ton-payment');
  const [from, to] = [b.address(), b.address()];
  b.send(b.external(from), to, { value: 3n * TON, body: comment('rent, november') });
  return { id: 'TON payment', input: b.input() };
}

/** Every scenario, for the suites that run over all traces. */
export function protocolScenarios(): Scenario[] {
  const whales = (['deposit', 'withdraw'] as const).flatMap((command) =>
    [true, false].flatMap((text) =>
      (command === 'deposit' ? (['accepted', 'refused'] as const) : (['completed', 'delayed', 'refused'] as const)).map((outcome) => whalesCommand({ command, text, outcome })),
    ),
  );
  return [
    tonPayment(),
    ...(['stTON', 'bmTON'] as const).flatMap((gen) => [
      bemoDeposit(gen),
      bemoDeposit(gen, true),
      bemoWithdrawalRequest(gen),
      bemoWithdrawalRequest(gen, true),
      bemoWithdrawal(gen),
      bemoWithdrawal(gen, true),
    ]),
    ...whales,
    stonfiDoubleProvide(),
    stonfiDoubleProvide({ refunded: true }),
    evaaTonSupply(),
    evaaLiquidationRejected(),
    dedustV2Swap('ton-in'),
    dedustV2Swap('jetton-in'),
    dedustV2Swap('two-hops'),
    dedustV2Swap('refused'),
    dedustV2Swap('jetton-refused'),
    dedustV2Withdraw(),
    dedustV2Withdraw(true),
    dedustV2Deposit(),
    dedustV2Deposit(true),
  ];
}
