// Arbitrary classifier inputs for lib/actions/properties.test.ts: traces generated from scratch (random
// shapes, accounts and flags, bodies taken from real messages of every opcode the fixtures hold, whole or
// cut short, or random bits) and real traces damaged (a transaction gone, a body cut or swapped for
// another opcode's, a step aborted, a message left undelivered). Nothing here is a valid protocol flow
// on purpose: the classifier must take any of it without throwing and leave no transaction out.
import { beginCell, Cell } from '@ton/core';
import { cellFromBoc } from '../actions/cells';
import type { AccountInterfaces, TraceMessage, TraceTransaction } from '../actions/model';
import type { Rng } from '../fuzz/rng';
import { cloneInput, freshAddress, rootOf, type Input } from './trace-mutations';

/** What random traces are made of: real bodies by opcode, real interfaces, addresses worth reusing. */
export interface Pool {
  bodies: Map<number, Buffer[]>;
  opcodes: number[];
  interfaces: AccountInterfaces[];
  addresses: string[];
}

export function poolOf(inputs: Input[], protocolAddresses: Iterable<string>): Pool {
  const bodies = new Map<number, Buffer[]>();
  const interfaces: AccountInterfaces[] = [];
  for (const { trace, interfaces: ifs } of inputs) {
    for (const t of trace.transactions) {
      for (const m of [t.inMsg, ...t.outMsgs]) {
        if (!m?.body || m.opcode === null) continue;
        const list = bodies.get(m.opcode) ?? [];
        if (list.length < 8) list.push(m.body);
        bodies.set(m.opcode, list);
      }
    }
    for (const v of ifs.values()) if (interfaces.length < 400) interfaces.push(v);
  }
  return { bodies, opcodes: [...bodies.keys()], interfaces, addresses: [...protocolAddresses] };
}

const hash = (rng: Rng) => Buffer.from(Array.from({ length: 32 }, () => rng.int(256))).toString('base64');

/** A body cut after `bits` bits of its root (refs kept when the cut leaves room for them). */
function cut(body: Buffer, rng: Rng): Buffer {
  const c = cellFromBoc(body);
  const keep = rng.int(c.bits.length + 1);
  const b = beginCell().storeBits(c.bits.substring(0, keep));
  const refs = rng.int(c.refs.length + 1);
  for (let i = 0; i < refs; i++) b.storeRef(c.refs[i]!);
  return b.endCell().toBoc();
}

function randomBits(rng: Rng, op?: number): Buffer {
  const b = beginCell();
  if (op !== undefined) b.storeUint(op, 32);
  const n = rng.int(600);
  for (let i = 0; i < n && b.availableBits > 0; i++) b.storeBit(rng.chance(0.5));
  if (rng.chance(0.3)) b.storeRef(beginCell().storeUint(rng.int(2 ** 30), 30).endCell());
  return b.endCell().toBoc();
}

/** What a bounce carries: 0xffffffff and the first 256 bits of the bounced body. */
function bouncedBody(body: Buffer | null): Buffer {
  const bits = body ? cellFromBoc(body).bits : null;
  const b = beginCell().storeUint(0xffffffff, 32);
  if (bits) b.storeBits(bits.substring(0, Math.min(256, bits.length)));
  return b.endCell().toBoc();
}

const opcodeOf = (body: Buffer | null): number | null => {
  if (!body) return null;
  const c: Cell = cellFromBoc(body);
  return c.bits.length >= 32 ? c.beginParse().preloadUint(32) : null;
};

/** A message body: none, a comment, a real body (maybe cut), a real opcode over random bits, or noise. */
function randomBody(rng: Rng, pool: Pool): Buffer | null {
  const r = rng.next();
  if (r < 0.15) return null;
  if (r < 0.25) return beginCell().storeUint(0, 32).storeStringTail(rng.pick(['hi', 'd', 'w', 'cancel', 'Your bid has been outbid by another user.'])).endCell().toBoc();
  const op = rng.pick(pool.opcodes);
  if (r < 0.7) return rng.pick(pool.bodies.get(op)!);
  if (r < 0.85) return cut(rng.pick(pool.bodies.get(op)!), rng);
  if (r < 0.95) return randomBits(rng, op);
  return randomBits(rng);
}

function message(rng: Rng, source: string | null, destination: string | null, createdLt: bigint | null, body: Buffer | null, bounced = false): TraceMessage {
  return {
    hash: hash(rng),
    source,
    destination,
    value: source === null ? null : BigInt(rng.int(2 ** 31)) * BigInt(1 + rng.int(1000)),
    fwdFee: source === null ? null : BigInt(rng.int(10_000_000)),
    bounce: source === null ? null : rng.chance(0.6),
    bounced: source === null ? null : bounced,
    createdLt: source === null ? null : createdLt,
    opcode: opcodeOf(body),
    body,
  };
}

/**
 * A trace of up to `max` transactions: an external (or internal, or tick-tock) root, each transaction
 * sending up to three messages — to known accounts, fresh ones, protocol contracts or nowhere (logs) —
 * most of them delivered, some bounced back, some steps aborted.
 */
