// Flows the 57 fixture cases hold no example of, built from the protocols' own message layouts
// (lib/testing/protocol-traces.ts): what a wallet history must show for each, success and failure.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { traceFromDocument } from './fixture';
import { seededRng } from '../fuzz/rng';
import { renameAddresses } from '../testing/trace-mutations';
import { classify } from './classify';
import type { Action } from './model';
import { dedustV2Deposit, dedustV2Swap, dedustV2Withdraw, bemoDeposit, bemoWithdrawal, bemoWithdrawalRequest, evaaLiquidationRejected, evaaTonSupply, stonfiDoubleProvide, whalesCommand, type Scenario } from '../testing/protocol-traces';
import { actionDetails } from './details';
import { BEMO_FINANCIALS } from './addresses';

const run = (s: Scenario) => classify(s.input.trace, s.input.interfaces);
const top = (actions: Action[]) => actions.filter((a) => a.parent_action_id === null);
const STTON = [...BEMO_FINANCIALS][0]!;
const TON = 1_000_000_000n;

/** The one top-level action of a type, and that it is the only top-level action apart from deploys. */
function only(s: Scenario, type: string): Action {
  const actions = top(run(s)).filter((a) => a.type !== 'contract_deploy');
  expect(actions.map((a) => a.type)).toEqual([type]);
  return actions[0]!;
}

/** Every transaction of the trace is in the action (the whole flow is one thing the user did). */
function coversAll(s: Scenario, a: Action) {
  const root = s.input.trace.transactions[0]!;
  expect(new Set(a.tx_hashes)).toEqual(new Set(s.input.trace.transactions.filter((t) => t !== root || a.tx_hashes.includes(t.hash)).map((t) => t.hash)));
}

describe('bemo liquid staking', () => {
  it('an stTON deposit (empty body to the stTON financial): stake_deposit of the value less the 0.05 TON fee, the stTON minted', () => {
    const s = bemoDeposit('stTON');
    const a = only(s, 'stake_deposit');
    expect(a.success).toBe(true);
    expect([a.destination, a.asset, a.amount]).toEqual([STTON, STTON, 100n * TON - 50_000_000n]);
    expect(a.staking_data).toEqual({ provider: 'bemo', tokens_minted: 96n * TON });
    coversAll(s, a);
  });

  it('a bmTON deposit (stake#4253c4d5 to any financial): the value less the TON forwarded with the mint', () => {
    const s = bemoDeposit('bmTON');
    const a = only(s, 'stake_deposit');
    expect([a.success, a.amount, a.staking_data]).toEqual([true, 100n * TON - 60_000_000n, { provider: 'bemo', tokens_minted: 96n * TON }]);
    expect(a.asset).toBe(a.destination);
    coversAll(s, a);
  });

  for (const gen of ['stTON', 'bmTON'] as const) {
    it(`a refused ${gen} deposit (bounced, nothing minted) is a failed stake_deposit`, () => {
      const s = bemoDeposit(gen, true);
      const a = only(s, 'stake_deposit');
      expect([a.success, a.staking_data]).toEqual([false, { provider: 'bemo', tokens_minted: null }]);
      coversAll(s, a);
    });

    it(`burning ${gen}: stake_withdrawal_request with the TON owed and the request contract`, () => {
      const s = bemoWithdrawalRequest(gen);
      const a = only(s, 'stake_withdrawal_request');
      expect([a.success, a.amount, a.asset]).toEqual([true, 52n * TON, a.destination]);
      expect(a.staking_data).toEqual({ provider: 'bemo', tokens_burnt: 50n * TON, ts_nft: null });
      expect(a.destination_secondary).not.toBeNull();
      coversAll(s, a);
    });

    it(`the unlocked ${gen} request paid out: stake_withdrawal of the TON paid to the owner`, () => {
      const s = bemoWithdrawal(gen);
      const a = only(s, 'stake_withdrawal');
      expect([a.success, a.amount, a.staking_data]).toEqual([true, 52n * TON + 100_000_000n, { provider: 'bemo', tokens_burnt: 50n * TON, ts_nft: null }]);
      coversAll(s, a);
    });

    it(`a ${gen} request sent back for later (the pool short of TON) is a failed stake_withdrawal`, () => {
      const a = only(bemoWithdrawal(gen, true), 'stake_withdrawal');
      expect([a.success, a.amount]).toEqual([false, null]);
    });
  }

  it('a burn the stTON financial refused (bounced notification) is a failed request, not a jetton_burn', () => {
    const s = bemoWithdrawalRequest('stTON', true);
    const a = only(s, 'stake_withdrawal_request');
    expect([a.success, a.destination_secondary]).toEqual([false, null]);
    coversAll(s, a);
  });

  it("stTON's small opcodes elsewhere are no bemo flow: a burn whose notification deploys op 100 at another master stays a jetton_burn", () => {
    // The same flow with every address renamed (the stTON financial too): op 100 means nothing elsewhere.
    const { input } = renameAddresses(bemoWithdrawalRequest('stTON').input, seededRng('not-stton'), new Set());
    const types = classify(input.trace, input.interfaces).filter((a) => a.parent_action_id === null).map((a) => a.type);
    expect(types).toContain('jetton_burn');
    expect(types).not.toContain('stake_withdrawal_request');
  });
});

