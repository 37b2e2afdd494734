// Equivalence of the WebSocket fast path: a notification is framed once (Payload.ws) and written to every
// stream as is, where it used to be framed per stream by the ws library's sender. The bytes a client
// receives must be those the library would have sent: compared here against its own framer, in memory at
// every length boundary and on the wire, read by a raw TCP client behind the real HTTP edge.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as wsLibrary from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlimitedAccess } from '../auth/access';
import { parseConfig } from '../config';
import { createAtlasServer } from '../server/server';
import { log } from '../log';
import { memoryBus, type EventBus } from './bus';
import type { TraceEvent } from './events';
import { streamGateway } from './gateway';
import { Payload, StreamHub } from './hub';

/** The ws library's framer: exported at run time, absent from its type declarations. */
const { Sender } = wsLibrary as unknown as { Sender: { frame(data: Buffer, o: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] } };

/** What the ws library's sender writes for a server's text message (no mask, no compression). */
const wsLibraryFrame = (json: string) => Buffer.concat(Sender.frame(Buffer.from(json), { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));

let port: number;
let bus: EventBus;
let stop: () => Promise<void>;

beforeAll(async () => {
  const config = parseConfig({ VITEST: 'true' });
  const hub = new StreamHub({ limits: config.stream, log });
  bus = memoryBus(log);
  bus.subscribe((e) => hub.dispatch(e));
  const edge = createAtlasServer({ config, handle: (_req, res) => res.writeHead(404).end(), log, streams: streamGateway({ hub, config, access: async () => unlimitedAccess, log }) });
  await new Promise<void>((resolve) => edge.server.listen(0, '127.0.0.1', resolve));
  port = (edge.server.address() as AddressInfo).port;
  stop = async () => {
    hub.close();
    await edge.close();
  };
});
afterAll(() => stop?.());

/** A WebSocket client on a bare TCP socket: every byte the server sends is kept as it arrived. */
async function rawClient() {
  const socket = net.connect(port, '127.0.0.1');
  let buf = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    waiting?.();
  });
  const until = async <T>(take: () => T | undefined): Promise<T> => {
    for (;;) {
      const got = take();
      if (got !== undefined) return got;
      await new Promise<void>((r) => (waiting = r));
    }
  };
  socket.write(`GET /api/streaming/v2/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  const head = await until(() => {
    const end = buf.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const text = buf.subarray(0, end).toString();
    buf = buf.subarray(end + 4);
    return text;
  });
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
  return {
    /** A masked text frame, as a client must send it. */
    send: (json: string) => socket.write(Buffer.concat(Sender.frame(Buffer.from(json), { fin: true, opcode: 1, mask: true, readOnly: false, rsv1: false }))),
    /** The next whole frame, its bytes exactly as received. */
    frame: () =>
      until(() => {
        if (buf.length < 2) return undefined;
        const len7 = buf[1]! & 0x7f;
        const head = len7 < 126 ? 2 : len7 === 126 ? 4 : 10;
        if (buf.length < head) return undefined;
        const n = len7 < 126 ? len7 : len7 === 126 ? buf.readUInt16BE(2) : Number(buf.readBigUInt64BE(2));
        if (buf.length < head + n) return undefined;
        const frame = Buffer.from(buf.subarray(0, head + n));
        buf = buf.subarray(head + n);
        return frame;
      }),
    close: () => socket.destroy(),
  };
}

const ACCOUNT = `0:${'AB'.repeat(32)}`;

/** A finalized trace event whose one transaction (the fields the hub reads, and `pad` characters) makes a notification of about that size. */
function traceOf(norm: string, pad: number): TraceEvent {
  const tx = { account: ACCOUNT, hash: norm, lt: '1', out_msgs: [], pad: 'x'.repeat(pad) };
  return { kind: 'trace', finality: 'finalized', norm, transactions: [tx as never], trace: null, actions: null, address_book: {}, metadata: {}, at: Date.now() };
}

describe('WebSocket frames made once for every stream', () => {
  it('are the bytes the ws library frames, at every length boundary (7-, 16- and 64-bit lengths)', () => {
    for (const n of [2, 3, 125, 126, 127, 65_535, 65_536, 70_000]) {
      const json = JSON.stringify('y'.repeat(n - 2));
      expect(json.length).toBe(n);
      expect(new Payload(json).ws.equals(wsLibraryFrame(json))).toBe(true);
    }
    const unicode = JSON.stringify({ comment: 'héllo ✓ 🙂' });
    expect(new Payload(unicode).ws.equals(wsLibraryFrame(unicode))).toBe(true);
  });

  it('reach a client on the wire byte for byte as the ws library would send them, between its own replies', async () => {
    const a = await rawClient();
    const b = await rawClient();
    for (const c of [a, b]) {
      c.send(JSON.stringify({ id: 's', operation: 'subscribe', types: ['transactions', 'blocks'], addresses: [ACCOUNT] }));
      expect((await c.frame()).equals(wsLibraryFrame('{"id":"s","status":"subscribed"}'))).toBe(true);
    }
    const sizes = [50, 300, 70_000];
    for (const [i, pad] of sizes.entries()) await bus.publish(traceOf(`norm${i}`, pad));
    await bus.publish({ kind: 'block', mcSeqno: 9, transactions: 3, at: Date.now() });
    for (const c of [a, b]) {
      for (const [i, pad] of sizes.entries()) {
        const expected = { type: 'transactions', finality: 'finalized', trace_external_hash_norm: `norm${i}`, transactions: [{ account: ACCOUNT, hash: `norm${i}`, lt: '1', out_msgs: [], pad: 'x'.repeat(pad) }] };
        expect((await c.frame()).equals(wsLibraryFrame(JSON.stringify(expected)))).toBe(true);
      }
      expect((await c.frame()).equals(wsLibraryFrame('{"type":"blocks","finality":"finalized","mc_seqno":9,"transactions":3}'))).toBe(true);
      // A reply the library frames itself follows the notifications on the same connection, whole.
      c.send('{"id":"p","operation":"ping"}');
      expect((await c.frame()).equals(wsLibraryFrame('{"id":"p","status":"pong"}'))).toBe(true);
      c.close();
    }
  });
});
