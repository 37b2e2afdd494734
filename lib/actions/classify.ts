// classify(trace, interfaces) → Action[]: the node tree, a base block per node, the protocol matchers
// in order, then the blocks as action records (nested blocks as child actions).
import crypto from 'node:crypto';
import { ENCRYPTED_COMMENT_OP, readComment } from './cells';
import type { Action, Interfaces, Trace, TraceMessage } from './model';
import { MATCHERS } from './protocols';
import { ANY, TON, type Anchor } from './protocols/matcher';
import { Block, Context, Node, buildTree } from './tree';
import { intendedMessages } from './wallet';

/** Types whose children toncenter does not expose as nested actions (its v1 set). */
const FLAT_TYPES = new Set([
  'call_contract', 'contract_deploy', 'jetton_burn', 'tick_tock', 'jetton_transfer', 'nft_transfer', 'nft_mint',
  'jetton_mint', 'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request',
  'dex_deposit_liquidity', 'jetton_swap', 'change_dns', 'delete_dns', 'renew_dns', 'subscribe',
  'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit', 'election_recover', 'auction_bid',
]);

const isTonTransferOp = (op: number | null) => op === null || op === 0 || op === ENCRYPTED_COMMENT_OP;

/** The block a node starts in: its message as a TON transfer, a contract call or a tick-tock. */
function baseBlock(node: Node): Block {
  const m = node.msg;
  if (node.tx.tickTock && node.kind === 'tx') {
    const b = new Block('tick_tock', [node], true);
    b.fields = { source: node.tx.account };
    b.failed = node.failed;
    return b;
  }
  if (m && isTonTransferOp(m.opcode) && m.source !== null && m.destination !== null) {
    const b = new Block('ton_transfer', [node], true);
    const { comment, encrypted } = m.opcode === null ? { comment: null, encrypted: false } : readComment(node.cell?.beginParse() ?? null);
    b.fields = { value: m.value, source: m.source, destination: m.destination, ton_transfer_data: { content: comment, encrypted } };
    if (node.failed) {
      if (m.bounce === true) b.failed = true;
      else if (node.tx.endStatus === 'uninit') b.failed = false;
      else b.failed = !(node.tx.computeExitCode === null && node.tx.origStatus === 'active'); // skipped for no gas
    }
    return b;
  }
  const b = new Block('call_contract', [node], true);
  b.fields = { opcode: m?.opcode ?? null, value: m?.value ?? null, source: m?.source ?? null, destination: m?.destination ?? null };
  b.failed = node.failed && !(!m?.value && m?.opcode);
  return b;
}


// One-shot hashing (crypto.hash) costs a fifth of a Hash object's for inputs this short; every action pays it.
const sha256Base64: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'base64') : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('base64');

function actionId(key: string, type: string): string {
  return sha256Base64(key + type);
}

function baseRecord(block: Block, type: string, trace: Trace): Action {
  const first = block.first;
  const txs = new Set<string>();
  const accounts = new Set<string>();
  let startLt = first.tx.lt;
  let endLt = first.tx.lt;
  let startUtime = first.tx.now;
  let endUtime = first.tx.now;
  let mc = 0;
  for (const n of block.nodes) {
    txs.add(n.tx.hash);
    accounts.add(n.tx.account);
    // An action starts when its first message was sent (toncenter's start_lt), ends with its last transaction.
    const sent = n.msg?.createdLt ?? n.tx.lt;
    if (sent < startLt) startLt = sent;
    if (n.tx.lt > endLt) endLt = n.tx.lt;
    if (n.tx.now < startUtime) startUtime = n.tx.now;
    if (n.tx.now > endUtime) endUtime = n.tx.now;
    if ((n.tx.mcSeqno ?? 0) > mc) mc = n.tx.mcSeqno ?? 0;
  }
  const initiating = first.parent;
  if (initiating) {
    txs.add(initiating.tx.hash);
    accounts.add(initiating.tx.account);
  }
  return {
    type,
    action_id: actionId(first.msg?.hash ?? first.tx.hash, type),
    trace_id: trace.traceId,
    tx_hashes: [...txs],
    accounts: [...accounts],
    start_lt: startLt,
    end_lt: endLt,
    start_utime: startUtime,
    end_utime: endUtime,
    trace_end_lt: trace.endLt,
    trace_end_utime: trace.endUtime,
    trace_mc_seqno_end: trace.mcSeqnoEnd,
    mc_seqno_end: mc,
    source: null,
    source_secondary: null,
    destination: null,
    destination_secondary: null,
    asset: null,
    asset_secondary: null,
    asset2: null,
    asset2_secondary: null,
    value: null,
    amount: null,
    opcode: null,
    success: !block.failed,
    parent_action_id: null,
    ancestor_type: null,
  };
}

/** `WC:HEX64` (upper case): an account, not an external address or another value in an address field. */
function isRawAddress(x: string): boolean {
  const colon = x.length - 65;
  if (colon < 1 || x.charCodeAt(colon) !== 58) return false;
  for (let i = colon + 1; i < x.length; i++) {
    const c = x.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70))) return false;
  }
  for (let i = x.charCodeAt(0) === 45 ? 1 : 0; i < colon; i++) {
    const c = x.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return x.charCodeAt(0) !== 45 || colon > 1;
}

