// Ethena on TON: staking USDe is a jetton transfer to the staking pool, which mints tsUSDe to the staker
// (the standard mint request answered by an internal_transfer); unstaking sends tsUSDe to the unstake
// contract, which mints the cooldown receipt: a timelocked tsUSDe transfer (#b2583ed5, an
// internal_transfer body) to the staker's wallet.
import { ETHENA_TSUSDE, ETHENA_USDE } from '../addresses';
import { OPS } from '../bodies';
import type { Block, Node } from '../tree';
import { OP, transferOf, step, transferNodes } from './jettons';
import type { Matcher } from './matcher';

/** The minter's mint (the jetton-contract mint the body table decodes) and the timelock's transfer. */
export const ETHENA = { mint: OPS.jetton_mint, timelockTransfer: 0xb2583ed5 } as const;

/** USDe into the pool, tsUSDe minted back: anchored on the mint, whose request the pool sent on the transfer's notification. */
const deposit: Matcher = (node, ctx) => {
  const mint: Block = node.block;
  const notify = node.parent;
  const transfer = notify?.block;
  if (mint.type !== 'jetton_mint' || mint.parent || mint.first !== node || notify?.opcode !== OP.notify || transfer?.type !== 'jetton_transfer' || transfer.parent) return;
  if (transfer.fields.asset !== ETHENA_USDE || mint.fields.asset !== ETHENA_TSUSDE) return;
  ctx.claim('stake_deposit', [...transfer.nodes, ...mint.nodes], {
    source: transfer.fields.source ?? null,
    destination: transfer.fields.destination ?? null,
    amount: transfer.fields.amount ?? null,
    asset: ETHENA_TSUSDE,
    asset2: ETHENA_USDE,
    staking_data: { provider: 'ethena', tokens_minted: mint.fields.amount ?? null },
  }, transfer.failed || mint.failed);
};

/** The receipt's amount: an internal_transfer body (query_id amount:Coins …) under its own opcode. */
function receiptAmount(receipt: Node): bigint {
  const s = receipt.bodyAfterOp();
  s.skip(64);
  return s.loadCoins();
}

/** tsUSDe to the unstake contract; the cooldown receipt comes back timelocked. */
const withdrawalRequest: Matcher = (node, ctx) => {
  if (!node.free) return;
  const { internal, notify, nodes } = transferNodes(node);
  const mint = notify?.child(ETHENA.mint);
  const receipt = mint?.child(ETHENA.timelockTransfer);
  const from = ctx.jettonWallet(node.destination);
  const to = ctx.jettonWallet(receipt?.destination ?? null);
  if (!internal || !mint || !receipt || !from || !to) return;
  // Both wallets are the staker's; the transfer lands on the master itself, the receipt is the minter's.
  if (from.owner !== node.source || to.owner !== node.source || from.jetton !== internal.destination || to.jetton !== receipt.source) return;
  ctx.claim('stake_withdrawal_request', [...nodes, ...step(mint), ...step(receipt)], {
    source: node.source,
    source_secondary: node.destination,
    destination: mint.source,
    asset: from.jetton,
    amount: transferOf(node).amount,
    staking_data: { provider: 'ethena', tokens_minted: receiptAmount(receipt) },
  }, node.failed || receipt.failed);
};

export const ethenaMatchers = { deposit, withdrawalRequest };
