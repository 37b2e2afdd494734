// Liquid staking. Tonstakers: burning tsTON reaches the pool as a burn notification forwarded by the
// tsTON master (#319b0cdc); the pool pays TON at once (#0a77535c, stake_withdrawal) or mints a payout
// NFT through its payout collection (#1674b0a0, stake_withdrawal_request). Ethena: staked USDe sent to
// the unstake contract, which mints the cooldown receipt (mint#642b7d07 carrying #b2583ed5).
import { OPS } from '../bodies';
import type { Node } from '../tree';
import { OP, readBurn, transferNodes } from './jettons';
import type { Matcher } from './matcher';

const TONSTAKERS = { burnToPool: 0x319b0cdc, payout: 0x0a77535c, mintPayoutNft: 0x1674b0a0 };
const ETHENA = { mint: OPS.jetton_mint, cooldownReceipt: 0xb2583ed5 };

const tonstakers: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== TONSTAKERS.burnToPool) return;
  const notification = node.parent;
  const burn = notification?.parent;
  if (notification?.opcode !== OP.burnNotification || burn?.opcode !== OP.burn) return;
  const wallet = ctx.jettonWallet(burn.destination);
  const burnt = readBurn(burn.body()).amount;
  const payout = node.child(TONSTAKERS.payout);
  const mintNft = node.child(TONSTAKERS.mintPayoutNft);
  const nodes: Node[] = [burn, notification, node];
  if (payout) {
    ctx.claim('stake_withdrawal', [...nodes, payout], {
      source: burn.source,
      destination: node.destination,
      asset: wallet?.jetton ?? notification.destination,
      amount: payout.value - node.value,
      staking_data: { provider: 'liquid_staking', ts_nft: null, tokens_burnt: burnt },
    });
  } else if (mintNft) {
    const item = mintNft.children.find((c) => c.kind === 'tx');
    ctx.claim('stake_withdrawal_request', [...nodes, mintNft], {
      source: burn.source,
      source_secondary: burn.destination,
      destination: node.destination,
      asset: wallet?.jetton ?? notification.destination,
      amount: burnt,
      staking_data: { provider: 'liquid_staking', ts_nft: item?.destination ?? null },
    });
  }
};

const ethenaUnstake: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== OP.transfer) return;
  const { notify, nodes } = transferNodes(node);
  const mint = notify?.child(ETHENA.mint);
  const receipt = mint?.child(ETHENA.cooldownReceipt);
  if (!notify || !mint || !receipt) return;
  const wallet = ctx.jettonWallet(node.destination);
  if (!wallet) return;
  const s = receipt.bodyAfterOp();
  s.skip(64);
  const minted = s.loadCoins();
  const t = node.bodyAfterOp();
  t.skip(64);
  const amount = t.loadCoins();
  const excesses = nodes.flatMap((n) => n.childrenWith(OP.excesses));
  ctx.claim('stake_withdrawal_request', [...nodes, ...excesses, mint, receipt], {
    source: wallet.owner,
    source_secondary: node.destination,
    destination: notify.destination,
    asset: wallet.jetton,
    amount,
    staking_data: { provider: 'ethena', tokens_minted: minted },
  });
};

export const stakingMatchers = { tonstakers, ethenaUnstake };
