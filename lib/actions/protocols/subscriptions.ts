// Wallet v4 subscription plugins. A payment: the plugin asks the wallet (request#706c7567 query_id
// grams:Coins), the wallet pays it (#f06c7567) and the plugin pays the beneficiary (#73756273).
// Unsubscribing: the wallet tells the plugin to destruct (#64737472), which may answer the beneficiary.
import type { Matcher } from './matcher';

export const SUBSCRIPTION_OP = { request: 0x706c7567, response: 0xf06c7567, payment: 0x73756273, destruct: 0x64737472 } as const;

const subscribe: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const payment = node.child(SUBSCRIPTION_OP.payment);
  if (!payment) return;
  const request = node.parent?.opcode === SUBSCRIPTION_OP.request && node.parent.free ? node.parent : null;
  let amount = node.value;
  if (request) {
    const s = request.bodyAfterOp();
    s.skip(64);
    amount = s.loadCoins();
  }
  ctx.claim('subscribe', request ? [request, node, payment] : [node, payment], {
    source: node.source,
    destination: payment.destination,
    destination_secondary: node.destination,
    amount,
  }, !!request?.failed);
};

const unsubscribe: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx' || node.parent?.opcode === SUBSCRIPTION_OP.destruct) return;
  const answer = node.child(SUBSCRIPTION_OP.destruct);
  ctx.claim('unsubscribe', answer ? [node, answer] : [node], {
    source: node.source,
    destination: answer?.destination ?? null,
    destination_secondary: node.destination,
  }, node.failed);
};

export const subscriptionMatchers = { subscribe, unsubscribe };
