// One HTTP request exactly as generated: any method (TRACE included, which fetch refuses), the path and
// query byte for byte (bad %-escapes included), any headers and body. Status, timing and the start of
// the body come back; a request over its deadline is aborted and reported as such.
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query, sent as given. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RawAnswer {
  /** 0 when no answer came (connection error or deadline). */
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The start of the body (keepBytes of it). */
  body: string;
  ms: number;
  /** Set when no status came: the connection error, or `deadline`. */
  error?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function sendRaw(base: URL, req: RawRequest, deadlineMs: number, keepBytes = 4096): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: Omit<RawAnswer, 'ms'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...a, ms: performance.now() - started });
    };
    const r = http.request(
      { host: base.hostname, port: base.port || 80, method: req.method, path: req.target, headers: req.headers, agent, insecureHTTPParser: false },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < keepBytes) {
            chunks.push(c);
            kept += c.length;
          }
        });
        res.on('end', () => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).subarray(0, keepBytes).toString('utf8') }));
        res.on('error', (err) => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), error: err.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: 0, headers: {}, body: '', error: 'deadline' });
      r.destroy();
    }, deadlineMs);
    r.on('error', (err) => finish({ status: 0, headers: {}, body: '', error: err.message }));
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

const limited = (a: RawAnswer) => a.status === 429 || (a.status === 503 && a.headers['retry-after'] !== undefined);

/**
 * GET, waiting out rate limiting and load shedding (429, or 503 with Retry-After; at most 5 s a time):
 * the fuzzer's own reads (documents, corpus, health) must not be lost to a budget the run just spent.
 */
export async function getPatiently(base: URL, target: string, headers: Record<string, string> = {}, tries = 5): Promise<RawAnswer> {
  for (let i = 1; ; i++) {
    const a = await sendRaw(base, { method: 'GET', target, headers }, 10_000, 64 << 20);
    if (!limited(a) || i >= tries) return a;
    await new Promise((r) => setTimeout(r, Math.min(5, Number(a.headers['retry-after']) || 1) * 1000));
  }
}

/** A JSON document answered 200 (also 503 with `acceptUnavailable`: a degraded /api/health), else undefined. */
export async function getJson<T>(base: URL, target: string, headers: Record<string, string> = {}, opts: { tries?: number; acceptUnavailable?: boolean } = {}): Promise<T | undefined> {
  const a = await getPatiently(base, target, headers, opts.tries);
  if (a.status !== 200 && !(opts.acceptUnavailable && a.status === 503)) return undefined;
  try {
    return JSON.parse(a.body) as T;
  } catch {
    return undefined;
  }
}
