// The whole trace an external message will cause, predicted: the external runs on its account as of the
// latest masterchain block, then every internal message it (and each later hop) sends runs on its
// destination, in created_lt order, each account carrying the state its previous emulated transaction
// left. The same executor and inputs as estimateFee (lib/tvm/transaction.ts, config and libraries from
// the chain; a config read in the last minute stands in while the new block's is read); `now` is the
// current time, or the latest block's when the chain's clock is ahead. Bounded by a transaction count
// and a time budget.
import { Address, Cell, loadMessage } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { accountIn, stateBlock, type McBlock } from '../chain/account-state';
import { shardAccountOf } from '../chain/fees';
import { librariesUnder, recentConfig } from '../chain/tvm';
import { transactionMessages } from '../chain/tx-json';
import { LIMITS } from '../limits';
import { rawUpper } from '../ton/address';
import type { TvmPool } from '../tvm/pool';
import { runMessage } from '../tvm/transaction';

export interface EmulateOptions {
  /** At most this many transactions (the rest of the trace is left out: `truncated`). */
  maxTransactions: number;
  /** Wall-clock budget in ms; hops not started by then are left out (`truncated`). */
  budgetMs: number;
}

/** A config read this recently stands in for the pinned block's while that one is read (tvm.ts recentConfig). */
const CONFIG_MAX_AGE_MS = 60_000;

export const EMULATION_DEFAULTS: EmulateOptions = { maxTransactions: LIMITS.emulatedTransactions, budgetMs: 5_000 };

export interface EmulatedTrace {
  block: McBlock;
  /** The emulated transaction cells, in the order they ran (the root first). */
  transactions: Cell[];
  /** Why the chain will not accept the external (no transaction), when it will not. */
  rejected: string | null;
  /** Messages left unrun because a bound was reached. */
  truncated: boolean;
  /** Each account's state after its last emulated transaction (raw address → ShardAccount), the config and `now` it ran with. */
  endStates: Map<string, Cell>;
  config: string;
  now: number;
}

interface AccountSlot {
  shardAccount: Cell;
  /** The code that runs on the account (for its libraries); null while it has none. */
  code: Cell | null;
  /** The least lt its next transaction may take. */
  nextLt: bigint;
}

interface Hop {
  message: Cell;
  dest: Address;
  createdLt: bigint;
}

export async function emulateTrace(client: LiteClient, tvm: TvmPool, external: Cell, opts: EmulateOptions = EMULATION_DEFAULTS): Promise<EmulatedTrace> {
  const t0 = performance.now();
  const root = loadMessage(external.beginParse());
  if (root.info.type !== 'external-in') throw new Error('not an external inbound message');
  const block = await stateBlock(client);
  const configP = recentConfig(client, block.id, CONFIG_MAX_AGE_MS);
  // The next block's time: never earlier than the latest block's (block times only grow), else the wall
  // clock. A chain whose clock runs ahead of this machine's (a devnet with a pinned time, a node with a
  // skewed clock) runs the message at its own time, and storage fees, unlock schedules and expiries
  // depend on it.
  const now = Math.max(Math.floor(Date.now() / 1000), block.utime);

  // Accounts are read once, at the pinned block, as soon as a message to them appears (in parallel
  // with the hop running before); later hops see the state the previous emulated transaction left.
  const accounts = new Map<string, Promise<AccountSlot>>();
  const slot = (a: Address) => {
    const key = rawUpper(a);
    let s = accounts.get(key);
    if (!s) {
      s = accountIn(client, a, block).then((acc) => ({ shardAccount: shardAccountOf(acc), code: acc.code, nextLt: acc.lastTxLt + 1n }));
      s.catch(() => {});
      accounts.set(key, s);
    }
    return s;
  };
  // Libraries by code hash: one walk of a code's cells per trace.
  const libsByCode = new Map<string, Promise<Cell | undefined>>();
  const libsOf = (code: Cell) => {
    const key = code.hash().toString('hex');
    let l = libsByCode.get(key);
    if (!l) libsByCode.set(key, (l = librariesUnder(client, [code])));
    return l;
  };

  const queue: Hop[] = [{ message: external, dest: root.info.dest, createdLt: 0n }];
  void slot(root.info.dest);
  const config = await configP;
  const transactions: Cell[] = [];
  const ended = new Map<string, Cell>();
  let rejected: string | null = null;
  const runHop = async (hop: Hop) => {
    const acc = await slot(hop.dest);
    const init = loadMessage(hop.message.beginParse()).init;
    // A message with a StateInit deploys an account that has no code yet: that code runs.
    const code = acc.code ?? init?.code ?? null;
    const lt = acc.nextLt > hop.createdLt + 1n ? acc.nextLt : hop.createdLt + 1n;
    const out = await runMessage(tvm, { config, libs: code ? await libsOf(code) : undefined, shardAccount: acc.shardAccount, message: hop.message, now, lt, ignoreChksig: false });
    return { hop, out, code, lt };
  };
  while (queue.length > 0 && rejected === null) {
    const left = opts.maxTransactions - transactions.length;
    if (left <= 0 || performance.now() - t0 > opts.budgetMs) break;
    // A wave: the earliest waiting message of each destination (the chain delivers an account's messages
    // in created_lt order; different accounts do not wait for each other), run side by side in the pool.
    queue.sort((a, b) => (a.createdLt < b.createdLt ? -1 : a.createdLt > b.createdLt ? 1 : 0));
    const wave: Hop[] = [];
    const taken = new Set<string>();
    for (const hop of queue) {
      const key = rawUpper(hop.dest);
      if (taken.has(key) || wave.length >= left) continue;
      taken.add(key);
      wave.push(hop);
    }
    for (const hop of wave) queue.splice(queue.indexOf(hop), 1);
    for (const { hop, out, code, lt } of await Promise.all(wave.map(runHop))) {
      if ('error' in out) {
        // Only an external can be refused (no transaction at all); an internal message always makes one.
        if (transactions.length === 0) rejected = out.error;
        break;
      }
      transactions.push(out.cell);
      const st = out.tx.endStatus === 'active' ? code : null;
      ended.set(rawUpper(hop.dest), out.shardAccount);
      accounts.set(rawUpper(hop.dest), Promise.resolve({ shardAccount: out.shardAccount, code: st, nextLt: lt + BigInt(out.tx.outMessagesCount) + 1n }));
      // The out-message cells as the transaction holds them, so each hop's in-message hash is the one sent.
      for (const cell of transactionMessages(out.cell).outMsgs) {
        const m = loadMessage(cell.beginParse());
        if (m.info.type !== 'internal') continue;
        queue.push({ message: cell, dest: m.info.dest, createdLt: m.info.createdLt });
        void slot(m.info.dest);
      }
    }
  }
  const endStates = new Map<string, Cell>();
  for (const [key, s] of ended) endStates.set(key, s);
  return { block, transactions, rejected, truncated: queue.length > 0 && rejected === null, endStates, config, now };
}
