// Fetches one off-chain metadata document (TEP-64: a JSON object at the URI a token's content names) under
// guards: http(s) and ipfs only, every host checked by a TargetPolicy (no private, loopback or link-local
// targets, redirects included) and connected to at the address that was checked, a size cap enforced while
// reading, one deadline for the whole fetch, and a JSON content type. The answer says whether trying again
// later could help (a timeout or a 503 could; a refused target or a 404 could not).
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { TargetRefused, type TargetPolicy } from './target-policy';

export interface FetchLimits {
  /** The body is cut off (and the fetch fails) past this many bytes. */
  maxBytes: number;
  /** Budget of the whole fetch: resolution, connection, redirects and body. */
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 256 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

export type FetchOutcome =
  | { ok: true; url: string; content: Record<string, unknown> }
  | { ok: false; url: string | null; error: string; transient: boolean };

/** Where an ipfs:// URI is read from: the gateway's base URL, ending in /ipfs/. */
export type IpfsGateway = string;

/** The http(s) URL a metadata URI is fetched from, or null when its scheme is not fetchable. */
export function fetchableUrl(uri: string, ipfsGateway: IpfsGateway): URL | null {
  const trimmed = uri.trim();
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.+)$/i.exec(trimmed);
  const text = ipfs ? ipfsGateway.replace(/\/?$/, '/') + ipfs[1] : trimmed;
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null; // credentials in a stranger's URI are never sent
  return url;
}

const JSON_TYPES = /^(application\/(json|[\w.+-]+\+json|octet-stream)|text\/plain|text\/json)$/i;

class FetchFailed extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export async function fetchMetadata(uri: string, opts: { policy: TargetPolicy; ipfsGateway: IpfsGateway; limits?: Partial<FetchLimits> }): Promise<FetchOutcome> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...opts.limits };
  const first = fetchableUrl(uri, opts.ipfsGateway);
  if (!first) return { ok: false, url: null, error: 'not an http(s) or ipfs URI', transient: false };
  let url: URL = first;
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      const res = await get(url, opts.policy, limits, deadline);
      if (res.redirect) {
        if (hop >= limits.maxRedirects) throw new FetchFailed(`more than ${limits.maxRedirects} redirects`, false);
        const next: URL | null = URL.canParse(res.redirect, url) ? new URL(res.redirect, url) : null;
        if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:') || next.username || next.password) {
          throw new FetchFailed('redirected to a URL that is not http(s)', false);
        }
        url = next;
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(res.body.toString('utf8'));
      } catch {
        throw new FetchFailed('the document is not JSON', false);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FetchFailed('the document is not a JSON object', false);
      return { ok: true, url: url.href, content: parsed as Record<string, unknown> };
    }
  } catch (err) {
    if (err instanceof FetchFailed) return { ok: false, url: url.href, error: err.message, transient: err.transient };
    if (err instanceof TargetRefused) return { ok: false, url: url.href, error: `target refused: ${err.message}`, transient: false };
    if (deadline.aborted) return { ok: false, url: url.href, error: `no answer within ${limits.timeoutMs} ms`, transient: true };
    return { ok: false, url: url.href, error: `network error: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, transient: true };
  }
}

/** One request: a redirect's Location, or the whole body of a 200 with a JSON content type. */
async function get(url: URL, policy: TargetPolicy, limits: FetchLimits, signal: AbortSignal): Promise<{ redirect?: string; body: Buffer }> {
  const target = await policy.resolve(url.hostname);
  if (signal.aborted) throw signal.reason;
  // Connect to the address the policy checked, whatever the resolver would answer now.
  const lookup: LookupFunction = (_host, options, done) => {
    if ((options as { all?: boolean }).all) (done as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else done(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { lookup, signal, headers: { accept: 'application/json', 'user-agent': 'Atlas metadata fetcher' }, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ redirect: res.headers.location, body: Buffer.alloc(0) });
      }
      if (status !== 200) {
        res.resume();
        // Overload and server errors may pass; anything else is the document's own answer.
        return reject(new FetchFailed(`HTTP ${status}`, status === 429 || status >= 500));
      }
      const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
      if (!JSON_TYPES.test(type)) {
        res.resume();
        return reject(new FetchFailed(`content type ${type || '(none)'} is not JSON`, false));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        res.destroy();
        return reject(new FetchFailed(`the document is larger than ${limits.maxBytes} bytes`, false));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxBytes) {
          res.destroy();
          reject(new FetchFailed(`the document is larger than ${limits.maxBytes} bytes`, false));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => resolve({ body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
