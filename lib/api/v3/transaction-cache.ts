// The parts of finalized transactions that never change, kept in memory by each API process: the
// inbound and outbound messages (bodies and init states included, decoded) and the description. A
// transaction's messages and description are fixed by its hash; what can change around it — its trace's
// external hash, whether the account states before and after are indexed, the address book — is read
// for every answer and stays outside. A page of kept transactions skips reading its messages (the
// heaviest rows) and mapping them, and their bytes are serialized once (serialize.ts renderedOnce).
import type { MessageJson } from './models/messages';
import type { TransactionDescrJson } from './models/transactions';
import { renderedOnce } from './serialize';
import { SizedLru } from './sized-lru';

export interface KeptTransaction {
  inMsg: MessageJson | null;
  /** In toncenter's order (created_lt ascending). */
  outMsgs: MessageJson[];
  description: TransactionDescrJson;
}

// An estimate of the JSON size: the message bodies and init states (base64) dominate large ones; the
// rest is close to fixed per transaction and message.
const PER_TRANSACTION = 1_500;
const PER_MESSAGE = 700;

function messageSize(m: MessageJson | null): number {
  return m ? PER_MESSAGE + (m.message_content?.body?.length ?? 0) + (m.init_state?.body?.length ?? 0) : 0;
}

const keptSize = (t: KeptTransaction) => PER_TRANSACTION + messageSize(t.inMsg) + t.outMsgs.reduce((n, m) => n + messageSize(m), 0);

/** Kept transactions by hash (hex). */
export class TransactionCache {
  private readonly lru: SizedLru<KeptTransaction>;

  /** `maxBytes`: the estimated JSON size of the transactions kept. */
  constructor(maxBytes: number) {
    this.lru = new SizedLru(maxBytes, keptSize);
  }

  get(hashHex: string): KeptTransaction | undefined {
    return this.lru.get(hashHex);
  }

  /** Keeps `t` (its messages and description are then frozen and serialized once). */
  set(hashHex: string, t: KeptTransaction): void {
    if (t.inMsg) renderedOnce(t.inMsg);
    for (const m of t.outMsgs) renderedOnce(m);
    renderedOnce(t.description);
    this.lru.set(hashHex, t);
  }

  get stats() {
    return this.lru.stats;
  }
}