describe('TON Whales pools', () => {
  for (const text of [false, true]) {
    const by = text ? 'by text' : 'by opcode';
    it(`a deposit ${by}, accepted: stake_deposit`, () => {
      const s = whalesCommand({ command: 'deposit', text, outcome: 'accepted' });
      const a = only(s, 'stake_deposit');
      expect([a.success, a.amount, a.staking_data]).toEqual([true, 50n * TON, { provider: 'whales' }]);
      coversAll(s, a);
    });
    it(`a deposit ${by}, refused: failed stake_deposit`, () => {
      const a = only(whalesCommand({ command: 'deposit', text, outcome: 'refused' }), 'stake_deposit');
      expect(a.success).toBe(false);
    });
    it(`a withdrawal ${by}, paid at once: stake_withdrawal of the payout`, () => {
      const s = whalesCommand({ command: 'withdraw', text, outcome: 'completed' });
      const a = only(s, 'stake_withdrawal');
      expect([a.success, a.amount, a.staking_data]).toEqual([true, 30n * TON + 100_000_000n, { provider: 'whales' }]);
      coversAll(s, a);
    });
    it(`a withdrawal ${by}, queued: stake_withdrawal_request`, () => {
      const a = only(whalesCommand({ command: 'withdraw', text, outcome: 'delayed' }), 'stake_withdrawal_request');
      expect([a.success, a.amount]).toEqual([true, text ? null : 30n * TON]);
    });
    it(`a withdrawal ${by}, refused: failed stake_withdrawal_request`, () => {
      const a = only(whalesCommand({ command: 'withdraw', text, outcome: 'refused' }), 'stake_withdrawal_request');
      expect(a.success).toBe(false);
    });
  }

  it('a real one: the vesting wallet of fixture 03RZCW… sends "Deposit" with 100 TON, the pool answers "Stake 99.800000000 accepted"', () => {
    const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '../testing/fixtures/ton-actions/traces/03RZCW7mu3eJp-FWifVzKsRHafUrqQNu4E6YwZxvXJ0=.json'), 'utf8'));
    const { trace, interfaces } = traceFromDocument(doc);
    const deposits = classify(trace, interfaces).filter((a) => a.type === 'stake_deposit');
    expect(deposits.map((a) => [a.source, a.destination, a.amount, a.success, a.staking_data])).toEqual([
      ['0:0F956925D8E1E32E5189E35100ADEF828BE779D079C6D8B966B2209FCCE213D4', '0:A8A697ABD5448BB35EBBD414E4C9D8F621F53B67B54551560645B8EC25F87D39', 100n * TON, true, { provider: 'whales' }],
    ]);
  });

  it('a "Deposit" comment to an account that is no known pool and sent no receipt stays a (failed) TON transfer', () => {
    const s = whalesCommand({ command: 'deposit', text: true, outcome: 'refused' });
    s.input.interfaces.clear();
    const actions = top(run(s));
    expect(actions.map((a) => a.type)).not.toContain('stake_deposit');
    expect(actions.find((a) => a.type === 'ton_transfer')?.success).toBe(false);
  });
});

