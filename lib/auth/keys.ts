// API keys: created with a name, a request rate, the APIs they may call and optionally when they expire; only their sha256 is stored
// (a key is 32 random bytes, so a plain hash cannot be reversed or guessed), the key itself is shown once.
// A key reads `atlas_<id>_<secret>`: the id names it in `list` and `revoke` without revealing it.
import { createHash, randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db/generated/client';

export const API_NAMES = ['v2', 'v3'] as const;
export type ApiName = (typeof API_NAMES)[number];

/** Requests per second of a key created without --rps. */
export const DEFAULT_KEY_RPS = 10;

export interface ApiKeyInfo {
  id: string;
  name: string;
  rps: number;
  apis: ApiName[];
  createdAt: Date;
  revokedAt: Date | null;
  /** When the key stops working (401 "API key expired"); null: never. */
  expiresAt: Date | null;
}

export class KeyError extends Error {}

export const hashKey = (key: string): Uint8Array<ArrayBuffer> => new Uint8Array(createHash('sha256').update(key).digest());

function info(row: { id: string; name: string; rps: number; apis: string; createdAt: Date; revokedAt: Date | null; expiresAt: Date | null }): ApiKeyInfo {
  return { ...row, apis: row.apis.split(',').filter(Boolean) as ApiName[] };
}

/** Creates a key; the returned `key` is the only time it exists outside the caller's hands. */
export async function createKey(prisma: PrismaClient, opts: { name: string; rps?: number; apis?: ApiName[]; expiresAt?: Date }): Promise<ApiKeyInfo & { key: string }> {
  const name = opts.name.trim();
  if (!name || name.length > 100) throw new KeyError('the name must be 1 to 100 characters');
  const rps = opts.rps ?? DEFAULT_KEY_RPS;
  if (!Number.isSafeInteger(rps) || rps < 1 || rps > 1_000_000) throw new KeyError('rps must be an integer from 1 to 1000000');
  const apis = [...new Set(opts.apis ?? API_NAMES)];
  if (!apis.length || apis.some((a) => !API_NAMES.includes(a))) throw new KeyError(`apis must be a comma-separated list of ${API_NAMES.join(', ')}`);
  if (opts.expiresAt && !(opts.expiresAt.getTime() > Date.now())) throw new KeyError('the expiry must be a time in the future');
  const id = randomBytes(6).toString('hex');
  const key = `atlas_${id}_${randomBytes(32).toString('base64url')}`;
  const row = await prisma.apiKey.create({ data: { id, name, keyHash: hashKey(key), rps, apis: apis.join(','), expiresAt: opts.expiresAt ?? null } });
  return { ...info(row), key };
}

export async function listKeys(prisma: PrismaClient): Promise<ApiKeyInfo[]> {
  return (await prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } })).map(info);
}

/** Revokes the key whose id starts with `idOrPrefix` (a prefix must name exactly one key). */
export async function revokeKey(prisma: PrismaClient, idOrPrefix: string): Promise<ApiKeyInfo> {
  const prefix = idOrPrefix.replace(/^atlas_/, '').split('_')[0]!.toLowerCase();
  if (!/^[0-9a-f]{1,12}$/.test(prefix)) throw new KeyError(`not a key id: ${idOrPrefix}`);
  const matches = await prisma.apiKey.findMany({ where: { id: { startsWith: prefix } } });
  if (matches.length !== 1) throw new KeyError(matches.length ? `${idOrPrefix} names ${matches.length} keys: give more of the id` : `no key ${idOrPrefix}`);
  const row = await prisma.apiKey.update({ where: { id: matches[0]!.id }, data: { revokedAt: matches[0]!.revokedAt ?? new Date() } });
  return info(row);
}

/**
 * The key's record when it exists and is not revoked. Expiry is judged by the caller at each request (a
 * remembered lookup must stop working the moment the key expires): see isExpired.
 */
export async function findActiveKey(prisma: PrismaClient, key: string): Promise<ApiKeyInfo | undefined> {
  const row = await prisma.apiKey.findUnique({ where: { keyHash: hashKey(key) } });
  return row && !row.revokedAt ? info(row) : undefined;
}

/** Whether the key has expired at `now`. */
export const isExpired = (key: Pick<ApiKeyInfo, 'expiresAt'>, now = Date.now()): boolean => key.expiresAt !== null && key.expiresAt.getTime() <= now;

const DURATION = /^(\d{1,6})([dhm])$/;
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/**
 * `--expires`: a duration from now (`30d`, `12h`, `90m`), or a date or time (`2027-01-01`, an ISO 8601
 * time with its zone); a date alone means its start in UTC.
 */
export function parseExpiry(value: string, now = Date.now()): Date {
  const d = DURATION.exec(value.trim());
  if (d) return new Date(now + Number(d[1]) * UNIT_MS[d[2] as keyof typeof UNIT_MS]);
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const at = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(iso) ? new Date(iso) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw new KeyError(`--expires takes a duration (30d, 12h, 90m) or a date or time (2027-01-01, 2027-01-01T12:00:00Z), not ${value}`);
  return at;
}
