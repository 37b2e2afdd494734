// bemo liquid staking. One "financial" contract is the pool and the jetton master; two generations:
// stTON (the first, at a known address) and bmTON (bemo-fi/smart-contracts-v2), the same flow under
// other opcodes:
// - deposit: TON to the financial (stTON: an empty body or op 0; bmTON: an empty body,
//   simple_transfer#6eddbc97 or stake#4253c4d5 query_id forward_ton_amount:Coins forward_payload); it mints
//   at the pool's rate into the sender's wallet (internal_transfer, from = the financial). stTON keeps the
//   value minus its 0.05 TON processing fee; bmTON the value minus the TON it forwards to the wallet. A
//   refusal (masterchain sender, too little value) throws: the deposit bounces, nothing is minted.
// - withdrawal request: burning the jettons reaches the financial as the wallet's burn_notification; it
//   deploys an unstake request contract (stTON: op 100, bmTON: deploy_unstake_request#10a1ce75; owner
//   ton_amount:Coins jetton_amount:Coins …) that holds the TON owed until the lockup ends. A refused
//   notification bounces (the wallet keeps the jettons).
// - withdrawal: once unlocked, anyone pokes the request contract; it sends unstake (stTON: op 10,
//   bmTON: #492ab1b3; index:uint64 owner ton_amount:Coins jetton_amount:Coins …) to the financial, which
//   pays the owner (stTON: plain TON; bmTON: unstake_notification#90c80a07) or, short of TON, returns the
//   request (stTON: op 101, bmTON: #38633538) for later: that withdrawal did not happen.
// stTON's small opcodes are bemo's only at its financial; bmTON's own opcodes identify it anywhere.
import { BEMO_FINANCIALS } from '../addresses';
import { loadAddr } from '../cells';
import type { Node } from '../tree';
import { internalTransferOf, OP, readBurn, step } from './jettons';
import type { Matcher } from './matcher';

export const BEMO = {
  simpleTransfer: 0x6eddbc97,
  stake: 0x4253c4d5,
  deployUnstakeRequest: 0x10a1ce75,
  unstake: 0x492ab1b3,
  unstakeNotification: 0x90c80a07,
  returnUnstakeRequest: 0x38633538,
} as const;

/** stTON's opcodes (the first financial). */
export const BEMO_STTON = { deployUnstakeRequest: 100, unstake: 10, returnUnstakeRequest: 101 } as const;

/** stTON's deposit processing fee, kept from every deposit. */
const STTON_DEPOSIT_FEE = 50_000_000n;

const provider = 'bemo';

const isStton = (address: string | null) => BEMO_FINANCIALS.has(address ?? '');

/** A deposit's request: bmTON's opcodes anywhere, an empty body or op 0 only to stTON's financial. */
const isDepositRequest = (node: Node) =>
  node.opcode === BEMO.stake || node.opcode === BEMO.simpleTransfer || ((node.opcode === null || node.opcode === 0) && isStton(node.destination));

/** The financial's mint: an internal_transfer it sends as the jetton's master (from = itself). */
function mintOf(node: Node): Node | undefined {
  return node.child((c) => c.opcode === OP.internalTransfer && c.kind === 'tx' && c.source === node.destination && internalTransferOf(c).from === node.destination);
}

const deposit: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx' || !isDepositRequest(node)) return;
  const mint = node.failed ? undefined : mintOf(node);
  // An empty body to an unknown address is no deposit; a known financial or bemo's opcode that minted nothing is a failed one.
  const notify = mint?.child(OP.notify);
  ctx.claim('stake_deposit', [node, ...node.aux(), ...step(mint), ...step(notify)], {
    source: node.source,
    destination: node.destination,
    amount: !mint ? node.value : isStton(node.destination) ? node.value - STTON_DEPOSIT_FEE : node.value - mint.value,
    asset: node.destination,
    staking_data: { provider, tokens_minted: mint && !mint.failed ? internalTransferOf(mint).amount : null },
  }, !mint || mint.failed);
};

/** deploy_unstake_request's owner and amounts. */
function readDeploy(n: Node) {
  const s = n.bodyAfterOp();
  const owner = loadAddr(s);
  return { owner, ton: s.loadCoins(), jettons: s.loadCoins() };
}

/** Burning bemo's jetton: the financial's unstake request (a request contract deployed), or a refusal. */
const withdrawalRequest: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const notification = node.child(OP.burnNotification);
  const financial = notification?.destination ?? null;
  if (!notification) return;
  const known = isStton(financial);
  const deployOp = known ? BEMO_STTON.deployUnstakeRequest : BEMO.deployUnstakeRequest;
  const request = notification.child((c) => c.opcode === deployOp && c.source === financial);
  if (!request && !(known && notification.failed)) return;
  const burnt = readBurn(node.body()).amount;
  const owed = request ? readDeploy(request) : null;
  const wallet = ctx.jettonWallet(node.destination);
  ctx.claim('stake_withdrawal_request', [node, ...step(notification), ...step(request)], {
    source: wallet?.owner ?? node.source,
    source_secondary: node.destination,
    destination: financial,
    destination_secondary: request?.destination ?? null,
    asset: financial,
    amount: owed?.ton ?? null,
    staking_data: { provider, tokens_burnt: burnt, ts_nft: null },
  }, node.failed || notification.failed || !request || request.failed);
};

/** The request contract's unstake to the financial: the owner paid, or the request sent back for later. */
const withdrawal: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const v1 = node.opcode === BEMO_STTON.unstake;
  if (v1 && !isStton(node.destination)) return;
  const s = node.bodyAfterOp();
  s.skip(64);
  const owner = loadAddr(s);
  s.loadCoins();
  const jettons = s.loadCoins();
  const paid = node.child((c) => c.destination === owner && c.kind === 'tx' && (v1 ? c.isTonTransfer : c.opcode === BEMO.unstakeNotification));
  const returned = paid ? undefined : node.child(v1 ? BEMO_STTON.returnUnstakeRequest : BEMO.returnUnstakeRequest);
  if (!paid && !returned && !node.failed) return;
  // The poke that released the request, when it came as a message from someone (not an external).
  const poke = node.parent && node.parent.kind === 'tx' && node.parent.tx.account === node.source && node.parent.msg?.source ? node.parent : null;
  ctx.claim('stake_withdrawal', [...(poke?.free ? [poke] : []), node, ...step(paid), ...step(returned)], {
    source: owner,
    destination: node.destination,
    source_secondary: node.source,
    asset: node.destination,
    amount: paid ? paid.value : null,
    staking_data: { provider, tokens_burnt: jettons, ts_nft: null },
  }, !paid || node.failed);
};

export const bemoMatchers = { deposit, withdrawalRequest, withdrawal };
