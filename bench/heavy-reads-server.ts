// The server side of `npm run bench -- --only heavy-reads`, in a process of its own (its one thread is what
// the attack contends for): an indexed devnet of `--rounds` rounds of traffic (PGlite, as `npm start`), one
// API key, and the v2/v3 handlers with /api/health behind two HTTP edges (lib/server/server.ts) on the same
// data, TRUST_PROXY=on so the bench names its clients by X-Forwarded-For: `guarded` configured by the
// environment as `npm start` would be (defaults unless set), `unguarded` with MAX_IN_FLIGHT_PER_CLIENT=off and API_MAX_ANSWER_TRANSACTIONS=100000 (the
// limits issue 25 added turned off: the "before"). Prints `listening <guarded> <unguarded> <key>` when
// ready, `stats` on stdin answers the transaction, trace and action counts; `quit` stops it.
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createAccess } from '../lib/auth/access';
import { createKey } from '../lib/auth/keys';
import { memoryLimiter } from '../lib/auth/limiter';
import { apiRoute } from '../lib/api/route';
import { parseConfig } from '../lib/config';
import { createHealth } from '../lib/health';
import { createAtlasServer, type AtlasServer } from '../lib/server/server';
import { log } from '../lib/log';
import { testApi } from '../lib/testing/api';
import { listeningSideCache } from '../lib/api/v3/side-cache';
import { startTestChain, type TestChain } from '../lib/testing/chain';
import { nodeHandler } from '../lib/testing/http-server';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '60' }, tps: { type: 'string', default: '30' } } });

async function serve(chain: TestChain, env: Record<string, string>): Promise<{ url: string; edge: AtlasServer }> {
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'error', TRUST_PROXY: 'on', DEVNET_TRAFFIC: 'off', ...env });
  const db = chain.db!.db;
  const access = createAccess({
    prisma: db.prisma,
    limiter: memoryLimiter(),
    anonRps: config.rateLimitAnonRps,
    exemptLoopback: config.rateLimitExemptLoopback,
    maxInFlightPerClient: config.maxInFlightPerClient,
    keysRequired: config.apiKeysRequired,
  });
  const api = testApi({ lite: chain.lite, db, tvm: chain.tvm, config, access, sideCache: await listeningSideCache(db, config.sideCacheBytes) });
  // As app/api/health/route.ts answers it (the edge serves it from its cache, at most 1 s old).
  const health = createHealth(async () => ({ config, db, lite: chain.lite, indexer: chain.indexer, tvm: chain.tvm }));
  const healthRoute = apiRoute(
    (err) => Response.json({ status: 'error', error: String(err) }, { status: 500 }),
    async () => {
      const h = await health();
      return Response.json(h, { status: h.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
    },
  );
  const apiHandler = nodeHandler(api.fetch);
  const healthHandler = nodeHandler((req) => healthRoute(req, undefined));
  const edge = createAtlasServer({ config, log, handle: (req, res) => (new URL(req.url ?? '/', 'http://x').pathname === '/api/health' ? healthHandler(req, res) : apiHandler(req, res)) });
  await new Promise<void>((resolve) => edge.server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(edge.server.address() as AddressInfo).port}`, edge };
}

const chain = await startTestChain({ seed: 'atlas-bench-heavy-reads', rounds: Number(values.rounds), tps: Number(values.tps), index: true });
const key = (await createKey(chain.db!.db.prisma, { name: 'bench keyed client', rps: 100 })).key;
const guarded = await serve(chain, {});
const unguarded = await serve(chain, { MAX_IN_FLIGHT_PER_CLIENT: 'off', API_MAX_ANSWER_TRANSACTIONS: '100000' });
console.log(`listening ${guarded.url} ${unguarded.url} ${key}`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stats') {
    const p = chain.db!.db.prisma;
    console.log(`stats ${await p.transaction.count()} ${await p.trace.count()} ${await p.action.count()}`);
  }
  if (line === 'quit') break;
}
await guarded.edge.close();
await unguarded.edge.close();
await chain.close();
process.exit(0);
