// The v3 list routes as a client sees them: `npm start` (its production build, its defaults) on a fresh
// PostgreSQL database and on the embedded PGlite, the devnet left running with its traffic for `warmupSeconds`,
// then 32 keep-alive connections on each route for `routeSeconds`: served requests/s, p50 and p99, and
// how many answers were not 200 (shed with 503 past MAX_IN_FLIGHT, or an error). Beside the in-process
// `v3` bench, this one counts what the HTTP edge, Next and JSON on the wire cost. API_WORKERS (and any
// other setting) in the bench's environment reaches the server. The connections of one route ask the same
// URL, so they share reads (API_SHARED_READS); the last route gives each connection an account of its
// own, so nothing is shared: the cost of every answer read alone.
import http from 'node:http';
import { startAtlas } from './atlas-server';
import { quantile, scratchPostgres, type BenchResult } from './support';

export interface V3HttpOptions {
  engines: ('postgresql' | 'pglite')[];
  baseUrl: string;
  dbPrefix: string;
  warmupSeconds: number;
  routeSeconds: number;
  connections?: number;
}

interface Tx {
  account: string;
}


export async function benchV3Http(o: V3HttpOptions): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const engine of o.engines) results.push(...(await onEngine(engine, o)));
  return results;
}

async function onEngine(engine: 'postgresql' | 'pglite', o: V3HttpOptions): Promise<BenchResult[]> {
  const pg = engine === 'postgresql' ? await scratchPostgres(o.baseUrl, o.dbPrefix) : undefined;
  const workers = process.env.API_WORKERS ? `, API_WORKERS=${process.env.API_WORKERS}` : '';
  try {
    const atlas = await startAtlas({
      name: `v3-http-${engine}`,
      seed: 'atlas-v3-http',
      logFile: `.reports/v3-http-${engine}-server.log`,
      // npm start's own traffic (DEVNET_TPS 2): more can outrun the indexer on two busy cores, and the
      // bench waits for a live index; a few minutes of it fill lists and a busy account's pages.
      env: pg ? { DATABASE_URL: pg.url } : { DATABASE_URL: '' },
    });
    try {
      console.log(`  v3-http (${engine}${workers}): devnet traffic for ${o.warmupSeconds} s…`);
      await new Promise((r) => setTimeout(r, o.warmupSeconds * 1000));
      const accounts = await busiestAccounts(atlas.base);
      const account = accounts[0]!;
      const byAccount = (address: string) => `/api/v3/transactions?account=${encodeURIComponent(address)}&limit=20`;
      const routes: { name: string; pathOf: (connection: number) => string }[] = [
        ...['/api/v3/transactions?limit=100', byAccount(account.address), '/api/v3/traces?limit=20', `/api/v3/events?account=${encodeURIComponent(account.address)}&limit=20`].map((path) => ({
          name: path.replace(encodeURIComponent(account.address), '<busy>'),
          pathOf: () => path,
        })),
        { name: `/api/v3/transactions?account=<one of ${accounts.length} per connection>&limit=20`, pathOf: (c: number) => byAccount(accounts[c % accounts.length]!.address) },
      ];
      const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections ?? 32 });
      const rows: BenchResult[] = [];
      for (const route of routes) {
        const r = await drive(atlas.base, route.pathOf, agent, o.connections ?? 32, o.routeSeconds);
        const name = `v3-http ${engine}${workers} ${route.name}`;
        const note = `${r.served} answers in ${o.routeSeconds} s at ${o.connections ?? 32} connections; not 200: ${r.other}; busy account has ${account.count} of the latest 1000 transactions`;
        rows.push({ name: `${name} served`, value: r.rps, unit: 'req/s', note }, { name: `${name} p50`, value: r.p50, unit: 'ms' }, { name: `${name} p99`, value: r.p99, unit: 'ms' });
      }
      agent.destroy();
      return rows;
    } finally {
      await atlas.stop();
    }
  } finally {
    await pg?.drop();
  }
}

/** The accounts of the latest 1000 transactions, the busiest (a wallet the traffic generator uses) first. */
async function busiestAccounts(base: URL): Promise<{ address: string; count: number }[]> {
  let transactions: Tx[] | undefined;
  // A busy machine may shed or time the big page out: ask again a few times.
  for (let attempt = 1; !transactions; attempt++) {
    const res = await fetch(new URL('/api/v3/transactions?limit=1000', base));
    const body = (await res.json().catch(() => ({}))) as { transactions?: Tx[] };
    if (res.ok && body.transactions) transactions = body.transactions;
    else if (attempt >= 10) throw new Error(`v3-http bench: /transactions?limit=1000 answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    else await new Promise((r) => setTimeout(r, 2000));
  }
  const counts = new Map<string, number>();
  for (const t of transactions) counts.set(t.account, (counts.get(t.account) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]).map(([address, count]) => ({ address, count }));
  if (!sorted.length) throw new Error('v3-http bench: nothing indexed after the warm-up');
  return sorted;
}

function get(base: URL, path: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: base.hostname, port: base.port, path, agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** `conns` clients ask `pathOf(their number)` back to back for `seconds`, after 5 s of warm-up that is not counted (a fresh process JIT-compiles its paths first). */
async function drive(base: URL, pathOf: (connection: number) => string, agent: http.Agent, conns: number, seconds: number) {
  const warmUntil = Date.now() + 5000;
  const until = warmUntil + seconds * 1000;
  const times: number[] = [];
  const other = new Map<number, number>();
  const client = async (connection: number) => {
    const path = pathOf(connection);
    while (Date.now() < until) {
      const t0 = performance.now();
      const status = await get(base, path, agent).catch(() => -1);
      if (Date.now() < warmUntil) continue;
      if (status === 200) times.push(performance.now() - t0);
      else other.set(status, (other.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: conns }, (_, i) => client(i)));
  // What was not 200, by status (-1: no answer): 503 is the edge shedding past MAX_IN_FLIGHT.
  const notOk = [...other].map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
  return { served: times.length, other: notOk, rps: +(times.length / seconds).toFixed(0), p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}
