// HTTP glue for /api/v3/<path>: find the route, read the query (params.ts rules) and the per-request
// settings (headers or their x_* query twins, api-v3.md §1.1), run it, answer in v3's envelope. The app's
// route files build these handlers with the process's services; tests build them with their own.
import { z } from 'zod';
import { withAccessHeaders, type AccessDecision } from '../../auth/access';
import { BodyTooLargeError, readBodyLimited } from '../../http/body';
import { corsPreflight, withCors } from '../cors';
import { runMarked, withProofHeader } from '../proof-mark';
import { apiRoute } from '../route';
import type { ReadDatabase, Reads } from '../../db/replicas';
import type { ServicesSource, V3Services } from '../services';
import type { V3Context } from './context';
import { v3Error, v3Failure, v3Internal, v3Json, v3JsonText } from './envelope';
import { V3Error, unprocessable } from './errors';
import { parseJsonExact } from '../v2/json-body';
import { describeIssue, normalizeQuery, p, readQuery } from './params';
import { findPostRoute, findRoute } from './registry';
import { inReadLane, letIoIn } from './heavy-reads';
import { goJsonBytes } from './serialize';
import type { SharedAnswer, SharedReads } from './shared-reads';

/**
 * Settings every route accepts. X-Api-Key / api_key is the request's API key (lib/auth: checked before
 * the route runs; without one the anonymous per-IP limit applies). X-Timeout is the request's budget in ms, capped at the database statement timeout
 * (DB_STATEMENT_TIMEOUT_MS, default 3000 as toncenter's); past it the answer is 504. X-Debug-Request has
 * nothing to log beyond the request log every route writes.
 */
export const settingsQuery = z.object({
  api_key: p.string('API key (same as header X-API-Key); without one the anonymous per-IP rate limit applies.'),
  x_no_address_book: p.bool('Answer address_book as {} (same as header X-No-Address-Book).'),
  x_no_metadata: p.bool('Answer metadata as {} (same as header X-No-Metadata).'),
  x_timeout: p.int32('Budget of the request in ms, capped at the server\'s statement timeout (default 3000); past it the answer is 504 (same as header X-Timeout).'),
  x_debug_request: p.bool('Debug flag (same as header X-Debug-Request; accepted).'),
});

const SETTING_HEADERS = { x_no_address_book: 'x-no-address-book', x_no_metadata: 'x-no-metadata', x_timeout: 'x-timeout', x_debug_request: 'x-debug-request' } as const;

function parse<S extends z.ZodObject>(schema: S, input: Record<string, unknown>): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw unprocessable(describeIssue(r.error.issues[0]!));
  return r.data;
}

type PathContext = { params: Promise<{ path: string[] }> };

/**
 * A route's context on a database (`on`: the GET routes' reads go where services.reads sends them, the
 * POST routes' to the primary), the request's budget in ms and whether the caller may run it (lib/auth).
 */
async function context(
  req: Request,
  query: Map<string, string[]>,
  services: ServicesSource<V3Services>,
  startedAt: number,
): Promise<{
  on: (read: ReadDatabase) => V3Context;
  reads: Reads;
  primary: ReadDatabase;
  budget: Budget;
  access: AccessDecision;
  sharedReads?: SharedReads;
  /** What besides the route and its query shapes the answer: requests that differ here never share a read. */
  variant: unknown[];
}> {
  const input = readQuery(query, settingsQuery.shape);
  for (const [key, header] of Object.entries(SETTING_HEADERS)) {
    const v = req.headers.get(header);
    if (v !== null) input[key] = v;
  }
  const s = parse(settingsQuery, input);
  const { db, reads, lite, tvm, config, access, pending, traceCache, txCache, sideCache, sharedReads } = await services();
  const cap = config.dbStatementTimeoutMs;
  const budget = timeBudget(startedAt, s.x_timeout !== undefined && s.x_timeout > 0 ? Math.min(s.x_timeout, cap) : cap);
  const noAddressBook = s.x_no_address_book ?? false;
  const noMetadata = s.x_no_metadata ?? false;
  const actionsVersion = req.headers.get('x-actions-version')?.trim() || null;
  return {
    // prisma read on use: a route that needs no index (decode) runs where there is none (tests, tools).
    on: (read) => ({
      get prisma() {
        return read.prisma;
      },
      get sql() {
        return read.sql;
      },
      lite,
      tvm,
      pending,
      traceCache,
      txCache,
      sideCache,
      testnet: config.network === 'testnet',
      noAddressBook,
      noMetadata,
      actionsVersion,
      maxAnswerTransactions: config.apiMaxAnswerTransactions,
      checkBudget: budget.check,
    }),
    reads,
    primary: db,
    budget,
    access: await access.check(req, 'v3'),
    sharedReads,
    variant: [noAddressBook, noMetadata, actionsVersion, budget.ms],
  };
}

/** A request's time budget from when its handler started: X-Timeout, capped by the statement timeout. */
interface Budget {
  ms: number;
  /** Throws the 504 once the budget is spent. */
  check(): void;
  /** When the budget ends, in performance.now() time. */
  deadline: number;
}

/** 504: a request's budget ran out. */
class BudgetSpent extends V3Error {
  constructor(ms: number) {
    super(504, `the request took longer than its ${ms} ms budget (X-Timeout)`);
  }
}

function timeBudget(startedAt: number, ms: number): Budget {
  const deadline = startedAt + ms;
  return {
    ms,
    deadline,
    check() {
      if (performance.now() > deadline) throw new BudgetSpent(ms);
    },
  };
}

