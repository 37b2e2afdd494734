// Changes to a classifier input that a protocol flow does not care about, or whose effect on the actions
// is known: the metamorphic relations of lib/actions/metamorphic.test.ts. Every function returns a new
// input and leaves its argument alone. Message and transaction hashes are identities here: a change
// keeps them, so an action's id and transaction list stay comparable.
import { beginCell, BitString, Cell } from '@ton/core';
import { cellFromBoc } from '../actions/cells';
import type { AccountInterfaces, Trace, TraceMessage, TraceTransaction } from '../actions/model';
import { serializeBoc } from '../ton/boc';
import type { Rng } from '../fuzz/rng';

export interface Input {
  trace: Trace;
  interfaces: Map<string, AccountInterfaces>;
}

const cloneMessage = (m: TraceMessage): TraceMessage => ({ ...m, body: m.body ? Buffer.from(m.body) : null });
const cloneTx = (t: TraceTransaction): TraceTransaction => ({ ...t, inMsg: t.inMsg ? cloneMessage(t.inMsg) : null, outMsgs: t.outMsgs.map(cloneMessage) });

export function cloneInput(i: Input): Input {
  const interfaces = new Map<string, AccountInterfaces>();
  for (const [k, v] of i.interfaces) interfaces.set(k, JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x)), reviveBig));
  for (const [k, v] of i.interfaces) if (v.dataBoc) interfaces.get(k)!.dataBoc = Buffer.from(v.dataBoc);
  return { trace: { ...i.trace, transactions: i.trace.transactions.map(cloneTx) }, interfaces };
}

function reviveBig(_k: string, v: unknown): unknown {
  return typeof v === 'string' && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v;
}

const hex32 = (rng: Rng) => Array.from({ length: 32 }, () => rng.int(256).toString(16).padStart(2, '0')).join('');
export const freshAddress = (rng: Rng, wc = 0) => `${wc}:${hex32(rng).toUpperCase()}`;
const freshHash = (rng: Rng) => Buffer.from(hex32(rng), 'hex').toString('base64');

/** The transaction that received a message (by hash), or undefined. */
export const receiverOf = (trace: Trace, hash: string) => trace.transactions.find((t) => t.inMsg?.hash === hash);
/** Where a message appears: its sender's out-message and its receiver's in-message (the same message twice). */
function copiesOf(trace: Trace, hash: string): TraceMessage[] {
  const out: TraceMessage[] = [];
  for (const t of trace.transactions) {
    if (t.inMsg?.hash === hash) out.push(t.inMsg);
    for (const m of t.outMsgs) if (m.hash === hash) out.push(m);
  }
  return out;
}

const maxLt = (trace: Trace) => trace.transactions.reduce((a, t) => (t.lt > a ? t.lt : a), 0n);
export const rootOf = (trace: Trace) => trace.transactions.reduce((a, t) => (t.lt < a.lt ? t : a));

/**
 * The trace's root also sends TON with a comment to a fresh address, which receives it: a new,
 * unrelated branch (one more ton_transfer, nothing else changes).
 */
export function addUnrelatedBranch(input: Input, rng: Rng): { input: Input; destination: string; value: bigint; hash: string } {
  const out = cloneInput(input);
  const root = rootOf(out.trace);
  const destination = freshAddress(rng);
  const lt = maxLt(out.trace) + 1000n;
  const body = beginCell().storeUint(0, 32).storeStringTail('unrelated').endCell();
  const value = 12_345_678n;
  const msg: TraceMessage = {
    hash: freshHash(rng),
    source: root.account,
    destination,
    value,
    fwdFee: 1n,
    bounce: false,
    bounced: false,
    createdLt: root.lt + 1n,
    opcode: 0,
    body: body.toBoc(),
  };
  root.outMsgs.push({ ...msg });
  out.trace.transactions.push({
    hash: freshHash(rng),
    account: destination,
    lt,
    now: root.now,
    mcSeqno: root.mcSeqno,
    origStatus: 'active',
    endStatus: 'active',
    aborted: false,
    computeExitCode: 0,
    tickTock: false,
    inMsg: { ...msg },
    outMsgs: [],
  });
  return { input: out, destination, value, hash: msg.hash };
}