describe('STON.fi v2: both sides provided at once', () => {
  it('two provide_lp into one LP account and one mint: one dex_deposit_liquidity of both assets', () => {
    const s = stonfiDoubleProvide();
    const a = only(s, 'dex_deposit_liquidity');
    const d = a.dex_deposit_liquidity_data!;
    expect(a.success).toBe(true);
    expect([d.amount1, d.amount2, d.lp_tokens_minted]).toEqual([2000n, 1000n, 1400n]);
    expect(d.asset1).not.toBe(d.asset2);
    expect(d.user_jetton_wallet_1).not.toBe(d.user_jetton_wallet_2);
    // Both sides' jetton transfers, provisions and the mint are in it.
    coversAll(s, a);
  });

  it('refunded (nothing minted on either side): the two provisions stay apart, the completing one failed', () => {
    const actions = top(run(stonfiDoubleProvide({ refunded: true }))).filter((a) => a.type === 'dex_deposit_liquidity');
    expect(actions.map((a) => [a.dex_deposit_liquidity_data!.amount1, a.success])).toEqual([
      [1000n, true],
      [2000n, false],
    ]);
  });
});

describe('EVAA asset ids', () => {
  it('a supply names the asset the user contract was told (sha256 of its name) and the amount it took in', () => {
    const s = evaaTonSupply();
    const a = only(s, 'evaa_supply');
    expect(a.success).toBe(true);
    expect(a.amount).toBe(4_999_999_000n);
    expect(a.evaa_supply_data).toMatchObject({ is_ton: true, asset_id: '0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8a' });
    coversAll(s, a);
  });

  it('a liquidation refused before the borrower was asked: failed, immediate_rejection, collateral resolved to its jetton', () => {
    const s = evaaLiquidationRejected();
    const a = only(s, 'evaa_liquidate');
    expect(a.success).toBe(false);
    expect(a.amount).toBe(0n);
    expect(a.evaa_liquidate_data).toMatchObject({ fail_reason: 'immediate_rejection', debt_amount: 20n * TON, asset_id: '0x495668e908644f30322b997de8faaafc21f05aa52f8982f042dac1fe0b4d09d0' });
    // stTON's id resolves to stTON's master, as toncenter's API does.
    expect(actionDetails(a)).toMatchObject({ asset: STTON, is_known_asset: true });
    coversAll(s, a);
  });
});

describe('DeDust v2 swaps', () => {
  it('TON for a jetton in one pool: jetton_swap with the logged amounts', () => {
    const s = dedustV2Swap('ton-in');
    const a = only(s, 'jetton_swap');
    const d = a.jetton_swap_data!;
    expect(a.success).toBe(true);
    expect([a.asset, a.asset2 !== null]).toEqual([null, true]);
    expect((d.dex_incoming_transfer as { amount: bigint }).amount).toBe(5n * TON);
    expect((d.dex_outgoing_transfer as { amount: bigint }).amount).toBe(1000n);
    expect([d.dex, d.peer_swaps, d.min_out_amount]).toEqual(['dedust_v2', [], 10n]);
    coversAll(s, a);
  });

  it('a jetton for TON: the pool pays TON with payout#3216ca09', () => {
    const s = dedustV2Swap('jetton-in');
    const a = only(s, 'jetton_swap');
    const d = a.jetton_swap_data!;
    expect([a.success, a.asset !== null, a.asset2]).toEqual([true, true, null]);
    expect((d.dex_outgoing_transfer as { amount: bigint }).amount).toBe(120n);
    coversAll(s, a);
  });

  it('through two pools: one swap, each hop a peer swap, the final minimum', () => {
    const s = dedustV2Swap('two-hops');
    const a = only(s, 'jetton_swap');
    const d = a.jetton_swap_data!;
    const peers = d.peer_swaps as { amount_in: bigint; amount_out: bigint }[];
    expect(peers.map((p) => [p.amount_in, p.amount_out])).toEqual([[5n * TON, 1000n], [1000n, 40n]]);
    expect((d.dex_outgoing_transfer as { amount: bigint }).amount).toBe(40n);
    expect(d.min_out_amount).toBe(30n);
    coversAll(s, a);
  });

  it('refused (no swap logged, TON paid back with an exit code): a failed swap of the pool\'s other asset', () => {
    const s = dedustV2Swap('refused');
    const a = only(s, 'jetton_swap');
    expect(a.success).toBe(false);
    expect(a.asset).toBeNull();
    expect(a.asset2).not.toBeNull();
    coversAll(s, a);
  });
});

