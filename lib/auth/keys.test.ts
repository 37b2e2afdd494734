import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { findActiveKey, hashKey, KeyError } from './keys';
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

  it('bad arguments are clear errors', async () => {
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
