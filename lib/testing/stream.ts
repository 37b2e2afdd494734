// The Streaming API over a real chain, for tests: an indexed devnet (derive stage on: jetton wallets)
// whose indexer and pending store report to a publisher, a bus (memory, or Redis when given) and a hub.
// `publishNext()` drives the pipeline one step at a time, as the running process does on its own.
import type { AddressInfo } from 'node:net';
import { createAccess } from '../auth/access';
import { memoryLimiter } from '../auth/limiter';
import { parseConfig, type Config } from '../config';
import { createAtlasServer } from '../server/server';
import { log } from '../log';
import { streamGateway } from '../stream/gateway';
import { memoryBus, redisBus, type EventBus } from '../stream/bus';
import { StreamHub } from '../stream/hub';
import { publisherContext, StreamPublisher } from '../stream/publisher';
import { startTestChain, type TestChain } from './chain';

export interface StreamChain {
  chain: TestChain;
  bus: EventBus;
  hub: StreamHub;
  publisher: StreamPublisher;
  /** Waits until every emulation started so far is stored and everything reported is published. */
  settle(): Promise<void>;
  /** Seals a round; lets the indexer see its shard block ahead (confirmed), then indexes it (finalized). */
  sealAndIndex(opts?: { confirmed?: boolean }): Promise<void>;
  /**
   * The HTTP edge of `npm start` (lib/server/server.ts) on a free port with the Streaming API's endpoints,
   * a hub of its own on the chain's bus, configured by `env` (STREAM_*, CORS_ORIGINS, RATE_LIMIT_ANON_RPS)
   * and API keys in the chain's database. Every other path answers 404.
   */
  serve(env?: Record<string, string>): Promise<ServedStreams>;
  close(): Promise<void>;
}

export interface ServedStreams {
  url: string;
  hub: StreamHub;
  config: Config;
  close(): Promise<void>;
}

export async function startStreamChain(opts: {
  seed: string;
  redisUrl?: string;
  /** Redis channel of the bus (separate test runs on one Redis). */
  channel?: string;
  landingMs?: number;
  expiryCheckMs?: number;
  limits?: { maxConnectionsPerKey: number; maxConnectionsPerIp: number };
  /** Basechain shards of the devnet (DEVNET_SHARDS), and rounds sealed before indexing (default 1). */
  shards?: number;
  rounds?: number;
}): Promise<StreamChain> {
  const bus = opts.redisUrl ? redisBus(opts.redisUrl, { log, channel: opts.channel }) : memoryBus(log);
  await bus.ready();
  // The listeners call through to the publisher, made once the chain (its database) exists.
  const late: { publisher?: StreamPublisher } = {};
  const chain = await startTestChain({
    seed: opts.seed,
    rounds: opts.rounds ?? 1,
    shards: opts.shards,
    index: true,
    derive: true,
    listen: {
      indexer: { committed: (c) => late.publisher?.indexerEvents().committed?.(c), shardBlockSeen: (s) => late.publisher?.indexerEvents().shardBlockSeen?.(s) },
      pendingStored: (e) => late.publisher?.pendingStored(e),
    },
  });
  const publisher = (late.publisher = new StreamPublisher({
    bus,
    ctx: publisherContext({ db: chain.db!.db, lite: chain.lite, tvm: chain.tvm, testnet: false }),
    log,
    pending: chain.pending,
    landingMs: opts.landingMs,
    expiryCheckMs: opts.expiryCheckMs,
  }));
  publisher.indexerEvents();
  const hub = new StreamHub({ limits: opts.limits ?? { maxConnectionsPerKey: 1000, maxConnectionsPerIp: 1000 }, log });
  const unsubscribe = bus.subscribe((e) => hub.dispatch(e));
  const settle = async () => {
    await chain.pending?.idle();
    await publisher.idle();
  };
  const servers = new Set<ServedStreams>();
  const serve = async (env: Record<string, string> = {}): Promise<ServedStreams> => {
    const config = parseConfig({ VITEST: 'true', RATE_LIMIT_ANON_RPS: '1000', ...env });
    const own = new StreamHub({ limits: config.stream, log });
    const off = bus.subscribe((e) => own.dispatch(e));
    const access = createAccess({ prisma: chain.db!.db.prisma, limiter: memoryLimiter(), anonRps: config.rateLimitAnonRps });
    const streams = streamGateway({ hub: own, config, access: async () => access, log });
    const edge = createAtlasServer({ config, handle: (_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not here"}'), log, streams });
    await new Promise<void>((resolve) => edge.server.listen(0, '127.0.0.1', resolve));
    const served: ServedStreams = {
      url: `http://127.0.0.1:${(edge.server.address() as AddressInfo).port}`,
      hub: own,
      config,
      async close() {
        servers.delete(served);
        off();
        own.close();
        await edge.close();
      },
    };
    servers.add(served);
    return served;
  };
  return {
    chain,
    bus,
    hub,
    publisher,
    settle,
    serve,
    async sealAndIndex(o = {}) {
      await settle();
      await chain.devnet.sealNow();
      if (o.confirmed !== false) {
        await chain.indexer!.watcher!.poll();
        await settle();
      }
      await chain.index();
      await settle();
    },
    async close() {
      for (const served of [...servers]) await served.close();
      unsubscribe();
      hub.close();
      await publisher.close();
      await bus.close();
      await chain.close();
    },
  };
}
