// The shared core: the trace as a tree of nodes (one per delivered message — the transaction it caused —
// plus one per external-out log and per intended message of a failed external), and blocks: a set of
// nodes that became one action. Every node starts in a base block of its own (ton_transfer,
// call_contract, tick_tock); protocol matchers then claim nodes, and the blocks that held them become
// the new block's children (nested actions).
import type { Cell, Slice } from '@ton/core';
import { bocRootData } from '../ton/boc';
import { OPS } from './bodies';
import { cellFromBoc, ENCRYPTED_COMMENT_OP, readComment } from './cells';
import type { Action, AccountInterfaces, Interfaces, TraceMessage, TraceTransaction } from './model';

const EXCESS_OP = OPS.excess;

export class Node {
  parent: Node | null = null;
  readonly children: Node[] = [];
  /** The block that holds this node at the top level. */
  block!: Block;
  /** Its place in the breadth-first order the matchers see nodes in. */
  pos = 0;
  private parsed: Cell | null | undefined;

  constructor(
    /** The transaction the message caused (for a log or an intended message: the one that sent it). */
    readonly tx: TraceTransaction,
    /** The in-message (a log: the external-out message; tick-tock: null). */
    readonly msg: TraceMessage | null,
    readonly kind: 'tx' | 'log' | 'ghost',
    /** A body already parsed (intended messages read from a wallet's signed request). */
    cell?: Cell,
  ) {
    if (cell) this.parsed = cell;
  }

  get opcode(): number | null {
    return this.msg?.opcode ?? null;
  }

  get failed(): boolean {
    return this.kind === 'ghost' || this.tx.aborted;
  }

  get source(): string | null {
    return this.msg?.source ?? null;
  }

  get destination(): string | null {
    return this.msg?.destination ?? null;
  }

  get value(): bigint {
    return this.msg?.value ?? 0n;
  }

  /** The body cell, parsed once; null when absent or unreadable. */
  get cell(): Cell | null {
    if (this.parsed === undefined) {
      try {
        this.parsed = this.msg?.body ? cellFromBoc(this.msg.body) : null;
      } catch {
        this.parsed = null;
      }
    }
    return this.parsed;
  }

  /**
   * The body's first cell alone (no refs), after its 32-bit opcode: for leading fields of bodies whose
   * refs are heavy (proofs), read without building the cells below.
   */
  rootAfterOp(): Slice {
    const s = this.parsed ? this.parsed.beginParse() : this.msg?.body ? bocRootData(this.msg.body).beginParse() : null;
    if (!s) throw new Error('no body');
    s.skip(32);
    return s;
  }

  private memos: Map<string, unknown> | undefined;

  /** What `read` makes of this node, made once (matchers of several protocols read the same body). */
  memo<T>(key: string, read: () => T): T {
    this.memos ??= new Map();
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const v = read();
    this.memos.set(key, v);
    return v;
  }

  /** A fresh slice of the body; throws when there is none (matchers treat a throw as no match). */
  body(): Slice {
    const c = this.cell;
    if (!c) throw new Error('no body');
    return c.beginParse();
  }

  /** The body after its 32-bit opcode. */
  bodyAfterOp(): Slice {
    const s = this.body();
    s.skip(32);
    return s;
  }

  child(opcode: number | ((n: Node) => boolean)): Node | undefined {
    return this.children.find(typeof opcode === 'number' ? (n) => n.opcode === opcode && n.kind !== 'log' : opcode);
  }

  childrenWith(opcode: number): Node[] {
    return this.children.filter((n) => n.opcode === opcode && n.kind !== 'log');
  }

  /** Every node below this one, breadth first. */
  *descendants(): Generator<Node> {
    const queue = [...this.children];
    for (let i = 0; i < queue.length; i++) {
      yield queue[i]!;
      queue.push(...queue[i]!.children);
    }
  }

  /** The node is still in the base block it started in (no matcher took it). */
  get free(): boolean {
    return this.block.base;
  }

  /** Sent with bounce, never processed: a bounced message came back. */
  get bouncedBack(): boolean {
    return this.children.some((c) => c.msg?.bounced === true);
  }

  /** A plain TON transfer: between two accounts, no body, a text comment or an encrypted one. */
  get isTonTransfer(): boolean {
    const op = this.opcode;
    return this.kind !== 'log' && this.source !== null && this.destination !== null && (op === null || op === 0 || op === ENCRYPTED_COMMENT_OP);
  }

  /** The transaction deployed its account: from uninit or nonexistent (never frozen) to active. */
  get isDeploy(): boolean {
    return this.kind === 'tx' && this.tx.endStatus === 'active' && this.tx.origStatus !== 'active' && this.tx.origStatus !== 'frozen';
  }

  /** The text comment of a TON transfer (op 0), null for anything else. */
  comment(): string | null {
    if (this.opcode !== 0) return null;
    // Read once: every comment-anchored matcher (approvals, sale and auction orders, pool commands) asks.
    if (this.text === undefined) this.text = readComment(this.cell?.beginParse() ?? null).comment;
    return this.text;
  }