function toRecord(block: Block, trace: Trace): Action {
  const a = baseRecord(block, block.type, trace);
  Object.assign(a, block.fields);
  const extra = [a.source, a.source_secondary, ...(block.ghost ? [] : [a.destination, a.destination_secondary])];
  const accounts = new Set(a.accounts);
  for (const x of extra) if (x && isRawAddress(x)) accounts.add(x);
  a.accounts = [...accounts];
  return a;
}

/** A block not worth an action: a log, or the external message that started the trace. */
const skipped = (b: Block) => b.type === 'call_contract' && b.base && (b.nodes[0]!.destination === null || b.nodes[0]!.source === null);

function serialize(blocks: Block[], trace: Trace, out: Action[], parent: Action | null, ancestors: string[]) {
  for (const block of blocks) {
    if (skipped(block)) continue;
    const action = toRecord(block, trace);
    if (parent && action.action_id === parent.action_id) continue;
    if (parent) {
      action.parent_action_id = parent.action_id;
      action.ancestor_type = [...new Set(ancestors)];
    }
    out.push(action);
    if (block.nested && !FLAT_TYPES.has(block.type) && block.children.length > 0) {
      serialize(block.children, trace, out, action, [...ancestors, block.type]);
    }
  }
}

function deployments(nodes: Node[], trace: Trace, out: Action[]) {
  for (const n of nodes) {
    if (!n.isDeploy) continue;
    const b = new Block('contract_deploy', [n]);
    b.fields = { opcode: n.opcode, source: n.source, destination: n.destination, value: n.msg?.value ?? null };
    b.failed = n.failed;
    out.push(toRecord(b, trace));
  }
}

/** Nodes by their message's opcode (-1: no opcode), each list in the trace's breadth-first order. */
export function opcodeIndex(nodes: Node[]): Map<number, Node[]> {
  const index = new Map<number, Node[]>();
  for (const n of nodes) {
    const k = n.opcode ?? -1;
    const list = index.get(k);
    if (list) list.push(n);
    else index.set(k, [n]);
  }
  return index;
}

/** The nodes a matcher is tried on, in breadth-first order (`tonNodes`: the plain transfers, found once per trace). */
export function candidates(anchor: Anchor, nodes: Node[], index: Map<number, Node[]>, tonNodes: () => Node[]): Node[] {
  if (anchor === ANY) return nodes;
  if (anchor === TON) return tonNodes();
  if (anchor.length === 1) return index.get(anchor[0]!) ?? [];
  // The anchor's opcodes' lists, merged back into breadth-first order (a node has one opcode: no repeats).
  let found: Node[] | undefined;
  let merged: Node[] | undefined;
  for (const op of anchor) {
    const list = index.get(op);
    if (!list) continue;
    if (!found) found = list;
    else merged = (merged ?? [...found]).concat(list);
  }
  if (!merged) return found ?? [];
  return merged.sort((a, b) => a.pos - b.pos);
}

function run(root: Node, nodes: Node[], interfaces: Interfaces): Context {
  const blocks: Block[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    n.pos = i;
    n.block = baseBlock(n);
    blocks.push(n.block);
  }
  const ctx = new Context(root, nodes, interfaces, blocks);
  const index = opcodeIndex(nodes);
  let ton: Node[] | undefined;
  const tonNodes = () => (ton ??= nodes.filter((n) => n.isTonTransfer));
  for (const m of MATCHERS) {
    for (const n of candidates(m.anchor, nodes, index, tonNodes)) {
      try {
        m.match(n, ctx);
      } catch {
        // a body that does not fit the matcher's layout: not this protocol
      }
    }
  }
  return ctx;
}

const byStart = (a: Block, b: Block) => {
  const x = a.first.tx.lt;
  const y = b.first.tx.lt;
  return x < y ? -1 : x > y ? 1 : 0;
};

/** A failed external that sent nothing: the wallet's intended messages as failed actions. */
function failedExternal(root: Node, trace: Trace, interfaces: Interfaces): Action[] {
  const body = root.cell;
  if (!body) return [];
  const ghosts: Node[] = [];
  for (const m of intendedMessages(body)) {
    const msg: TraceMessage = {
      hash: m.hash,
      source: root.tx.account,
      destination: m.destination,
      value: m.value,
      fwdFee: null,
      bounce: m.bounce,
      bounced: m.bounced,
      createdLt: root.tx.lt,
      opcode: m.opcode,
      body: null,
    };
    const g = new Node(root.tx, msg, 'ghost', m.body);
    g.parent = root;
    root.children.push(g);
    ghosts.push(g);
  }
  if (ghosts.length === 0) return [];
  const ctx = run(root, [root, ...ghosts], interfaces);
  const out: Action[] = [];
  serialize(ctx.blocks.sort(byStart), trace, out, null, []);
  for (const a of out) a.success = false;
  return out;
}

/** The actions of one trace, nested ones included (parent_action_id, ancestor_type). */
export function classify(trace: Trace, interfaces: Interfaces): Action[] {
  if (trace.transactions.length === 0) return [];
  const { root, nodes } = buildTree(trace.transactions);
  const ctx = run(root, nodes, interfaces);
  const out: Action[] = [];
  serialize(ctx.blocks.sort(byStart), trace, out, null, []);
  deployments(nodes, trace, out);
  if (out.length === 0 && root.msg && root.msg.source === null && root.children.length === 0) {
    return failedExternal(root, trace, interfaces);
  }
  return out;
}