export function randomTrace(rng: Rng, pool: Pool, max = 40): Input {
  const accounts = [...Array.from({ length: 2 + rng.int(8) }, () => freshAddress(rng, rng.chance(0.05) ? -1 : 0)), ...pool.addresses.filter(() => rng.chance(0.1))];
  let lt = 1_000_000n + BigInt(rng.int(1_000_000)) * 1000n;
  const now = 1_700_000_000 + rng.int(50_000_000);
  const tx = (account: string, inMsg: TraceMessage | null): TraceTransaction => {
    lt += BigInt(1 + rng.int(5)) * 1000n;
    const aborted = rng.chance(0.1);
    return {
      hash: hash(rng),
      account,
      lt,
      now,
      mcSeqno: 40_000_000 + rng.int(1000),
      origStatus: rng.pick(['active', 'active', 'uninit', 'nonexist']),
      endStatus: rng.pick(['active', 'active', 'active', 'uninit']),
      aborted,
      computeExitCode: aborted ? rng.pick([33, 9, 0xffff, 706, 100, null]) : rng.pick([0, 0, 0, 1, null]),
      tickTock: inMsg === null,
      inMsg,
      outMsgs: [],
    };
  };
  const kind = rng.next();
  const rootAccount = rng.pick(accounts);
  const rootIn = kind < 0.7 ? message(rng, null, rootAccount, null, randomBody(rng, pool)) : kind < 0.95 ? message(rng, freshAddress(rng), rootAccount, lt, randomBody(rng, pool)) : null;
  const root = tx(rootAccount, rootIn);
  const transactions = [root];
  const queue = [root];
  while (queue.length && transactions.length < max) {
    const t = queue.shift()!;
    const n = rng.int(4);
    for (let i = 0; i < n && transactions.length < max; i++) {
      const log = rng.chance(0.08);
      const to = log ? null : rng.chance(0.2) ? freshAddress(rng) : rng.pick(accounts);
      const bouncedBack = !log && t.inMsg?.source && t.inMsg.bounce && t.aborted && i === 0;
      const m = bouncedBack
        ? message(rng, t.account, t.inMsg!.source, t.lt + 1n, bouncedBody(t.inMsg!.body), true)
        : message(rng, t.account, to, t.lt + BigInt(i + 1), randomBody(rng, pool));
      t.outMsgs.push(m);
      if (m.destination === null || rng.chance(0.05)) continue; // a log, or a message still in flight
      const child = tx(m.destination, { ...m });
      transactions.push(child);
      queue.push(child);
    }
  }
  const interfaces = new Map<string, AccountInterfaces>();
  for (const a of new Set(transactions.map((t) => t.account))) {
    if (!rng.chance(0.35) || pool.interfaces.length === 0) continue;
    const v = JSON.parse(JSON.stringify(rng.pick(pool.interfaces), (_k, x) => (typeof x === 'bigint' ? `${x}n` : x)), (_k, x) => (typeof x === 'string' && /^-?\d+n$/.test(x) ? BigInt(x.slice(0, -1)) : x)) as AccountInterfaces;
    // Point the interface at this trace's accounts, so roles (owner, jetton, item) line up sometimes.
    if (v.jettonWallet) v.jettonWallet = { ...v.jettonWallet, owner: rng.pick(accounts), jetton: rng.chance(0.5) ? rng.pick(accounts) : v.jettonWallet.jetton };
    if (v.nftItem) v.nftItem = { ...v.nftItem, owner: rng.pick(accounts), collection: rng.chance(0.5) ? rng.pick(accounts) : v.nftItem.collection };
    if (v.nftSale) v.nftSale = { ...v.nftSale, owner: rng.pick(accounts), nft: rng.pick(accounts) };
    if (v.nftAuction) v.nftAuction = { ...v.nftAuction, owner: rng.pick(accounts), nft: rng.pick(accounts) };
    interfaces.set(a, v);
  }
  const last = transactions.reduce((a, t) => (t.lt > a.lt ? t : a));
  return {
    trace: { traceId: root.hash, externalHash: rootIn?.source === null ? rootIn.hash : null, mcSeqnoEnd: last.mcSeqno!, endLt: last.lt, endUtime: now, transactions },
    interfaces,
  };
}

/** One kind of damage done to a real trace, at random. */
export function damageTrace(input: Input, rng: Rng, pool: Pool): Input {
  const out = cloneInput(input);
  const txs = out.trace.transactions;
  const root = rootOf(out.trace);
  const others = txs.filter((t) => t !== root);
  const withBody = txs.flatMap((t) => [t.inMsg, ...t.outMsgs]).filter((m): m is TraceMessage => !!m?.body);
  const copies = (h: string) => txs.flatMap((t) => [t.inMsg, ...t.outMsgs]).filter((m): m is TraceMessage => m?.hash === h);
  switch (rng.int(5)) {
    case 0: // a transaction never happened (its message left in flight, its children orphaned)
      if (others.length) txs.splice(txs.indexOf(rng.pick(others)), 1);
      break;
    case 1: {
      // a body cut short
      const m = withBody.length ? rng.pick(withBody) : null;
      if (m) {
        const body = cut(m.body!, rng);
        for (const c of copies(m.hash)) Object.assign(c, { body, opcode: opcodeOf(body) });
      }
      break;
    }
    case 2: {
      // a body swapped for another opcode's
      const m = withBody.length ? rng.pick(withBody) : null;
      if (m) {
        const body = rng.pick(pool.bodies.get(rng.pick(pool.opcodes))!);
        for (const c of copies(m.hash)) Object.assign(c, { body, opcode: opcodeOf(body) });
      }
      break;
    }
    case 3: {
      // a step aborted, what it sent kept (as a broken trace would have it)
      const t = rng.pick(txs);
      t.aborted = true;
      t.computeExitCode = rng.pick([33, 9, 0xffff, null]);
      break;
    }
    default: {
      // a message bounced that was not
      const t = others.length ? rng.pick(others) : null;
      if (t?.inMsg) for (const c of copies(t.inMsg.hash)) c.bounced = !c.bounced;
    }
  }
  return out;
}
