import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { findActiveKey, hashKey, isExpired, KeyError, parseExpiry } from './keys';
import { runKeysCommand } from './keys-cli';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
});
afterAll(() => t.drop());

const keyOf = (lines: string[]) => /^key: (\S+)$/.exec(lines.find((l) => l.startsWith('key: '))!)![1]!;

describe('npm run keys', () => {
  it('create shows the key once and stores only its sha256', async () => {
    const out = await runKeysCommand(t.db.prisma, ['create', '--name', 'wallet app', '--rps', '7', '--apis', 'v3']);
    const key = keyOf(out);
    expect(key).toMatch(/^atlas_[0-9a-f]{12}_[\w-]{43}$/);
    const [row] = await t.db.prisma.apiKey.findMany({ where: { name: 'wallet app' } });
    expect(row).toMatchObject({ rps: 7, apis: 'v3', revokedAt: null });
    expect(Buffer.from(row!.keyHash)).toEqual(Buffer.from(hashKey(key)));
    // Nothing stored contains the key's secret (after `atlas_<id>_`; base64url may itself hold '_').
    const secret = key.slice('atlas_'.length + 12 + 1);
    expect(secret).toHaveLength(43);
    expect(JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(secret);
    expect((await findActiveKey(t.db.prisma, key))?.name).toBe('wallet app');
    expect(await findActiveKey(t.db.prisma, `${key}x`)).toBeUndefined();
  });

  it('list shows every key without the key; revoke by id prefix disables it', async () => {
    const key = keyOf(await runKeysCommand(t.db.prisma, ['create', '--name', 'to revoke']));
    const id = key.split('_')[1]!;
    const listed = (await runKeysCommand(t.db.prisma, ['list'])).join('\n');
    expect(listed).toMatch(new RegExp(`${id}\\s+active\\s+10 rps\\s+v2,v3 .* to revoke`));
    expect(listed).not.toContain(key);
    expect(await runKeysCommand(t.db.prisma, ['revoke', id.slice(0, 8)])).toEqual([expect.stringMatching(new RegExp(`^${id}\\s+revoked`))]);
    expect(await findActiveKey(t.db.prisma, key)).toBeUndefined();
  });

  it('--expires takes a duration or a date; list shows the expiry, and expired once it passed', async () => {
    const now = Date.UTC(2026, 10, 30, 12);
    expect(parseExpiry('30d', now).toISOString()).toBe('2026-12-30T12:00:00.000Z');
    expect(parseExpiry('12h', now).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseExpiry('2027-01-01').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(parseExpiry('2027-01-01T12:30:00+02:00').toISOString()).toBe('2027-01-01T10:30:00.000Z');
    const key = keyOf(await runKeysCommand(t.db.prisma, ['create', '--name', 'expiring', '--expires', '30d']));
    const id = key.split('_')[1]!;
    const found = (await findActiveKey(t.db.prisma, key))!;
    expect(found.expiresAt!.getTime() - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect(isExpired(found)).toBe(false);
    expect((await runKeysCommand(t.db.prisma, ['list'])).find((l) => l.startsWith(id))).toMatch(/^\w+\s+active\s+10 rps .* expires \d{4}-.* expiring$/);
    await t.db.prisma.apiKey.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await runKeysCommand(t.db.prisma, ['list'])).find((l) => l.startsWith(id))).toMatch(/^\w+\s+expired\s+10 rps/);
    expect(isExpired((await findActiveKey(t.db.prisma, key))!)).toBe(true);
  });

  it('bad arguments are clear errors', async () => {
    await expect(runKeysCommand(t.db.prisma, ['create', '--name', 'n', '--expires', 'soon'])).rejects.toThrow(/--expires takes a duration \(30d, 12h, 90m\) or a date or time/);
    await expect(runKeysCommand(t.db.prisma, ['create', '--name', 'n', '--expires', '2020-01-01'])).rejects.toThrow('the expiry must be a time in the future');
    const run = (...argv: string[]) => runKeysCommand(t.db.prisma, argv);
    await expect(run('create')).rejects.toThrow(/--name is required/);
    await expect(run('create', '--name', 'n', '--rps', '0')).rejects.toThrow(/rps must be an integer from 1/);
    await expect(run('create', '--name', 'n', '--rps', 'fast')).rejects.toThrow(KeyError);
    await expect(run('create', '--name', 'n', '--apis', 'v2,v4')).rejects.toThrow(/apis must be a comma-separated list of v2, v3/);
    await expect(run('revoke', 'ffffffffffff')).rejects.toThrow(/no key ffffffffffff/);
    await expect(run('revoke', 'zz')).rejects.toThrow(/not a key id/);
    await expect(run('delete')).rejects.toThrow(/usage: npm run keys/);
  });
});
