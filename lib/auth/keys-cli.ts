// `npm run keys -- create --name N [--rps R] [--apis v2,v3] [--expires 30d|DATE] | list | revoke <id>`: the commands as a
// function of their arguments, so tests run exactly what the script runs.
import { parseArgs } from 'node:util';
import type { PrismaClient } from '../db/generated/client';
import { KeyError, createKey, isExpired, listKeys, parseExpiry, revokeKey, type ApiKeyInfo, type ApiName } from './keys';

export const KEYS_USAGE = 'usage: npm run keys -- create --name NAME [--rps N] [--apis v2,v3] [--expires 30d|2027-01-01] | list | revoke ID';

const state = (k: ApiKeyInfo) => (k.revokedAt ? 'revoked' : isExpired(k) ? 'expired' : 'active ');
const describe = (k: ApiKeyInfo) =>
  `${k.id}  ${state(k)}  ${String(k.rps).padStart(6)} rps  ${k.apis.join(',').padEnd(5)}  ${k.createdAt.toISOString()}  ` +
  `${k.expiresAt ? `expires ${k.expiresAt.toISOString()}` : 'no expiry'.padEnd(32)}  ${k.name}`;

/** Runs one command; its output lines, or a KeyError saying what is wrong with the arguments. */
export async function runKeysCommand(prisma: PrismaClient, argv: string[]): Promise<string[]> {
  const [command, ...rest] = argv;
  if (command === 'create') {
    const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, rps: { type: 'string' }, apis: { type: 'string' }, expires: { type: 'string' } }, strict: true });
    if (!values.name) throw new KeyError(`--name is required\n${KEYS_USAGE}`);
    const rps = values.rps === undefined ? undefined : /^\d+$/.test(values.rps) ? Number(values.rps) : NaN;
    const apis = values.apis?.split(',').map((a) => a.trim()).filter(Boolean) as ApiName[] | undefined;
    const expiresAt = values.expires === undefined ? undefined : parseExpiry(values.expires);
    const k = await createKey(prisma, { name: values.name, rps, apis, expiresAt });
    return [describe(k), `key: ${k.key}`, 'This is the only time the key is shown: only its hash is stored.'];
  }
  if (command === 'list' && rest.length === 0) {
    const keys = await listKeys(prisma);
    return keys.length ? keys.map(describe) : ['no keys'];
  }
  if (command === 'revoke' && rest.length === 1) {
    const k = await revokeKey(prisma, rest[0]!);
    return [describe(k)];
  }
  throw new KeyError(KEYS_USAGE);
}