describe('DeDust v2 refusals of a jetton swap', () => {
  it('the pool sends the same jetton back to the sender (no swap logged): a failed swap of the pool\'s other asset (TON)', () => {
    const s = dedustV2Swap('jetton-refused');
    const a = only(s, 'jetton_swap');
    expect([a.success, a.asset !== null, a.asset2]).toEqual([false, true, null]);
    coversAll(s, a);
  });
});

describe('DeDust v2 liquidity withdrawals', () => {
  it('the position burnt, both assets paid: dex_withdraw_liquidity with the logged liquidity', () => {
    const s = dedustV2Withdraw();
    const a = only(s, 'dex_withdraw_liquidity');
    const d = a.dex_withdraw_liquidity_data!;
    expect(a.success).toBe(true);
    expect([d.dex, d.is_refund, d.lp_tokens_burnt, d.amount1, d.asset1_out, d.amount2]).toEqual(['dedust_v2', false, 777n, 2n * TON, null, 3000n]);
    expect(d.asset2_out).not.toBeNull();
    expect(a.asset).toBeNull();
    coversAll(s, a);
  });

  it('refused (no withdrawal logged): failed, is_refund, the share asked for', () => {
    const a = only(dedustV2Withdraw(true), 'dex_withdraw_liquidity');
    const d = a.dex_withdraw_liquidity_data!;
    expect([a.success, d.is_refund, d.lp_tokens_burnt, d.amount1]).toEqual([false, true, 777n, null]);
  });
});

describe('DeDust v2 deposits', () => {
  it('both sides in one trace: one dex_deposit_liquidity with the logged amounts, the LP minted, the dust paid back', () => {
    const s = dedustV2Deposit();
    const a = only(s, 'dex_deposit_liquidity');
    const d = a.dex_deposit_liquidity_data!;
    expect(a.success).toBe(true);
    expect([d.dex, d.amount1, d.amount2, d.asset1, d.lp_tokens_minted, d.target_amount_1, d.target_amount_2]).toEqual(['dedust_v2', 1_999_000_000n, 3000n, null, 2449n, 2n * TON, 3000n]);
    expect(d.asset2).not.toBeNull();
    expect(d.user_jetton_wallet_2).not.toBeNull();
    expect(d.vault_excesses).toEqual([{ asset: null, amount: 1_000_000n }]);
    coversAll(s, a);
  });

  it('the join rejected (no log, both sides paid back): failed, the amounts asked, both refunds', () => {
    const s = dedustV2Deposit(true);
    const a = only(s, 'dex_deposit_liquidity');
    const d = a.dex_deposit_liquidity_data!;
    expect([a.success, d.amount1, d.amount2, d.lp_tokens_minted]).toEqual([false, 2n * TON, 3000n, null]);
    expect((d.vault_excesses as unknown[]).length).toBe(2);
    coversAll(s, a);
  });
});