  private text: string | null | undefined;

  /**
   * What a step leaves behind besides its result: excesses (gas refunds) and bounced messages among its
   * children that no action holds yet. Protocol actions take them in, as toncenter's include_excess and
   * include_bounces do.
   */
  aux(): Node[] {
    return this.children.filter((c) => c.kind === 'tx' && c.free && (c.opcode === EXCESS_OP || c.msg?.bounced === true));
  }

  get successful(): boolean {
    return !this.tx.aborted && this.kind !== 'ghost';
  }
}

export class Block {
  parent: Block | null = null;
  children: Block[] = [];
  failed = false;
  /** Fields of the action record this block sets (on top of the ones every action has). */
  fields: Partial<Action> = {};
  /** The type exposes its children as nested actions. */
  nested = true;
  /** A matcher's note about the block (never serialized): what a later step of the same protocol looks for. */
  tag: string | null = null;

  constructor(
    public type: string,
    public nodes: Node[],
    /** A base block: one node, no matcher has taken it. */
    readonly base = false,
  ) {}

  /** The earliest node: lowest lt, a delivered message before a log of the same transaction. */
  get first(): Node {
    let best = this.nodes[0]!;
    for (const n of this.nodes) {
      if (n.tx.lt < best.tx.lt || (n.tx.lt === best.tx.lt && best.kind === 'log' && n.kind !== 'log')) best = n;
    }
    return best;
  }

  get ghost(): boolean {
    return this.nodes.every((n) => n.kind === 'ghost');
  }
}

/** What a matcher sees: the trace's nodes and the interfaces of its addresses. */
export class Context {
  constructor(
    readonly root: Node,
    readonly nodes: Node[],
    private readonly interfaces: Interfaces,
    readonly blocks: Block[],
  ) {}

  info(address: string | null): AccountInterfaces {
    return (address && this.interfaces.get(address)) || {};
  }

  jettonWallet(address: string | null) {
    return this.info(address).jettonWallet;
  }

  /** The jetton master of a jetton wallet, when the index knows the wallet. */
  jettonOf(wallet: string | null): string | null {
    return this.jettonWallet(wallet)?.jetton ?? null;
  }

  /**
   * Makes one block of `nodes`: the top-level blocks that hold them become its children, it holds all
   * their nodes (and more nodes not yet in any matched block, given in `nodes`).
   */
  claim(type: string, nodes: Iterable<Node>, fields: Partial<Action>, failed = false): Block {
    const taken = new Set<Block>();
    for (const n of nodes) taken.add(n.block);
    const block = new Block(type, []);
    block.fields = fields;
    block.failed = failed;
    for (const b of taken) {
      b.parent = block;
      block.children.push(b);
      this.moveNodes(block, b);
    }
    this.blocks.push(block);
    return block;
  }

  /**
   * Makes `from` part of `into`: its nodes and nested blocks move over and `from` is gone, one action
   * of both (as toncenter merges the two halves of a DeDust deposit made in one trace).
   */
  absorb(into: Block, from: Block): void {
    for (const c of from.children) {
      c.parent = into;
      into.children.push(c);
    }
    this.moveNodes(into, from);
  }

  /** `from`'s nodes become `into`'s, and `from` is no top-level block any more. */
  private moveNodes(into: Block, from: Block): void {
    for (const n of from.nodes) {
      into.nodes.push(n);
      n.block = into;
    }
    const i = this.blocks.indexOf(from);
    if (i >= 0) this.blocks.splice(i, 1);
  }
}

/** Builds the node tree of a trace's transactions (sorted by lt); the root is the earliest transaction. */
export function buildTree(transactions: TraceTransaction[]): { root: Node; nodes: Node[] } {
  const txs = [...transactions].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const byInMsg = new Map<string, Node>();
  const nodes: Node[] = [];
  for (const tx of txs) {
    const node = new Node(tx, tx.inMsg, 'tx');
    nodes.push(node);
    if (tx.inMsg) byInMsg.set(tx.inMsg.hash, node);
  }
  for (const node of nodes) {
    for (const m of node.tx.outMsgs) {
      if (m.destination === null) {
        const log = new Node(node.tx, m, 'log');
        log.parent = node;
        node.children.push(log);
        continue;
      }
      const child = byInMsg.get(m.hash);
      if (child && child !== node) {
        child.parent = node;
        node.children.push(child);
      }
    }
  }
  const lt = (n: Node) => (n.kind === 'log' ? (n.msg!.createdLt ?? n.tx.lt) : n.tx.lt);
  for (const node of nodes) node.children.sort((a, b) => (lt(a) < lt(b) ? -1 : lt(a) > lt(b) ? 1 : 0));
  const roots = nodes.filter((n) => n.parent === null);
  return { root: roots[0]!, nodes: roots.flatMap((r) => [...bfs(r)]) };
}

/** The tree breadth first, children in lt order. */
export function* bfs(root: Node): Generator<Node> {
  yield root;
  yield* root.descendants();
}
