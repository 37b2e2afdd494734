// Tonstakers (liquid staking, tsTON). Deposit: TON to the pool with deposit#47d54391; the pool asks the
// tsTON master to mint (#1674b0a0), which credits the staker's wallet (internal_transfer). Withdrawal:
// burning tsTON reaches the pool as the master's withdraw request (#319b0cdc, after the wallet's burn
// notification); the pool pays TON at once (#0a77535c) or, when it lacks liquidity, mints a payout NFT
// through its payout collection (#1674b0a0, stake_withdrawal_request). At the end of the round the pool
// distributes: the payout NFT burns itself (#f127fe4e), notifies the pool (#ed58b0b2 query_id
// amount:Coins owner) and the pool pays the owner (#db3b8abd): the delayed stake_withdrawal.
import type { Node } from '../tree';
import { OP, readBurn, internalTransferOf, step } from './jettons';
import type { Matcher } from './matcher';

export const TONSTAKERS = {
  deposit: 0x47d54391,
  withdrawRequest: 0x319b0cdc,
  payout: 0x0a77535c,
  mint: 0x1674b0a0,
  nftBurn: 0xf127fe4e,
  nftBurnNotification: 0xed58b0b2,
  distributedAsset: 0xdb3b8abd,
  startDistribution: 0x1140a64f,
} as const;

/** The fee the pool keeps from every deposit. */
const DEPOSIT_FEE = 1_000_000_000n;

const deposit: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const mint = node.child(TONSTAKERS.mint);
  const internal = mint?.child(OP.internalTransfer);
  if (!mint || !internal) return;
  const notify = internal.child(OP.notify);
  const ok = !node.failed;
  ctx.claim('stake_deposit', [node, ...step(mint), ...step(internal), ...step(notify)], {
    source: node.source,
    destination: node.destination,
    amount: node.value - DEPOSIT_FEE,
    asset: internal.source,
    staking_data: { provider: 'liquid_staking', tokens_minted: ok ? internalTransferOf(internal).amount : null },
  }, !ok);
};

/** Burning tsTON: paid at once, or a payout NFT minted (failed when the request minted nothing). */
const withdraw: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const notification = node.child(OP.burnNotification);
  const request = notification?.child(TONSTAKERS.withdrawRequest);
  if (!notification || !request) return;
  const burnt = readBurn(node.body()).amount;
  const payout = request.child(TONSTAKERS.payout);
  const mintNft = payout ? undefined : request.child(TONSTAKERS.mint);
  if (!payout && !mintNft) return;
  const nodes: Node[] = [node, ...step(notification), ...step(request)];
  const asset = request.source;
  if (payout) {
    ctx.claim('stake_withdrawal', [...nodes, ...step(payout)], {
      source: node.source,
      destination: request.destination,
      asset,
      amount: payout.value - request.value,
      staking_data: { provider: 'liquid_staking', ts_nft: null, tokens_burnt: burnt },
    }, node.failed);
    return;
  }
  const item = mintNft!.children.find((c) => c.kind === 'tx');
  ctx.claim('stake_withdrawal_request', [...nodes, ...step(mintNft)], {
    source: node.source,
    source_secondary: node.destination,
    destination: request.destination,
    asset,
    amount: burnt,
    staking_data: { provider: 'liquid_staking', ts_nft: item?.destination ?? null },
  }, node.failed || !item);
};

/** The pool that started the distribution a payout NFT's burn belongs to: the sender of the round's start. */
function distributingPool(n: Node): string | null {
  for (let p: Node | null = n.parent; p; p = p.parent) {
    if (p.opcode === TONSTAKERS.startDistribution) return p.source;
    if (p.opcode !== TONSTAKERS.nftBurn && p.opcode !== TONSTAKERS.nftBurnNotification && p.opcode !== TONSTAKERS.distributedAsset) break;
  }
  return null;
}

/** The delayed withdrawal: the payout NFT burnt at the round's end and the pool's payment to its owner. */
const delayedWithdrawal: Matcher = (node, ctx) => {
  const notification = node.parent;
  const burn = notification?.parent;
  if (!node.free || notification?.opcode !== TONSTAKERS.nftBurnNotification || burn?.opcode !== TONSTAKERS.nftBurn) return;
  const s = notification.bodyAfterOp();
  s.skip(64);
  const amount = s.loadCoins();
  const owner = s.loadAddress().toRawString().toUpperCase();
  ctx.claim('stake_withdrawal', [burn, ...step(notification), ...step(node)], {
    source: owner,
    destination: distributingPool(notification),
    amount: node.value,
    staking_data: { provider: 'liquid_staking', ts_nft: notification.source, tokens_burnt: amount },
  }, node.failed);
};

export const tonstakersMatchers = { deposit, withdraw, delayedWithdrawal };