/**
 * The same messages delivered in another order: every transaction keeps its parent before it and its
 * children after it, each message keeps its place among its sender's (created_lt), but sibling
 * transactions run in reverse (so a different one comes first).
 */
export function reverseSiblingOrder(input: Input): Input {
  const out = cloneInput(input);
  const txs = out.trace.transactions;
  const byIn = new Map(txs.filter((t) => t.inMsg).map((t) => [t.inMsg!.hash, t]));
  const children = (t: TraceTransaction) =>
    t.outMsgs
      .filter((m) => m.destination !== null)
      .sort((a, b) => (a.createdLt! < b.createdLt! ? -1 : 1))
      .map((m) => byIn.get(m.hash))
      .filter((c): c is TraceTransaction => !!c && c !== t);
  const isChild = new Set(txs.flatMap(children));
  const roots = txs.filter((t) => !isChild.has(t)).sort((a, b) => (a.lt < b.lt ? -1 : 1));
  let lt = roots[0]!.lt;
  const queue = [...roots];
  const seen = new Set<TraceTransaction>();
  while (queue.length) {
    const t = queue.shift()!;
    if (seen.has(t)) continue;
    seen.add(t);
    t.lt = lt;
    lt += 100n;
    queue.push(...children(t).reverse());
  }
  // Out-messages keep their emission order, right after their sender's new lt.
  for (const t of txs) {
    const own = [...t.outMsgs].sort((a, b) => ((a.createdLt ?? 0n) < (b.createdLt ?? 0n) ? -1 : 1));
    own.forEach((m, i) => {
      for (const copy of copiesOf(out.trace, m.hash)) copy.createdLt = t.lt + BigInt(i + 1);
    });
  }
  return out;
}

// ---- addresses ---------------------------------------------------------------------------------------

const hashOf = (raw: string) => raw.slice(raw.indexOf(':') + 1).toLowerCase();

/** A cell with every occurrence of an old address hash in its bits replaced by the new one, refs too. */
function renameCell(c: Cell, map: Map<string, string>, memo: Map<string, Cell>): Cell {
  const key = c.hash().toString('hex');
  const done = memo.get(key);
  if (done) return done;
  let bits = '';
  for (let i = 0; i < c.bits.length; i++) bits += c.bits.at(i) ? '1' : '0';
  for (const [from, to] of map) {
    const f = BigInt('0x' + from).toString(2).padStart(256, '0');
    if (!bits.includes(f)) continue;
    bits = bits.split(f).join(BigInt('0x' + to).toString(2).padStart(256, '0'));
  }
  const b = beginCell();
  for (const ch of bits) b.storeBit(ch === '1');
  for (const r of c.refs) b.storeRef(renameCell(r, map, memo));
  const out = c.isExotic ? c : b.endCell();
  memo.set(key, out);
  return out;
}

/** A BoC with its addresses renamed (same CRC flag). */
function renameBoc(boc: Buffer, map: Map<string, string>, memo: Map<string, Cell>): Buffer {
  const cell = cellFromBoc(boc);
  const renamed = renameCell(cell, map, memo);
  return renamed === cell ? boc : serializeBoc(renamed);
}

export interface Renaming {
  /** raw address → raw address (upper case). */
  addresses: Map<string, string>;
  /** 64-hex hash → 64-hex hash (lower case), what renames them inside cells. */
  hashes: Map<string, string>;
}

