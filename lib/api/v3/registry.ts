// Every v3 route by path. A route listed here is reachable as GET /api/v3/<path> and documented in
// /api/v3/openapi.json.
import type { V3Route } from './route';
import * as accounts from './routes/accounts';
import * as blocks from './routes/blocks';
import * as messages from './routes/messages';
import * as transactions from './routes/transactions';

const all = [...Object.values(blocks), ...Object.values(transactions), ...Object.values(messages), ...Object.values(accounts)] as unknown as V3Route[];

export const v3Routes: ReadonlyMap<string, V3Route> = new Map(all.map((r) => [r.path, r]));

// Paths match case-insensitively, as in toncenter (fiber's default routing).
const byLowerPath = new Map(all.map((r) => [r.path.toLowerCase(), r]));

export const findRoute = (path: string): V3Route | undefined => byLowerPath.get(path.toLowerCase());
