// Pending traces (issue 15, api-v3.md §4.3): every external message Atlas accepts for sending (v2
// sendBoc*, v3 POST /message) is emulated at once — the whole trace, every internal hop (emulate.ts) —
// classified by the action classifier and kept in the pending store (store.ts) until the real trace is
// indexed or the entry expires. A message the chain will refuse is kept as a refusal (no trace) and
// logged. None of it delays or fails the send: the send's handler starts the work and answers as before.
import { Cell, loadMessage } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { classify } from '../actions/classify';
import type { Action, AccountInterfaces, Trace } from '../actions/model';
import type { PrismaClient } from '../db/generated/client';
import { parseTransaction, type ParsedTransaction } from '../chain/parse-transaction';
import { normalizedHash } from '../ton/normalized-hash';
import { prismaReader } from '../indexer/sql';
import { addressesOf, dataJson } from '../indexer/trace-actions';
import { addressInterfaces, parsedTraceTransactions } from '../indexer/trace-input';
import type { Logger } from '../log';
import { rawUpper } from '../ton/address';
import type { TvmPool } from '../tvm/pool';
import { addDeployedItems } from './deployed';
import { EMULATION_DEFAULTS, emulateTrace, type EmulatedTrace, type EmulateOptions } from './emulate';
import type { ConfirmedBlock, PendingEntry, PendingStore } from './store';

export type { ConfirmedBlock, PendingEntry, PendingStore } from './store';

/** Emulated transactions carry no block: a masterchain-wide shard, seqno 0 (as toncenter's emulator). */
export const EMULATED_SHARD = -(2n ** 63n);

/** A pending entry's transaction: emulated (no block), or confirmed in `block` (a shard block not yet committed). */
export function parseEmulated(cell: Cell, block?: ConfirmedBlock): ParsedTransaction {
  if (block) return parseTransaction(cell, { workchain: block.workchain, blockShard: BigInt(block.shard), blockSeqno: block.seqno, mcBlockSeqno: null });
  // The account's workchain: the transaction holds only the address's 256 bits; its in-message names it.
  const io = cell.refs[0]!.beginParse();
  const inMsg = io.loadBit() ? loadMessage(io.loadRef().beginParse()) : null;
  const workchain = inMsg && inMsg.info.type !== 'external-out' ? inMsg.info.dest.workChain : 0;
  return parseTransaction(cell, { workchain, blockShard: EMULATED_SHARD, blockSeqno: 0, mcBlockSeqno: null });
}

/** Actions as stored in an entry: bigints as decimal strings (the *_data objects as the DB keeps them). */
const encodeAction = (a: Action) => dataJson(a as never) as Record<string, unknown>;

const BIG_FIELDS = ['start_lt', 'end_lt', 'trace_end_lt', 'value', 'amount'] as const;

/** An entry's action back as the classifier's record (the *_data objects stay as stored, like the DB's). */
export function decodeAction(j: Record<string, unknown>): Action {
  const a = { ...j } as Record<string, unknown>;
  for (const k of BIG_FIELDS) if (a[k] !== null && a[k] !== undefined) a[k] = BigInt(a[k] as string);
  return a as unknown as Action;
}

export interface PendingOptions {
  lite: LiteClient;
  tvm: TvmPool;
  store: PendingStore;
  /** The index, for what it knows about the trace's addresses (jetton wallets' owners and masters). */
  prisma?: PrismaClient;
  log: Logger;
  emulation?: EmulateOptions;
  /** Called with each entry once it is in the store (the Streaming API publishes it: lib/stream). */
  onStored?: (entry: PendingEntry) => void;
}

/** The transactions of a trace seen in shard blocks ahead of their masterchain block (the indexer's hook). */
export interface ConfirmedTrace {
  externalHash: string;
  externalHashNorm: string;
  /** The transactions, each with its block, in lt order. */
  transactions: { cell: Cell; block: ConfirmedBlock }[];
  /** The newest masterchain block the index held when they were seen. */
  mcSeqno: number;
}

export class PendingTraces {
  readonly store: PendingStore;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The emulations under way, by external message hash (base64). */
  private readonly emulating = new Map<string, Promise<unknown>>();

  constructor(private readonly opts: PendingOptions) {
    this.store = opts.store;
  }

  /**
   * Emulates `external` (its states pinned before `send` runs, so the message cannot have changed them
   * yet), calls `send`, and stores the outcome once the send has succeeded; a failed send keeps nothing
   * but a refusal. `sent` is the send's own promise, unchanged; `done` never rejects: failures are logged.
   */
  track<T>(external: Cell, send: () => Promise<T>): { sent: Promise<T>; done: Promise<PendingEntry | null> } {
    const emulation = this.entryOf(external);
    const sent = send();
    const work = emulation.then(
      async (entry) => {
        const ok = await sent.then(
          () => true,
          () => false,
        );
        if (!ok && !entry.rejected) return null;
        if (entry.rejected) this.opts.log.warn({ component: 'pending', ext_msg_hash: entry.externalHash, reason: entry.rejected }, 'external message will be rejected by the chain');
        // The real transactions may have been seen in a shard block already: the prediction does not replace them.
        const [known] = await this.store.byHashes([entry.externalHash]);
        if (known?.finality === 'confirmed') return known;
        await this.keep(entry);
        return entry;
      },
      (err: unknown) => {
        this.opts.log.warn({ component: 'pending', err: err instanceof Error ? err.message : String(err) }, 'pending trace emulation failed');
        return null;
      },
    );
    const done = work.catch((err: unknown) => {
      this.opts.log.warn({ component: 'pending', err: err instanceof Error ? err.message : String(err) }, 'pending store write failed');
      return null;
    });
    this.inFlight.add(done);
    const hash = external.hash().toString('base64');
    this.emulating.set(hash, done);
    void done.finally(() => {
      this.inFlight.delete(done);
      if (this.emulating.get(hash) === done) this.emulating.delete(hash);
    });
    return { sent, done };
  }