/** Every account of the trace and its interfaces gets a fresh address, except those in `keep`. */
export function renameAddresses(input: Input, rng: Rng, keep: ReadonlySet<string>): { input: Input; renaming: Renaming } {
  const all = new Set<string>();
  const note = (a: string | null | undefined) => {
    if (a && /^-?\d+:[0-9A-F]{64}$/.test(a) && !keep.has(a)) all.add(a);
  };
  for (const t of input.trace.transactions) {
    note(t.account);
    for (const m of [t.inMsg, ...t.outMsgs]) {
      note(m?.source);
      note(m?.destination);
    }
  }
  for (const [k, v] of input.interfaces) {
    note(k);
    JSON.stringify(v, (_key, x) => {
      if (typeof x === 'string') note(x);
      return typeof x === 'bigint' ? String(x) : x;
    });
  }
  const addresses = new Map<string, string>();
  const hashes = new Map<string, string>();
  for (const a of all) {
    const wc = Number(a.slice(0, a.indexOf(':')));
    const to = freshAddress(rng, wc);
    addresses.set(a, to);
    hashes.set(hashOf(a), hashOf(to));
  }
  const ren = (a: string | null) => (a ? (addresses.get(a) ?? a) : a);
  const memo = new Map<string, Cell>();
  const out = cloneInput(input);
  for (const t of out.trace.transactions) {
    t.account = ren(t.account)!;
    for (const m of [t.inMsg, ...t.outMsgs]) {
      if (!m) continue;
      m.source = ren(m.source);
      m.destination = ren(m.destination);
      if (m.body) m.body = renameBoc(m.body, hashes, memo);
    }
  }
  const interfaces = new Map<string, AccountInterfaces>();
  for (const [k, v] of out.interfaces) {
    const renamed = JSON.parse(JSON.stringify(v, (_key, x) => (typeof x === 'bigint' ? `${x}n` : typeof x === 'string' ? (addresses.get(x) ?? x) : x)), reviveBig) as AccountInterfaces;
    if (v.dataBoc) renamed.dataBoc = renameBoc(v.dataBoc, hashes, memo);
    interfaces.set(ren(k)!, renamed);
  }
  out.interfaces = interfaces;
  return { input: out, renaming: { addresses, hashes } };
}

/** What a value of the actions becomes under a renaming: addresses, BoCs (by their cells) and 0x-hashes. */
export function renameValue(v: unknown, r: Renaming, memo = new Map<string, Cell>()): unknown {
  if (typeof v === 'string') {
    if (r.addresses.has(v)) return r.addresses.get(v);
    if (/^0x[0-9a-f]+$/.test(v) && v.length > 20) {
      const full = BigInt(v).toString(16).padStart(64, '0');
      const to = r.hashes.get(full);
      if (to) return '0x' + BigInt('0x' + to).toString(16);
    }
    if (v.startsWith('te6')) return bocKey(renameBoc(Buffer.from(v, 'base64'), r.hashes, memo));
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => renameValue(x, r, memo));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renameValue(x, r, memo)]));
  return v;
}

/** A BoC compared by the hash of its root cell (serialization flags aside). */
export const bocKey = (boc: Buffer | string) => 'cell:' + cellFromBoc(typeof boc === 'string' ? Buffer.from(boc, 'base64') : boc).hash().toString('hex');

/** Replaces every BoC string of a value by its bocKey, so two serializations of one cell compare equal. */
export function bocsByCell(v: unknown): unknown {
  if (typeof v === 'string' && v.startsWith('te6')) {
    try {
      return bocKey(v);
    } catch {
      return v;
    }
  }
  if (Array.isArray(v)) return v.map(bocsByCell);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bocsByCell(x)]));
  return v;
}

// ---- bodies ------------------------------------------------------------------------------------------

/** A body with its query_id (the 64 bits after the opcode) replaced. */
function withQueryId(body: Buffer, queryId: bigint): Buffer {
  const c = cellFromBoc(body);
  const s = c.beginParse();
  const op = s.loadUint(32);
  s.skip(64);
  return beginCell().storeUint(op, 32).storeUint(queryId, 64).storeSlice(s).endCell().toBoc();
}

