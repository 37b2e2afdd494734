// A live view's catch-up read (after its stream subscribed) must be a read begun after the subscription:
// a read already under way may carry an answer from before an event the stream sent before subscribing,
// and the view would keep it (a trace page stuck at "Confirmed" while the trace was finalized).
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { catchUpReads } from './live';

/** A query whose reads each resolve when the test says, in the order they began. */
function controlledQuery(qc: QueryClient, key: string) {
  const reads: { answer: (v: string) => void }[] = [];
  const observer = new QueryObserver<string>(qc, {
    queryKey: ['api', key],
    queryFn: () => new Promise<string>((answer) => reads.push({ answer })),
    retry: false,
  });
  const unsubscribe = observer.subscribe(() => {});
  return { reads, data: () => observer.getCurrentResult().data, unsubscribe };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('catchUpReads', () => {
  let qc: QueryClient;
  afterEach(() => qc.clear());

  it('reads once more a query whose read began before the catch-up, without cutting that read short', async () => {
    qc = new QueryClient();
    const q = controlledQuery(qc, 'traces');
    await tick();
    expect(q.reads).toHaveLength(1); // the page's own read, under way
    const done = catchUpReads(qc, () => true);
    await tick();
    // Not cancelled: the first read is still the one pending, and it is answered (as before the commit).
    expect(q.reads).toHaveLength(1);
    q.reads[0]!.answer('not landed yet');
    await tick();
    expect(q.reads).toHaveLength(2); // a read begun after the catch-up was asked for
    q.reads[1]!.answer('finalized');
    await done;
    expect(q.data()).toBe('finalized');
    q.unsubscribe();
  });

  it('reads an idle query once, and leaves the queries it does not pick alone', async () => {
    qc = new QueryClient();
    const mine = controlledQuery(qc, 'traces');
    const other = controlledQuery(qc, 'blocks');
    await tick();
    mine.reads[0]!.answer('a');
    other.reads[0]!.answer('b');
    await tick();
    const done = catchUpReads(qc, (key) => key[1] === 'traces');
    await tick();
    expect(mine.reads).toHaveLength(2);
    mine.reads[1]!.answer('a2');
    await done;
    expect(mine.reads).toHaveLength(2);
    expect(other.reads).toHaveLength(1);
    expect(mine.data()).toBe('a2');
    mine.unsubscribe();
    other.unsubscribe();
  });
});
