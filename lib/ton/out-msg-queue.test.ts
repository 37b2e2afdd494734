import { Address, Cell, beginCell, storeMessage, type Message } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { augDictSet } from './hashmap-aug';
import { storeMsgEnvelope } from './msg-descr';
import {
  emptyProcessedInfo,
  loadOutMsgQueueInfo,
  outMsgQueueAug,
  outMsgQueueEntries,
  outMsgQueueInfoCell,
  outMsgQueueKey,
  outMsgQueueMinLt,
  processedKey,
  splitOutMsgQueueKey,
} from './out-msg-queue';
import { emptyOutMsgQueueInfo } from './shard-state';

function envelope(createdLt: bigint, emittedLt?: bigint) {
  const message: Message = {
    info: {
      type: 'internal',
      ihrDisabled: true,
      bounce: false,
      bounced: false,
      src: Address.parseRaw(`0:${'01'.repeat(32)}`),
      dest: Address.parseRaw(`0:${'ab'.repeat(32)}`),
      value: { coins: 1n },
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt,
      createdAt: 0,
    },
    body: Cell.EMPTY,
  };
  const msg = beginCell().store(storeMessage(message)).endCell();
  return beginCell()
    .store(storeMsgEnvelope({ version: 2, curAddr: { kind: 'regular', useDestBits: 32 }, nextAddr: { kind: 'regular', useDestBits: 36 }, fwdFeeRemaining: 5n, msg, emittedLt }))
    .endCell();
}

describe('OutMsgQueueInfo', () => {
  it('an empty one is the empty queue info every state had so far', () => {
    expect(outMsgQueueInfoCell({ queue: null, processed: emptyProcessedInfo() }).hash()).toEqual(emptyOutMsgQueueInfo().hash());
  });

  it('keeps entries by next hop and message hash, augmented with the smallest emitted lt', () => {
    const a = envelope(3_000_002n);
    const b = envelope(1_000_005n);
    const c = envelope(9_000_001n, 2_000_000n); // an explicit emitted_lt wins over created_lt
    let queue = null;
    const keys: bigint[] = [];
    for (const [i, env] of [a, b, c].entries()) {
      const key = outMsgQueueKey({ workchain: 0, prefix: 0xa000000000000000n + BigInt(i) }, env.refs[0].hash());
      keys.push(key);
      queue = augDictSet(queue, 352, key, { enqueuedLt: 7n, envelope: env }, outMsgQueueAug);
    }
    expect(outMsgQueueMinLt(queue)).toBe(1_000_005n);
    const processed = emptyProcessedInfo();
    processed.set(processedKey(0x6000000000000000n, 42), { lastMsgLt: 1_000_005n, lastMsgHash: b.refs[0].hash() });
    const back = loadOutMsgQueueInfo(outMsgQueueInfoCell({ queue, processed }));
    expect([...outMsgQueueEntries(back.queue).keys()]).toEqual([...keys].sort((x, y) => (x < y ? -1 : 1)));
    expect(outMsgQueueEntries(back.queue).get(keys[2])?.envelope.hash()).toEqual(c.hash());
    expect(back.processed.get(processedKey(0x6000000000000000n, 42))?.lastMsgLt).toBe(1_000_005n);
    expect(splitOutMsgQueueKey(keys[1])).toEqual({ next: { workchain: 0, prefix: 0xa000000000000001n }, msgHash: b.refs[0].hash() });
    expect(splitOutMsgQueueKey(outMsgQueueKey({ workchain: -1, prefix: 1n }, b.refs[0].hash())).next.workchain).toBe(-1);
  });
});
