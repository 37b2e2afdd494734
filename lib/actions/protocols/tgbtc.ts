// tgBTC (TON Teleport BTC). The protocol's contracts report each step in an external-out log, and the
// actions are built from those logs with the messages around them:
// - mint (peg-in): the user's wallet sends the Bitcoin transaction with its proof to the teleport
//   contract, which checks it with helper contracts, logs mint#77a80ef3 (amount, recipient, Bitcoin
//   txid) and asks the tgBTC master to mint (jetton_mint), the master's internal_transfer reaching the
//   recipient's wallet;
// - burn (peg-out): a jetton burn whose notification the master forwards to the bridge, which logs
//   burn#ca444ce6 (amount, user, peg-out contract) and deploys the peg-out contract;
// - new key: the DKG contract logs #453443a6 (timestamp, new public key) and sends new_key#690f357a to
//   the bridge, which logs #27756729 (amount moved, key, peg-out contract).
// A log whose surrounding flow is not in the trace (older contract versions, or a step that ran in
// another trace) is still an action: the `_fallback` types, with what the log itself says.
import type { Slice } from '@ton/core';
import { OPS } from '../bodies';
import { loadAddr } from '../cells';
import type { Node } from '../tree';
import { OP } from './jettons';
import type { Matcher } from './matcher';

export const TGBTC = {
  dkgLog: 0x453443a6, // timestamp:uint64 pubkey:bits256
  newKey: 0x690f357a, // query_id:uint64 pubkey:bits256
  newKeyLog: 0x27756729, // amount:Coins pubkey:bits256 pegout:MsgAddress
  mintLog: 0x77a80ef3, // amount:Coins recipient:MsgAddress txid:bits256 (Bitcoin's byte order reversed)
  burnLog: 0xca444ce6, // amount:Coins user:MsgAddress pegout:MsgAddress
} as const;

const hex = (s: Slice, bytes = 32) => s.loadBuffer(bytes).toString('hex');

/** A log's fields after its opcode, or null when the body is not that layout to the last bit. */
function readExact<T>(log: Node, read: (s: Slice) => T): T | null {
  try {
    const s = log.bodyAfterOp();
    const out = read(s);
    return s.remainingBits === 0 ? out : null;
  } catch {
    return null;
  }
}

const logOf = (n: Node, op: number) => n.children.find((c) => c.kind === 'log' && c.opcode === op);

/** A log with the transaction that wrote it (when no other action holds it): the action starts there. */
const withEmitter = (log: Node): Node[] => (log.parent?.free && log.parent.kind === 'tx' ? [log.parent, log] : [log]);

/** The first message of the chain that ended at `node`'s contract: the topmost ancestor sent to that contract. */
function entry(node: Node, contract: string): Node | null {
  let found: Node | null = null;
  for (let n: Node | null = node; n; n = n.parent) if (n.kind === 'tx' && n.destination === contract) found = n;
  return found;
}

const dkg: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'log' || node.opcode !== TGBTC.dkgLog || !node.parent) return;
  const log = readExact(node, (s) => ({ timestamp: s.loadUintBig(64), pubkey: hex(s) }));
  if (!log) return;
  const emitter = node.tx.account;
  const request = node.parent.children.find((c) => c.kind === 'tx' && c.opcode === TGBTC.newKey);
  const moved = request && logOf(request, TGBTC.newKeyLog);
  const result = moved && readExact(moved, (s) => ({ amount: s.loadCoins(), pubkey: hex(s), pegout: loadAddr(s) }));
  if (request && result) {
    ctx.claim('tgbtc_new_key', [...withEmitter(node), request, ...request.descendants()], {
      source: emitter,
      source_secondary: log.pubkey,
      destination: request.destination,
      destination_secondary: result.pegout,
      value: log.timestamp,
      amount: result.amount,
    }, request.failed);
    return;
  }
  ctx.claim('tgbtc_dkg_log_fallback', withEmitter(node), { source: emitter, asset: log.pubkey, value: log.timestamp });
};

const mint: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'log' || node.opcode !== TGBTC.mintLog || !node.parent) return;
  const log = readExact(node, (s) => ({ amount: s.loadCoins(), recipient: loadAddr(s), txid: Buffer.from(s.loadBuffer(32)).reverse().toString('hex') }));
  if (!log) return;
  const teleport = node.tx.account;
  const request = node.parent.children.find((c) => c.kind === 'tx' && c.opcode === OPS.jetton_mint);
  if (!request) {
    ctx.claim('tgbtc_mint_fallback', withEmitter(node), { destination: log.recipient, asset_secondary: log.txid, amount: log.amount });
    return;
  }
  const internal = request.child(OP.internalTransfer);
  const start = entry(node.parent, teleport) ?? node.parent;
  ctx.claim('tgbtc_mint', [start, ...start.descendants()], {
    source: start.source,
    source_secondary: teleport,
    destination: log.recipient,
    destination_secondary: internal?.destination ?? null,
    asset: request.destination,
    asset_secondary: log.txid,
    amount: log.amount,
  }, node.parent.failed || request.failed);
};

const burn: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'log' || node.opcode !== TGBTC.burnLog || !node.parent) return;
  const amount = node.bodyAfterOp().loadCoins();
  const log = readExact(node, (s) => ({ amount: s.loadCoins(), user: loadAddr(s), pegout: loadAddr(s) }));
  // The bridge hears of the burn from the master, which heard of it from the burning wallet.
  const forwarded = node.parent;
  const notification = forwarded.opcode === OP.burnNotification ? forwarded.parent : null;
  const burnt = notification?.opcode === OP.burnNotification ? notification.parent : null;
  if (!log || !notification || !burnt || burnt.opcode !== OP.burn) {
    ctx.claim('tgbtc_burn_fallback', withEmitter(node), { amount });
    return;
  }
  const wallet = ctx.jettonWallet(burnt.destination);
  ctx.claim('tgbtc_burn', [burnt, ...burnt.descendants()], {
    source: wallet?.owner ?? burnt.source,
    source_secondary: burnt.destination,
    destination: log.pegout,
    asset: wallet?.jetton ?? notification.destination,
    amount: log.amount,
  }, forwarded.failed);
};

/** The bridge's new-key log without the DKG round that asked for it in the trace. */
const newKeyFallback: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'log' || node.opcode !== TGBTC.newKeyLog) return;
  const log = readExact(node, (s) => ({ amount: s.loadCoins(), pubkey: hex(s), pegout: loadAddr(s) }));
  if (!log) return;
  ctx.claim('tgbtc_new_key_fallback', withEmitter(node), { source_secondary: log.pubkey, destination: node.tx.account, destination_secondary: log.pegout, amount: log.amount });
};

export const tgbtcMatchers = { dkg, mint, burn, newKeyFallback };