/**
 * The route's answer, or 504 once the budget is spent: when a timer can fire (the route waits on
 * PostgreSQL, whose statement timeout, the same cap, cancels the query; its late outcome is dropped),
 * and when it comes back late (PGlite and the mapping run on this thread, where no timer interrupts them).
 */
async function withinBudget<T>(work: Promise<T>, budget: Budget): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BudgetSpent(budget.ms)), Math.max(0, budget.deadline - performance.now()));
  });
  work.catch(() => {}); // a failure after the deadline has no one to go to
  const value = await Promise.race([work, expired]).finally(() => clearTimeout(timer));
  budget.check();
  return value;
}

/** A route's answer, serialized. */
async function serialized(work: () => Promise<{ value: unknown; verified: boolean }>): Promise<SharedAnswer> {
  const { value, verified } = await work();
  await letIoIn(); // the route's last stretch of work and the serialization do not run back to back
  return { json: goJsonBytes(value), verified };
}

/** The answer of `read`, shared with identical requests in flight (lib/api/v3/shared-reads.ts) when the process shares reads. */
async function sharedRead(shared: SharedReads | undefined, key: string, read: () => Promise<SharedAnswer>, budget: Budget): Promise<SharedAnswer> {
  if (!shared) return withinBudget(read(), budget);
  const { answer, joined } = shared.run(key, read);
  try {
    return await withinBudget(answer, budget);
  } catch (err) {
    // The read it joined ran out of the budget of the request that started it; this one came later and
    // still has time of its own.
    if (joined && err instanceof BudgetSpent && performance.now() < budget.deadline) return withinBudget(read(), budget);
    throw err;
  }
}

function otherMethod(req: Request, path: string): Response {
  const url = new URL(req.url);
  if (!findRoute(path) && !findPostRoute(path)) return v3Error(404, `route not found: ${url.pathname}`);
  return v3Error(405, `method ${req.method} is not allowed on ${url.pathname}`);
}

/** /api/v3/<path>: GET and POST routes of the registry; another method on a route's path is 405, any unknown path 404. */
export function v3Routes(services: ServicesSource<V3Services>) {
  const GET = apiRoute<PathContext>(v3Internal, async (req, { params }) => {
    const startedAt = performance.now();
    const url = new URL(req.url);
    const route = findRoute((await params).path.join('/'));
    if (!route) return otherMethod(req, (await params).path.join('/'));
    try {
      const query = normalizeQuery(url.searchParams);
      const input = readQuery(query, route.query.shape);
      const q = parse(route.query, input);
      const { on, reads, budget, access, sharedReads, variant } = await context(req, query, services, startedAt);
      if (!access.allowed) return withAccessHeaders(v3Error(access.status, access.message), access);
      // GET routes only read, and tolerate the replicas' bounded lag: they may run on one.
      const run = () => reads.run((db) => runMarked(route.liteOnly, () => route.run(q, on(db))));
      // A long list's reads of the embedded database give way to everyone else's (heavy-reads.ts).
      const read = () => serialized(() => inReadLane((q as { limit?: unknown }).limit, run));
      // The key: only the parameters the route reads, so a junk parameter does not keep a request apart.
      const { json, verified } = await sharedRead(sharedReads, JSON.stringify([route.path, input, variant]), read, budget);
      budget.check(); // a big answer's serialization counts too: past the budget, the client asked not to wait for it
      return withAccessHeaders(withProofHeader(v3JsonText(json, startedAt), verified), access);
    } catch (err) {
      return v3Failure(err);
    }
  });

  /** A POST route with its JSON body (message, runGetMethod, estimateFee). */
  const POST = apiRoute<PathContext>(v3Internal, async (req, { params }) => {
    const startedAt = performance.now();
    const path = (await params).path.join('/');
    const route = findPostRoute(path);
    if (!route) return otherMethod(req, path);
    try {
      // As toncenter (fiber's body parser): a body that is not declared JSON is not read.
      if (!/^application\/json\b/i.test(req.headers.get('content-type') ?? '')) throw unprocessable('Unprocessable Entity: send the body as application/json');
      let body: unknown;
      const text = await readBodyLimited(req).catch((err: unknown) => {
        throw err instanceof BodyTooLargeError ? new V3Error(413, err.message) : err;
      });
      try {
        // Exact numbers: a runGetMethod stack may carry integers past 2^53 as JSON numbers.
        body = parseJsonExact(text);
      } catch (err) {
        throw unprocessable(`failed to decode the JSON body: ${(err as Error).message}`);
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw unprocessable('the body must be a JSON object');
      // POST routes run live (lite client, TVM) under the lite servers' own budget, not the database's.
      // Their reads of the index (classifying an emulated trace) go to the primary, as a v2 send's do.
      const { on, primary, access } = await context(req, normalizeQuery(new URL(req.url).searchParams), services, startedAt);
      if (!access.allowed) return withAccessHeaders(v3Error(access.status, access.message), access);
      return withAccessHeaders(v3Json(await route.run(parse(route.body, body as Record<string, unknown>), on(primary)), startedAt), access);
    } catch (err) {
      return v3Failure(err);
    }
  });

  const other = apiRoute<PathContext>(v3Internal, async (req, { params }) => otherMethod(req, (await params).path.join('/')));
  const cors = <C>(h: (req: Request, ctx: C) => Promise<Response>) => withCors(services, h);
  return { GET: cors(GET), POST: cors(POST), OPTIONS: corsPreflight(services), PUT: cors(other), PATCH: cors(other), DELETE: cors(other) };
}
