// Validator stakes. The elector: a stake (new_stake#4e73744b) is confirmed by #f374484c, a recovery
// (recover_stake#47657424) paid by #f96f7324; without the confirmation it failed. TON's nominator pool
// contract (get_pool_data, list_nominators): a nominator deposits by sending TON with the comment "d"
// and asks to withdraw with "w" (paid at once when the pool holds enough: one TON transfer larger than
// the request, or the payout and the returned request); the validator's process_withdraw_requests#2
// pays the queued nominators, one TON transfer each.
import { ELECTOR } from '../addresses';
import type { Node } from '../tree';
import type { Matcher } from './matcher';

export const ELECTOR_OP = { newStake: 0x4e73744b, newStakeOk: 0xf374484c, recoverStake: 0x47657424, recoverStakeOk: 0xf96f7324 } as const;
const PROCESS_WITHDRAW_REQUESTS = 0x2;

const electionDeposit: Matcher = (node, ctx) => {
  if (!node.free || node.destination !== ELECTOR) return;
  const ok = node.child(ELECTOR_OP.newStakeOk);
  ctx.claim('election_deposit', ok ? [node, ok] : [node], { source: node.source, amount: node.value }, !ok);
};

const electionRecover: Matcher = (node, ctx) => {
  if (!node.free || node.destination !== ELECTOR) return;
  const ok = node.child(ELECTOR_OP.recoverStakeOk);
  ctx.claim('election_recover', ok ? [node, ok] : [node], { source: node.source, amount: ok ? ok.value : null }, !ok);
};

const isPool = (address: string | null, ctx: Parameters<Matcher>[1]) => ctx.info(address).nominatorPool === true;

const nominatorDeposit: Matcher = (node, ctx) => {
  if (!node.free || node.comment() !== 'd' || !isPool(node.destination, ctx)) return;
  ctx.claim('stake_deposit', [node, ...node.aux()], {
    source: node.source,
    destination: node.destination,
    amount: node.value,
    staking_data: { provider: 'nominator' },
  }, node.failed);
};

const nominatorWithdrawRequest: Matcher = (node, ctx) => {
  if (!node.free || node.comment() !== 'w' || !isPool(node.destination, ctx)) return;
  const paid = node.children.filter((c) => c.free && c.isTonTransfer);
  // Paid at once: one transfer worth more than the request, or the payout (first) and the request's change.
  let payout: Node | null = null;
  if (paid.length === 1 && paid[0]!.value > node.value) payout = paid[0]!;
  else if (paid.length === 2) payout = paid[0]!;
  const nodes = [node, ...node.aux(), ...(payout ? paid : [])];
  ctx.claim(payout ? 'stake_withdrawal' : 'stake_withdrawal_request', nodes, {
    source: node.source,
    destination: node.destination,
    amount: payout?.value ?? null,
    staking_data: { provider: 'nominator' },
  }, node.failed);
};

/** The validator's payout of queued withdrawals: each payment is one nominator's withdrawal. */
const nominatorPayout: Matcher = (node, ctx) => {
  if (!node.free || !node.isTonTransfer || node.parent?.opcode !== PROCESS_WITHDRAW_REQUESTS || !isPool(node.source, ctx)) return;
  ctx.claim('stake_withdrawal', [node], {
    source: node.destination,
    destination: node.source,
    amount: node.value,
    staking_data: { provider: 'nominator' },
  }, node.failed);
};

export const validatorMatchers = { electionDeposit, electionRecover, nominatorDeposit, nominatorWithdrawRequest, nominatorPayout };
