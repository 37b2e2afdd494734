// TON Whales nominator pools (tonwhales/ton-nominators). A member talks to the pool by opcode —
// stake_deposit#7bcd1fef query_id gas_limit:Coins, stake_withdraw#da803efd query_id gas_limit:Coins
// stake:Coins (0: everything) — or by text ("Deposit", "Withdraw"), and the pool answers the member
// with a receipt in the same style: stake_deposit::response#c641e932 or "Stake <amount> accepted";
// stake_withdraw::response#23d421e1 or "Withdraw completed" carrying the stake paid out, or
// stake_withdraw::delayed#74bb3427 or "Withdraw requested. …" when the stake is still in a
// validation round (the request is queued; the member repeats the command later). A refused command
// (pool disabled, stake under the minimum, wrong fee) throws: the message bounces, no receipt.
import type { Node } from '../tree';
import type { Context } from '../tree';
import type { Matcher } from './matcher';

export const WHALES = {
  deposit: 0x7bcd1fef,
  depositResponse: 0xc641e932,
  withdraw: 0xda803efd,
  withdrawDelayed: 0x74bb3427,
  withdrawResponse: 0x23d421e1,
} as const;

const provider = 'whales';

type Command = 'deposit' | 'withdraw';

/** The member's command: by opcode (a whales pool's own), or by text to a pool the index knows. */
function commandOf(node: Node, ctx: Context): Command | null {
  if (node.opcode === WHALES.deposit) return 'deposit';
  if (node.opcode === WHALES.withdraw) return 'withdraw';
  const text = node.comment();
  if (text !== 'Deposit' && text !== 'Withdraw') return null;
  // A text command is a whales pool's when the index knows the pool, or the pool answered with its receipt.
  if (!ctx.info(node.destination).whalesPool && !receipt(node)) return null;
  return text === 'Deposit' ? 'deposit' : 'withdraw';
}

type Receipt = { node: Node; kind: 'accepted' | 'completed' | 'delayed' };

/** The pool's receipt to the member, by opcode or by its text. */
function receipt(node: Node): Receipt | null {
  for (const c of node.children) {
    if (c.kind !== 'tx' || c.destination !== node.source || c.msg?.bounced) continue;
    if (c.opcode === WHALES.depositResponse) return { node: c, kind: 'accepted' };
    if (c.opcode === WHALES.withdrawResponse) return { node: c, kind: 'completed' };
    if (c.opcode === WHALES.withdrawDelayed) return { node: c, kind: 'delayed' };
    const text = c.comment();
    if (text === null) continue;
    if (text.startsWith('Stake ') && text.endsWith(' accepted')) return { node: c, kind: 'accepted' };
    if (text === 'Withdraw completed') return { node: c, kind: 'completed' };
    if (text.startsWith('Withdraw requested.')) return { node: c, kind: 'delayed' };
  }
  return null;
}

/** A member's command, read once for both kinds (one matcher: one pass over the comments of a trace). */
const command: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const c = commandOf(node, ctx);
  if (c === 'deposit') deposit(node, ctx);
  else if (c === 'withdraw') withdraw(node, ctx);
};

const deposit: Matcher = (node, ctx) => {
  const r = receipt(node);
  const ok = r?.kind === 'accepted' && !node.failed;
  ctx.claim('stake_deposit', [node, ...node.aux(), ...(r ? [r.node] : [])], {
    source: node.source,
    destination: node.destination,
    amount: node.value,
    staking_data: { provider },
  }, !ok);
};

/** The stake an opcode withdrawal asks for (0: all of it); null for a text command. */
function asked(node: Node): bigint | null {
  if (node.opcode !== WHALES.withdraw) return null;
  const s = node.bodyAfterOp();
  s.skip(64);
  s.loadCoins();
  return s.loadCoins();
}

const withdraw: Matcher = (node, ctx) => {
  const r = receipt(node);
  const completed = r?.kind === 'completed' && !node.failed;
  const nodes = [node, ...node.aux(), ...(r ? [r.node] : [])];
  const fields = { source: node.source, destination: node.destination, staking_data: { provider } };
  if (completed) {
    ctx.claim('stake_withdrawal', nodes, { ...fields, amount: r.node.value }, false);
    return;
  }
  ctx.claim('stake_withdrawal_request', nodes, { ...fields, amount: asked(node) || null }, !(r?.kind === 'delayed') || node.failed);
};

export const whalesMatchers = { command };
