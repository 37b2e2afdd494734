// Requests a contract of a block received (a jetton wallet's transfer, an NFT item's transfer): the
// transaction, its in-message's body and what the detector knows about the receiver. One walk for
// every token family, so they agree on which transactions count.
import type { MessageRecord } from '../../chain/records';
import type { DeriveBlock } from './detector';

/** What every received request carries, whatever the receiver. */
export interface ReceivedRequest {
  txHash: Buffer;
  lt: bigint;
  now: number;
  aborted: boolean;
  mcSeqno: number;
  body: Buffer;
}

/**
 * The block's transactions with an in-message whose body is at hand and that `pick` accepts (it
 * returns the receiver's own fields, undefined to skip). Every account that had a transaction is
 * among the block's accounts, so the receiver's data is at hand for `pick`.
 */
export function receivedRequests<R extends object>(
  block: DeriveBlock,
  pick: (account: string, msg: MessageRecord) => R | undefined,
): (ReceivedRequest & R)[] {
  const inMessages = new Map<string, MessageRecord>();
  for (const b of block.blocks) for (const m of b.messages) if (m.direction === 'in') inMessages.set(m.txHash.toString('hex'), m);
  const requests: (ReceivedRequest & R)[] = [];
  for (const b of block.blocks) {
    for (const t of b.transactions) {
      const msg = inMessages.get(t.hash.toString('hex'));
      const own = msg && pick(t.account, msg);
      if (!msg || !own) continue;
      const body = block.contents.get(msg.bodyHash.toString('hex'));
      if (!body) continue;
      requests.push({ txHash: t.hash, lt: t.lt, now: t.now, aborted: t.description.aborted ?? false, mcSeqno: block.mcSeqno, body, ...own });
    }
  }
  return requests;
}
