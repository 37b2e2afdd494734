// A WebSocket's message budget (STREAM_WS_MESSAGES_PER_SECOND), with the `ws` package against the real
// HTTP edge and gateway: the first message past it is refused in words on a connection that stays open,
// one more in that second closes it with 1008 and the reason; the budget comes back the next second.
// The budget's clock is the test's: a second passes when the test says so, not by sleeping.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimitedAccess } from '../auth/access';
import { parseConfig } from '../config';
import { createAtlasServer } from '../server/server';
import { log } from '../log';
import { openWs } from '../testing/stream-clients';
import { memoryBus, type EventBus } from './bus';
import { streamGateway } from './gateway';
import { StreamHub } from './hub';
import { MessageRate } from './message-rate';

const PER_SECOND = 5;
let url: string;
let bus: EventBus;
/** The gateway's clock for message budgets, in ms. */
let now = 0;
let stop: () => Promise<void>;

beforeAll(async () => {
  const config = parseConfig({ VITEST: 'true', STREAM_WS_MESSAGES_PER_SECOND: String(PER_SECOND) });
  const hub = new StreamHub({ limits: config.stream, log });
  bus = memoryBus(log);
  bus.subscribe((e) => hub.dispatch(e));
  const edge = createAtlasServer({ config, handle: (_req, res) => res.writeHead(404).end(), log, streams: streamGateway({ hub, config, access: async () => unlimitedAccess, log, now: () => now }) });
  await new Promise<void>((resolve) => edge.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(edge.server.address() as AddressInfo).port}`;
  stop = async () => {
    hub.close();
    await edge.close();
  };
});
afterAll(() => stop?.());

const ping = (id: string) => JSON.stringify({ id, operation: 'ping' });

describe('WebSocket message rate', () => {
  it('refuses the first message past the budget with the reason, keeps the connection, and serves again the next second', async () => {
    const c = await openWs(url);
    for (let i = 0; i < PER_SECOND; i++) c.ws.send(ping(`p${i}`));
    // The refused message is not carried out: this subscription never takes effect.
    c.ws.send(JSON.stringify({ id: 'over', operation: 'subscribe', types: ['blocks'] }));
    const refused = await c.waitFor((m) => m.find((x) => x.id === 'over'), 'the refusal');
    expect(refused).toEqual({ id: 'over', error: `too many messages: at most ${PER_SECOND} per second on one connection; this one was not carried out, and one more within this second closes the connection` });
    expect(c.messages.filter((m) => m.status === 'pong')).toHaveLength(PER_SECOND);
    now += 1000;
    await bus.publish({ kind: 'block', mcSeqno: 7, transactions: 1, at: Date.now() });
    expect(await c.request({ operation: 'ping' })).toMatchObject({ status: 'pong' });
    expect(c.messages.some((m) => m.type === 'blocks')).toBe(false);
    // Subscribed in the new second, it is carried out.
    expect(await c.request({ operation: 'subscribe', types: ['blocks'] })).toMatchObject({ status: 'subscribed' });
    await bus.publish({ kind: 'block', mcSeqno: 8, transactions: 1, at: Date.now() });
    await c.waitFor((m) => m.find((x) => x.type === 'blocks' && x.mc_seqno === 8), 'the block');
    c.close();
  });

  it('closes a connection that goes on past the refusal with 1008 and the reason', async () => {
    const c = await openWs(url);
    for (let i = 0; i < PER_SECOND + 5; i++) c.ws.send(ping(`f${i}`));
    expect(await c.closed).toEqual({ code: 1008, reason: `too many messages: over ${PER_SECOND} per second after a warning` });
    expect(c.messages.filter((m) => m.status === 'pong')).toHaveLength(PER_SECOND);
    expect(c.messages.filter((m) => typeof m.error === 'string' && m.error.startsWith('too many messages'))).toHaveLength(1);
  });

  it('counts every message, requests that are not JSON included, in one-second windows', () => {
    let now = 0;
    const rate = new MessageRate(2, () => now);
    expect([rate.take(), rate.take(), rate.take()]).toEqual(['ok', 'ok', 'refuse']);
    now = 999;
    expect(rate.take()).toBe('close');
    now = 1000;
    expect([rate.take(), rate.take(), rate.take()]).toEqual(['ok', 'ok', 'refuse']);
  });
});