  /** Resolves once the emulation of this external message (if one is under way) is stored or given up. */
  async settled(externalHash: string): Promise<void> {
    await this.emulating.get(externalHash);
  }

  /** The emulated, classified trace of `external` as a store entry (not stored); `emulation` overrides the bounds. */
  async entryOf(external: Cell, emulation?: EmulateOptions): Promise<PendingEntry> {
    const msg = loadMessage(external.beginParse());
    const norm = normalizedHash(msg);
    if (!norm || msg.info.type !== 'external-in') throw new Error('not an external inbound message');
    const externalHash = external.hash().toString('base64');
    const emulated = await emulateTrace(this.opts.lite, this.opts.tvm, external, emulation ?? this.opts.emulation ?? EMULATION_DEFAULTS);
    const base = { externalHash, externalHashNorm: norm.toString('base64'), createdAt: Date.now(), mcSeqno: emulated.block.id.seqno, truncated: emulated.truncated };
    const dest = rawUpper(msg.info.dest);
    if (emulated.rejected !== null) {
      return { ...base, transactions: [], actions: null, accounts: [dest], actionAccounts: [], rejected: emulated.rejected };
    }
    return this.classified(base, emulated.transactions, undefined, emulated);
  }

  /**
   * Keeps a trace seen in shard blocks not yet committed by a masterchain block (finality `confirmed`):
   * classified like an emulated one, in the store under its external message, with what was confirmed of
   * it before (a trace may span several shard blocks). Resolves once it is stored.
   */
  async confirm(t: ConfirmedTrace): Promise<PendingEntry> {
    const [before] = await this.store.byHashes([t.externalHash]);
    const earlier = before?.finality === 'confirmed' ? before.transactions.map((boc, i) => ({ cell: Cell.fromBase64(boc), block: before.blocks![i]! })) : [];
    const seen = new Set(earlier.map((x) => x.cell.hash().toString('hex')));
    const all = [...earlier, ...t.transactions.filter((x) => !seen.has(x.cell.hash().toString('hex')))];
    const base = { externalHash: t.externalHash, externalHashNorm: t.externalHashNorm, createdAt: before?.createdAt ?? Date.now(), mcSeqno: t.mcSeqno, truncated: false };
    const entry = await this.classified(base, all.map((x) => x.cell), all.map((x) => x.block));
    await this.keep(entry);
    return entry;
  }

  /** An entry of these transactions (root first), classified with what the index knows of their addresses. */
  private async classified(
    base: Pick<PendingEntry, 'externalHash' | 'externalHashNorm' | 'createdAt' | 'mcSeqno' | 'truncated'>,
    cells: Cell[],
    blocks?: ConfirmedBlock[],
    emulated?: EmulatedTrace,
  ): Promise<PendingEntry> {
    const parsed = cells.map((c, i) => parseEmulated(c, blocks?.[i]));
    const transactions = parsedTraceTransactions(parsed);
    const trace: Trace = {
      traceId: transactions[0]!.hash,
      externalHash: base.externalHash,
      mcSeqnoEnd: 0,
      endLt: transactions.reduce((m, t) => (t.lt > m ? t.lt : m), 0n),
      endUtime: Math.max(...transactions.map((t) => t.now)),
      transactions,
    };
    const actions = await this.classify(trace, emulated);
    return {
      ...base,
      transactions: cells.map((c) => c.toBoc().toString('base64')),
      actions: actions?.map(encodeAction) ?? null,
      accounts: [...new Set(transactions.map((t) => t.account))],
      actionAccounts: [...new Set((actions ?? []).flatMap((a) => a.accounts))],
      rejected: null,
      ...(blocks ? { finality: 'confirmed' as const, blocks } : {}),
    };
  }

  /** Stores an entry, then tells the Streaming API (only stored data is ever streamed). */
  private async keep(entry: PendingEntry): Promise<void> {
    await this.store.put(entry);
    if (entry.rejected === null) this.opts.onStored?.(entry);
  }

  /** `emulated`: the emulation's end states, for the NFT items it deploys (deployed.ts). */
  private async classify(trace: Trace, emulated?: EmulatedTrace): Promise<Action[] | null> {
    try {
      const interfaces: Map<string, AccountInterfaces> = this.opts.prisma ? await addressInterfaces(prismaReader(this.opts.prisma), addressesOf(trace)) : new Map();
      const sold = emulated ? await addDeployedItems(this.opts.tvm, emulated, interfaces) : [];
      // The items of sales and auctions the trace opened: the index knows them (they are not new).
      if (sold.length && this.opts.prisma) {
        for (const [a, info] of await addressInterfaces(prismaReader(this.opts.prisma), sold)) if (info.nftItem) interfaces.set(a, { ...interfaces.get(a), nftItem: info.nftItem });
      }
      return classify(trace, interfaces);
    } catch (err) {
      this.opts.log.warn({ component: 'pending', err: err instanceof Error ? err.message : String(err), ext_msg_hash: trace.externalHash }, 'classifier failed on a pending trace');
      return null;
    }
  }

  /** Waits for the emulations under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  async close(): Promise<void> {
    await this.idle();
    await this.store.close();
  }
}
