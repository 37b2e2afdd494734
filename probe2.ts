import { performance } from 'node:perf_hooks';
import { startTestChain } from './lib/testing/chain';
import { testApi } from './lib/testing/api';
const chain = await startTestChain({ seed: 'atlas-bench-heavy-reads', rounds: 60, tps: 30, index: true });
const db = chain.db!.db;
const orig = db.sql.rows.bind(db.sql);
let log: string[] = [];
(db.sql as any).rows = async (q: any) => { await new Promise((r) => setImmediate(r)); const t0 = performance.now(); const r = await orig(q); const ms = performance.now() - t0; if (ms > 20) log.push(`${ms.toFixed(0)}ms ${r.length}rows keys=${q.values.find(Array.isArray)?.length ?? '-'} ${q.text.replace(/\s+/g, ' ').slice(0, 90)}`); return r; };
const api = testApi({ db, lite: chain.lite, tvm: chain.tvm, traceCache: null, txCache: null });
for (const path of ['actions?limit=555&include_transactions=true&include_accounts=true', 'events?limit=318', 'traces?limit=318']) {
  log = [];
  const t0 = performance.now();
  const r = await api.fetchV3(path.split('?')[0]!, path.split('?')[1]!);
  const text = await r.text();
  console.log(`== ${path} ${r.status} ${text.length} ${(performance.now() - t0).toFixed(0)}ms`); console.log(log.join('\n'));
}
await api.close(); await chain.close(); process.exit(0);
