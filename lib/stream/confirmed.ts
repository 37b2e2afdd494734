// The traces a shard block seen ahead of the index holds (confirmed finality): each transaction joins
// the trace of the transaction that sent its in-message — in the same block, or in one seen before — and
// a trace starts at an external inbound message. A transaction whose sender is neither (its trace began
// before this process was watching) waits for its masterchain block to be streamed, finalized.
import { Cell } from '@ton/core';
import type { SeenShardBlock } from '../indexer/events';
import type { MessageRecord } from '../chain/records';
import type { ConfirmedTrace } from '../pending';

interface Root {
  externalHash: string;
  externalHashNorm: string;
}

/** Out-message hashes (hex) of confirmed traces → their trace, so later hops in later blocks join them. */
export class ConfirmedLinks {
  private readonly roots = new Map<string, Root>();
  constructor(private readonly max = 50_000) {}

  get(msgHash: string): Root | undefined {
    return this.roots.get(msgHash);
  }

  add(msgHash: string, root: Root): void {
    this.roots.set(msgHash, root);
    if (this.roots.size > this.max) this.roots.delete(this.roots.keys().next().value!);
  }
}

export function confirmedTraces(seen: SeenShardBlock, links: ConfirmedLinks): ConfirmedTrace[] {
  const { block, id, mcSeqno } = seen;
  const where = { workchain: id.workchain, shard: BigInt.asIntN(64, id.shard).toString(), seqno: id.seqno };
  const inOf = new Map<string, MessageRecord>();
  const outsOf = new Map<string, MessageRecord[]>();
  for (const m of block.messages) {
    const tx = m.txHash.toString('hex');
    if (m.direction === 'in') inOf.set(tx, m);
    else outsOf.set(tx, [...(outsOf.get(tx) ?? []), m]);
  }
  const traces = new Map<string, ConfirmedTrace>();
  // In lt order a sender comes before what its messages caused, so its root is known by then.
  const txs = [...block.transactions].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  for (const t of txs) {
    const inMsg = inOf.get(t.hash.toString('hex'));
    if (!inMsg) continue; // tick-tock: no trace of an external message
    const root: Root | undefined =
      inMsg.msgHashNorm // only an external inbound message has one
        ? { externalHash: inMsg.msgHash.toString('base64'), externalHashNorm: inMsg.msgHashNorm.toString('base64') }
        : links.get(inMsg.msgHash.toString('hex'));
    if (!root) continue;
    let trace = traces.get(root.externalHash);
    if (!trace) traces.set(root.externalHash, (trace = { ...root, transactions: [], mcSeqno }));
    trace.transactions.push({ cell: Cell.fromBoc(t.boc)[0]!, block: where });
    for (const m of outsOf.get(t.hash.toString('hex')) ?? []) links.add(m.msgHash.toString('hex'), root);
  }
  return [...traces.values()];
}
