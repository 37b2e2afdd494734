// swap.coffee swaps: a vault (jetton vault after the user's notification, or the TON vault after
// deposit#c0ffee00) sends swap#c0ffee20 to the pool; the pool logs it and sends payout#c0ffee21
// (query_id, recipient, amount) to the out vault, which transfers the jetton or pays TON.
import type { DexTransfer } from '../model';
import { loadAddr } from '../cells';
import { outgoingTransfer, swapFields, vaultLeg, type Leg } from './dex';
import { OP } from './jettons';
import type { Matcher } from './matcher';

export const COFFEE = { tonDeposit: 0xc0ffee00, swap: 0xc0ffee20, payout: 0xc0ffee21 };


const swap: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== COFFEE.swap || !node.parent) return;
  const incoming = vaultLeg(node.parent, ctx, [COFFEE.tonDeposit]);
  if (!incoming) return;
  const payout = node.child(COFFEE.payout);
  if (!payout) return;
  let outgoing: Leg;
  const transfer = payout.child(OP.transfer);
  if (transfer) outgoing = outgoingTransfer(transfer, ctx);
  else {
    const s = payout.bodyAfterOp();
    s.skip(64);
    const recipient = loadAddr(s);
    const t: DexTransfer = { amount: s.loadCoins(), asset: null, source: payout.source, source_jetton_wallet: null, destination: recipient, destination_jetton_wallet: null };
    outgoing = { transfer: t, nodes: payout.children.filter((c) => c.kind === 'tx') };
  }
  const logs = node.children.filter((c) => c.kind === 'log');
  ctx.claim(
    'jetton_swap',
    [...incoming.nodes, node, ...logs, payout, ...outgoing.nodes],
    swapFields({ dex: 'coffee', incoming: incoming.transfer, outgoing: outgoing.transfer }),
    node.failed,
  );
};

export const coffeeMatchers = { swap };