/** A body with its Coins field right after the query_id replaced (jetton transfer, internal transfer, notification). */
function withAmount(body: Buffer, amount: bigint): Buffer {
  const c = cellFromBoc(body);
  const s = c.beginParse();
  const op = s.loadUint(32);
  const q = s.loadUintBig(64);
  s.loadCoins();
  return beginCell().storeUint(op, 32).storeUint(q, 64).storeCoins(amount).storeSlice(s).endCell().toBoc();
}

/** Every message with opcode `op` gets a fresh query_id (one per old value); the map old → new. */
export function changeQueryIds(input: Input, op: number, rng: Rng): { input: Input; map: Map<bigint, bigint> } {
  const out = cloneInput(input);
  const map = new Map<bigint, bigint>();
  for (const t of out.trace.transactions) {
    for (const m of [t.inMsg, ...t.outMsgs]) {
      if (!m?.body || m.opcode !== op) continue;
      const s = cellFromBoc(m.body).beginParse();
      s.skip(32);
      const old = s.loadUintBig(64);
      if (!map.has(old)) map.set(old, BigInt(rng.int(2 ** 30)) * 1_000_003n + 7n);
      m.body = withQueryId(m.body, map.get(old)!);
    }
  }
  return { input: out, map };
}

/** The messages with these hashes carry another amount of jettons (their Coins after the query_id). */
export function changeJettonAmount(input: Input, hashes: ReadonlySet<string>, amount: bigint): Input {
  const out = cloneInput(input);
  for (const t of out.trace.transactions) for (const m of [t.inMsg, ...t.outMsgs]) if (m?.body && hashes.has(m.hash)) m.body = withAmount(m.body, amount);
  return out;
}

/** The message with this hash carries `delta` more TON (both copies of it). */
export function changeValue(input: Input, hash: string, delta: bigint): Input {
  const out = cloneInput(input);
  for (const m of copiesOf(out.trace, hash)) m.value = (m.value ?? 0n) + delta;
  return out;
}

/** Every transaction caused (transitively) by the one that received `hash`, that one excluded. */
function below(trace: Trace, tx: TraceTransaction): Set<TraceTransaction> {
  const byIn = new Map(trace.transactions.filter((t) => t.inMsg).map((t) => [t.inMsg!.hash, t]));
  const out = new Set<TraceTransaction>();
  const queue = [tx];
  while (queue.length) {
    const t = queue.shift()!;
    for (const m of t.outMsgs) {
      const c = byIn.get(m.hash);
      if (c && !out.has(c) && c !== tx) {
        out.add(c);
        queue.push(c);
      }
    }
  }
  return out;
}

/**
 * The transaction that received `hash` fails: its compute phase aborts (exit code 33), it sends
 * nothing, so what it caused never happened; a bounceable message comes back to its sender bounced.
 */
export function failDelivery(input: Input, hash: string, rng: Rng): { input: Input; removed: Set<string> } {
  const out = cloneInput(input);
  const tx = receiverOf(out.trace, hash)!;
  const gone = below(out.trace, tx);
  out.trace.transactions = out.trace.transactions.filter((t) => !gone.has(t));
  tx.aborted = true;
  tx.computeExitCode = 33;
  tx.outMsgs = [];
  const m = tx.inMsg!;
  if (m.bounce && m.source) {
    const bounced: TraceMessage = {
      hash: freshHash(rng),
      source: tx.account,
      destination: m.source,
      value: (m.value ?? 0n) / 2n,
      fwdFee: 1n,
      bounce: false,
      bounced: true,
      createdLt: tx.lt + 1n,
      opcode: 0xffffffff,
      body: beginCell().storeUint(0xffffffff, 32).storeBits(new BitString(Buffer.alloc(0), 0, 0)).endCell().toBoc(),
    };
    tx.outMsgs.push({ ...bounced });
    const sender = out.trace.transactions.find((t) => t.account === m.source)!;
    out.trace.transactions.push({ ...sender, hash: freshHash(rng), lt: maxLt(out.trace) + 1000n, aborted: false, computeExitCode: 0, inMsg: { ...bounced }, outMsgs: [], tickTock: false });
  }
  return { input: out, removed: new Set([...gone].map((t) => t.hash)) };
}
