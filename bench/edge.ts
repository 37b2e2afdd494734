// The HTTP edge under overload: `conns` clients each request `path` back to back for `seconds` against a
// running Atlas (`--url`, default http://127.0.0.1:3000: start it with `npm start`), while a prober asks
// /api/health every 200 ms. Reports served requests/s, how many were shed (503) or timed out (no answer
// in 10 s), latency of the served ones and of health. Shedding works when health stays fast and served
// requests keep a bounded latency instead of every request queueing towards the timeout. The prober shares
// this process's event loop with the 50 clients, so its health latency is an upper bound: time health
// from another process (curl) for the server's own.
import { quantile, type BenchResult } from './support';

const CLIENT_TIMEOUT_MS = 10_000;


export async function benchEdge(opts: { url: string; path?: string; conns?: number; seconds?: number }): Promise<BenchResult[]> {
  const { url, path = '/', conns = 50, seconds = 20 } = opts;
  const health = await fetch(`${url}/api/health`).catch(() => undefined);
  if (!health) throw new Error(`edge bench: no Atlas answers at ${url} (start one with npm start, or pass --url)`);
  const until = Date.now() + seconds * 1000;
  const served: number[] = [];
  const healthMs: number[] = [];
  const counts = { shed: 0, timeout: 0, other: 0, healthFailed: 0 };

  const timed = async (target: string) => {
    const t0 = performance.now();
    const res = await fetch(target, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  };
  const client = async () => {
    while (Date.now() < until) {
      try {
        const r = await timed(`${url}${path}`);
        if (r.status === 200) served.push(r.ms);
        else if (r.status === 503) counts.shed++;
        else counts.other++;
      } catch {
        counts.timeout++;
      }
    }
  };
  const prober = async () => {
    while (Date.now() < until) {
      try {
        const r = await timed(`${url}/api/health`);
        healthMs.push(r.ms);
        if (r.status !== 200) counts.healthFailed++;
      } catch {
        counts.healthFailed++;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  await Promise.all([...Array.from({ length: conns }, client), prober()]);
  const total = served.length + counts.shed + counts.timeout + counts.other;
  const name = `edge ${conns} conns GET ${path}`;
  return [
    { name: `${name} served`, value: +(served.length / seconds).toFixed(1), unit: 'req/s', note: `${total} requests in ${seconds} s` },
    { name: `${name} served p50`, value: quantile(served, 0.5), unit: 'ms' },
    { name: `${name} served p99`, value: quantile(served, 0.99), unit: 'ms' },
    { name: `${name} shed (503)`, value: +((100 * counts.shed) / Math.max(1, total)).toFixed(1), unit: '%' },
    { name: `${name} timed out (${CLIENT_TIMEOUT_MS / 1000} s)`, value: +((100 * counts.timeout) / Math.max(1, total)).toFixed(1), unit: '%', note: counts.other ? `${counts.other} other statuses` : undefined },
    { name: `${name} /api/health p99`, value: quantile(healthMs, 0.99), unit: 'ms', note: counts.healthFailed ? `${counts.healthFailed} health checks failed` : undefined },
  ];
}
