// Every v3 route by path. A route listed here is reachable as GET /api/v3/<path> and documented in
// /api/v3/openapi.json.
import type { V3PostRoute, V3Route } from './route';
import * as accounts from './routes/accounts';
import * as blocks from './routes/blocks';
import * as decode from './routes/decode';
import * as dns from './routes/dns';
import * as emulate from './routes/emulate';
import * as jettons from './routes/jettons';
import * as live from './routes/live';
import * as messages from './routes/messages';
import * as nft from './routes/nft';
import * as pending from './routes/pending';
import * as search from './routes/search';
import * as traces from './routes/traces';
import * as transactions from './routes/transactions';
import * as multisig from './routes/multisig';
import * as vesting from './routes/vesting';

const isPost = (r: object): r is V3PostRoute => 'body' in r;
const every = [blocks, transactions, messages, accounts, jettons, nft, dns, live, decode, traces, pending, search, vesting, multisig, emulate].flatMap((m) => Object.values(m) as object[]);
const all = every.filter((r) => !isPost(r)) as V3Route[];
const posts = every.filter(isPost);

export const v3Routes: ReadonlyMap<string, V3Route> = new Map(all.map((r) => [r.path, r]));

// Paths match case-insensitively, as in toncenter (fiber's default routing).
const byLowerPath = new Map(all.map((r) => [r.path.toLowerCase(), r]));

export const findRoute = (path: string): V3Route | undefined => byLowerPath.get(path.toLowerCase());

/** POST routes by path (message, runGetMethod, estimateFee, decode, emulate). */
export const v3PostRoutes: ReadonlyMap<string, V3PostRoute> = new Map(posts.map((r) => [r.path, r]));
const postByLowerPath = new Map(posts.map((r) => [r.path.toLowerCase(), r]));

export const findPostRoute = (path: string): V3PostRoute | undefined => postByLowerPath.get(path.toLowerCase());
