// Cocoon (decentralised AI inference): payouts to workers, charges of clients, and the owner requests
// to client and proxy contracts. Signed proxy messages (payout, charge, grant refund) are read the way
// toncenter reads them: the payload layout (query_id, new_tokens, expected address) over the message
// body itself, so `new_tokens` and `expected_address` are what those bits say.
import type { Slice } from '@ton/core';
import type { Action } from '../model';
import type { Node } from '../tree';
import type { Matcher } from './matcher';

const OP = {
  payout: 0xa040ad28,
  lastPayout: 0xf5f26a36,
  charge: 0xbb63ff93,
  grantRefund: 0xefd711e1,
  workerProxyRequest: 0x4d725d2c,
  clientProxyRequest: 0x65448ff4,
  payoutToOwner: 0xc59a7cd3,
  excesses: 0x2565934c,
  registerProxy: 0x927c7cb5,
  unregisterProxy: 0x6d49eaf2,
  clientTopUp: 0xf172e6c2,
  clientRegister: 0xc45f9f3b,
  changeSecretHash: 0xa9357034,
  changeSecretHashAndTopUp: 0x8473b408,
  increaseStake: 0x6a1f6a60,
  withdraw: 0xda068e78,
  requestRefund: 0xfafa6cc1,
  ownerWalletSend: 0x9c69f376,
  proxyPayoutRequest: 0x7610e6eb,
} as const;

/** An address as toncenter prints one it cannot resolve: std → `WC:HEX`, external → `len;hex`. */
function loadAnyAddress(s: Slice): string | null {
  const tag = s.preloadUint(2);
  if (tag === 1) {
    s.skip(2);
    const len = s.loadUint(9);
    let hex = '';
    for (let left = len; left > 0; left -= 4) hex += s.loadUint(Math.min(4, left)).toString(16);
    return `${len};${hex}`;
  }
  if (tag === 0) {
    s.skip(2);
    return null;
  }
  s.skip(2);
  if (s.loadBit()) s.skip(s.loadUint(5));
  const wc = tag === 2 ? s.loadInt(8) : (s.skip(9), s.loadInt(32));
  return `${wc}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
}

/** query_id, new_tokens, expected address read over a signed message body. */
function signedPayload(node: Node) {
  const s = node.bodyAfterOp();
  const queryId = s.loadUintBig(64);
  const newTokens = s.loadUintBig(64);
  let expected: string | null = null;
  try {
    expected = loadAnyAddress(s);
  } catch {
    expected = null;
  }
  return { queryId, newTokens, expected };
}

const claimAll = (ctx: Parameters<Matcher>[1], type: string, node: Node, fields: Partial<Action>) =>
  ctx.claim(type, [node, ...node.descendants()], fields, node.failed);

const queryId = (node: Node) => node.bodyAfterOp().loadUintBig(64);

const matcher: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  switch (node.opcode) {
    case OP.payout:
    case OP.lastPayout: {
      const request = node.child(OP.workerProxyRequest);
      const paid = request?.child(OP.payoutToOwner);
      if (!request || !paid) return;
      const p = signedPayload(node);
      const r = request.bodyAfterOp();
      r.skip(64);
      const owner = r.loadAddress();
      const state = r.loadUint(2);
      const tokens = r.loadUintBig(64);
      claimAll(ctx, 'cocoon_worker_payout', node, {
        source: node.source,
        source_secondary: node.destination,
        destination: paid.destination ?? owner.toRawString().toUpperCase(),
        amount: paid.value,
        cocoon_worker_payout_data: {
          payout_type: node.opcode === OP.lastPayout ? 'last' : 'regular',
          query_id: p.queryId,
          new_tokens: p.newTokens,
          worker_state: state,
          worker_tokens: tokens,
        },
      });
      return;
    }
    case OP.charge:
    case OP.grantRefund: {
      const request = node.child(OP.clientProxyRequest);
      if (!request) return;
      const p = signedPayload(node);
      const grant = node.opcode === OP.grantRefund;
      const type = grant ? 'cocoon_grant_refund' : 'cocoon_proxy_charge';
      const fields: Partial<Action> = { source: node.destination, destination: request.destination, amount: grant ? request.value : 0n };
      fields[`${type}_data`] = { query_id: p.queryId, new_tokens_used: p.newTokens, expected_address: p.expected };
      claimAll(ctx, type, node, fields);
      return;
    }
    case OP.registerProxy:
      claimAll(ctx, 'cocoon_register_proxy', node, { source: node.source, destination: node.destination, cocoon_register_proxy_data: { query_id: queryId(node) } });
      return;
    case OP.unregisterProxy: {
      const s = node.bodyAfterOp();
      const q = s.loadUintBig(64);
      claimAll(ctx, 'cocoon_unregister_proxy', node, { source: node.source, destination: node.destination, cocoon_unregister_proxy_data: { query_id: q, seqno: s.loadUint(32) } });
      return;
    }
    case OP.clientRegister: {
      const s = node.bodyAfterOp();
      const q = s.loadUintBig(64);
      claimAll(ctx, 'cocoon_client_register', node, { source: node.source, destination: node.destination, cocoon_client_register_data: { query_id: q, nonce: s.loadUintBig(64) } });
      return;
    }
    case OP.changeSecretHash: {
      const s = node.bodyAfterOp();
      const q = s.loadUintBig(64);
      const hash = s.loadUintBig(256).toString(16).padStart(64, '0');
      claimAll(ctx, 'cocoon_client_change_secret_hash', node, {
        source: node.source,
        destination: node.destination,
        cocoon_client_change_secret_hash_data: { query_id: q, new_secret_hash: hash },
      });
      return;
    }
    case OP.requestRefund:
      claimAll(ctx, 'cocoon_client_request_refund', node, {
        source: node.source,
        destination: node.destination,
        cocoon_client_request_refund_data: { query_id: queryId(node), via_wallet: node.parent?.opcode === OP.ownerWalletSend },
      });
      return;
    case OP.increaseStake: {
      const s = node.bodyAfterOp();
      const q = s.loadUintBig(64);
      const stake = s.loadCoins();
      claimAll(ctx, 'cocoon_client_increase_stake', node, {
        source: node.source,
        destination: node.destination,
        amount: stake,
        cocoon_client_increase_stake_data: { query_id: q, new_stake: stake },
      });
      return;
    }
    case OP.clientTopUp: {
      const s = node.bodyAfterOp();
      const q = s.loadUintBig(64);
      const amount = s.loadCoins();
      claimAll(ctx, 'cocoon_client_top_up', node, { source: node.source, destination: node.destination, amount, cocoon_client_top_up_data: { query_id: q } });
      return;
    }
    case OP.withdraw: {
      const paid = node.children.find((c) => c.kind === 'tx' && c.opcode !== OP.excesses);
      claimAll(ctx, 'cocoon_client_withdraw', node, {
        source: node.source,
        destination: node.destination,
        amount: paid?.value ?? null,
        cocoon_client_withdraw_data: { query_id: queryId(node), withdraw_amount: paid?.value ?? null },
      });
      return;
    }
    case OP.proxyPayoutRequest:
      claimAll(ctx, 'cocoon_proxy_payout', node, { source: node.source, destination: node.destination, cocoon_proxy_payout_data: { query_id: queryId(node) } });
      return;
  }
};

export const cocoonMatchers = { matcher };
