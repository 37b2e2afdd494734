// The hub's own rules, below the transports: connection slots per API key and per client address, and
// the slow-consumer policy (the transports' byte bounds are tested with real clients in transports.test.ts).
import { describe, expect, it } from 'vitest';
import { log } from '../log';
import type { BlockEvent } from './events';
import { ReceivedStream } from '../testing/received-stream';
import { StreamHub } from './hub';
import { parseSubscription } from './subscription';

const blocks = parseSubscription({ types: ['blocks'] }, { maxAddresses: 10 });
const block = (mcSeqno: number): BlockEvent => ({ kind: 'block', mcSeqno, transactions: 2, at: Date.now() });

function attach(hub: StreamHub, conn: ReceivedStream) {
  const slot = hub.admit(null, '127.0.0.1');
  if (!slot.ok || !blocks.ok) throw new Error('no slot');
  const reg = hub.register(conn, 'sse', slot.owner);
  reg.subscribe(blocks.value);
  return reg;
}

describe('StreamHub', () => {
  it('holds connections per API key and per client address to their limits, and frees them on close', () => {
    const hub = new StreamHub({ limits: { maxConnectionsPerKey: 2, maxConnectionsPerIp: 1 }, log });
    expect(hub.admit(null, '10.0.0.1').ok).toBe(true);
    expect(hub.admit(null, '10.0.0.1')).toEqual({ ok: false, error: 'connection limit reached: this client address without an API key has 1 open streams (at most 1)' });
    expect(hub.admit(null, '10.0.0.2').ok).toBe(true);
    const a = hub.admit('k1', '10.0.0.1');
    expect(a.ok && hub.admit('k1', '10.0.0.3').ok).toBe(true);
    expect(hub.admit('k1', '10.0.0.4')).toEqual({ ok: false, error: 'connection limit reached: this API key has 2 open streams (at most 2)' });
    hub.register(new ReceivedStream(), 'sse', a.ok ? a.owner : '').remove();
    expect(hub.admit('k1', '10.0.0.4').ok).toBe(true);
  });

  it('drops a consumer that stops reading, with its reason, while the others keep receiving', () => {
    const hub = new StreamHub({ limits: { maxConnectionsPerKey: 10, maxConnectionsPerIp: 10 }, log });
    const slow = new ReceivedStream(1);
    const fine = new ReceivedStream();
    attach(hub, slow);
    attach(hub, fine);
    for (const seqno of [10, 11, 12]) hub.dispatch(block(seqno));
    expect(slow.all).toHaveLength(1);
    expect(slow.ended?.reason).toBe('slow_consumer');
    expect(slow.ended?.message).toMatch(/^slow consumer/);
    expect(fine.all).toEqual([10, 11, 12].map((mc_seqno) => ({ type: 'blocks', finality: 'finalized', mc_seqno, transactions: 2 })));
    expect(hub.status()).toMatchObject({ connections: 1, dropped_slow_consumers: 1, delivered: 4 });
  });

  it('ends every stream on close, saying why, and admits none after', () => {
    const hub = new StreamHub({ limits: { maxConnectionsPerKey: 10, maxConnectionsPerIp: 10 }, log });
    const r = new ReceivedStream();
    attach(hub, r);
    hub.close();
    expect(r.ended?.reason).toBe('shutdown');
    expect(hub.status().connections).toBe(0);
    expect(hub.admit(null, '127.0.0.1')).toEqual({ ok: false, error: 'the server is shutting down' });
  });
});
