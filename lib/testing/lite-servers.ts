/**
 * Test helper: real ADNL lite servers (the devnet's startAdnlServer) on 127.0.0.1 answering with the
 * transport tests' sample handler, which can be stopped and started again on the same port and key.
 */
import { startAdnlServer, type AdnlServer } from '../devnet/transport/adnl-server';
import { decodeLiteQuery, type LiteQueryHandler } from '../lite/tl/codec';
import { createTestHandler, type TestHandler } from './lite-sample-handler';
import type { LiteServerEndpoint } from '../lite/connection';

export interface TestLiteServer {
  readonly name: string;
  readonly endpoint: LiteServerEndpoint;
  readonly test: TestHandler;
  /** Function kinds (e.g. 'liteServer.getTime') this server receives but never answers. */
  readonly hang: Set<string>;
  /** How many calls of `kind` this server received (all kinds when omitted). */
  calls(kind?: string): number;
  isRunning(): boolean;
  stop(): Promise<void>;
  /** Starts again on the same port with the same key. */
  start(): Promise<void>;
}

export async function startTestServer(index: number): Promise<TestLiteServer> {
  const seed = Buffer.alloc(32, 0x60 + index);
  const test = createTestHandler({ slowMs: 50 });
  const hang = new Set<string>();
  const handler: LiteQueryHandler = (query) => {
    let kind = '';
    try {
      kind = decodeLiteQuery(query).fn.kind;
    } catch {
      // the test handler answers undecodable queries
    }
    if (hang.has(kind)) {
      test.calls.push(decodeLiteQuery(query));
      return new Promise<Buffer>(() => {});
    }
    return test.handler(query);
  };
  let server: AdnlServer | null = await startAdnlServer({ host: '127.0.0.1', port: 0, seed, handler });
  const port = server.port;
  const endpoint = { host: '127.0.0.1', port, publicKey: server.publicKey };
  return {
    name: `server-${index}`,
    endpoint,
    test,
    hang,
    calls: (kind) => test.calls.filter((c) => kind === undefined || c.fn.kind === kind).length,
    isRunning: () => server !== null,
    async stop() {
      const s = server;
      server = null;
      await s?.close();
    },
    async start() {
      if (server) return;
      server = await startAdnlServer({ host: '127.0.0.1', port, seed, handler });
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it is true or `ms` passed; returns whether it became true. */
export async function waitFor(check: () => boolean, ms: number, everyMs = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await sleep(everyMs);
  }
  return check();
}
