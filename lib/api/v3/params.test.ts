import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { goJson } from './serialize';
import { describeIssue, normalizeQuery, p, page, parseBool, parseInt32, parseOpcode, parseShard, parseUint64, parseUtime, readQuery, sortOrder } from './params';

describe('scalar parsers (api-v3.md §1.4)', () => {
  it('int32: base-10, sign allowed, range checked, empty is 0', () => {
    expect(parseInt32('42')).toBe(42);
    expect(parseInt32('-2147483648')).toBe(-(2 ** 31));
    expect(parseInt32('+7')).toBe(7);
    expect(parseInt32('')).toBe(0);
    for (const bad of ['2147483648', '1.5', '0x10', 'abc', ' 1']) expect(parseInt32(bad)).toBeUndefined();
  });

  it('uint64 and utime', () => {
    expect(parseUint64('18446744073709551615')).toBe(2n ** 64n - 1n);
    expect(parseUint64('18446744073709551616')).toBeUndefined();
    expect(parseUint64('-1')).toBeUndefined();
    expect(parseUtime('1745112841.75')).toBe(1745112841);
    expect(parseUtime('1e3')).toBe(1000);
    expect(parseUtime('-5')).toBeUndefined();
  });

  it('bool: Go ParseBool spellings only', () => {
    for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(parseBool(t)).toBe(true);
    for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False', '']) expect(parseBool(f)).toBe(false);
    for (const bad of ['yes', 'on', 'tRUE']) expect(parseBool(bad)).toBeUndefined();
  });

  it('shard: hex first, then signed decimal; both forms of the masterchain shard agree', () => {
    expect(parseShard('8000000000000000')).toBe(-(2n ** 63n));
    expect(parseShard('0x8000000000000000')).toBe(-(2n ** 63n));
    expect(parseShard('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(parseShard('123')).toBe(0x123n);
    expect(parseShard('E000000000000000')).toBe(BigInt.asIntN(64, 0xe000000000000000n));
    expect(parseShard('12345678901234567890')).toBe(BigInt.asIntN(64, 12345678901234567890n));
    expect(parseShard('zz')).toBeUndefined();
  });

  it('opcode: 0x → hex only; bare hex (≤ 8 digits) first; else signed 32-bit decimal; stored signed', () => {
    expect(parseOpcode('0x0f8a7ea5')).toBe(0x0f8a7ea5);
    expect(parseOpcode('0XFFFFFFFF')).toBe(-1);
    expect(parseOpcode('d53276db')).toBe(0xd53276db | 0);
    expect(parseOpcode('123')).toBe(0x123);
    expect(parseOpcode('263473061')).toBe(263473061);
    expect(parseOpcode('-1')).toBe(-1);
    for (const bad of ['0x123456789', '0xg', '4294967296', 'text']) expect(parseOpcode(bad)).toBeUndefined();
  });
});

describe('query reading (api-v3.md §1.5)', () => {
  const schema = z.object({ account: p.addresses('a'), address: p.strings('s'), limit: p.int32('l'), hash: p.hash('h') });
  const read = (qs: string) => readQuery(normalizeQuery(new URLSearchParams(qs)), schema.shape);
  const A = '0:' + 'AB'.repeat(32);
  const B = '-1:' + '33'.repeat(32);

  it('case-insensitive names, key[] = key, last scalar wins, unknown names dropped', () => {
    expect(read(`LIMIT=1&limit=5&Account[]=${A}&account=${B}&other=1`)).toEqual({ limit: '5', account: [A, B] });
  });

  it('typed arrays split comma lists, string arrays never do', () => {
    expect(schema.parse(read(`account=${A},${B}&address=${A},${B}`))).toEqual({ account: [A, B], address: [`${A},${B}`] });
  });

  it('addresses normalize to raw upper case from any form; a + sent as space is read back', () => {
    const friendlyStd = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
    expect(schema.parse({ account: [friendlyStd, A.toLowerCase()] }).account).toEqual([`0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8`, A]);
    const h = Buffer.alloc(32, 0xfb).toString('base64'); // contains + and /
    expect(schema.parse({ hash: h.replace(/\+/g, ' ') }).hash).toEqual(Buffer.alloc(32, 0xfb));
  });

  it('conversion failures are worded like toncenter (gorilla/schema)', () => {
    const r1 = schema.safeParse({ limit: 'x' });
    expect(describeIssue(r1.error!.issues[0]!)).toBe('failed to decode: schema: error converting value for "limit"');
    const r2 = schema.safeParse({ account: [A, 'bad'] });
    expect(describeIssue(r2.error!.issues[0]!)).toBe('failed to decode: schema: error converting value for index 1 of "account"');
  });
});

describe('paging and sorting (api-v3.md §1.7)', () => {
  it('limit defaults to 100, clamps below 1, errors above 1000; offset clamps at 0', () => {
    expect(page({})).toEqual({ take: 100, skip: 0 });
    expect(page({ limit: 0, offset: -4 })).toEqual({ take: 1, skip: 0 });
    expect(page({ limit: 1000, offset: 7 })).toEqual({ take: 1000, skip: 7 });
    expect(() => page({ limit: 1001 })).toThrow('limit is not allowed: 1001 > 1000');
  });

  it('sort: asc|a|desc|d in any case', () => {
    expect(sortOrder(undefined)).toBe('desc');
    expect(sortOrder('A')).toBe('asc');
    expect(sortOrder('Desc')).toBe('desc');
    expect(() => sortOrder('up')).toThrow('wrong value for sort parameter');
  });
});

describe('Go JSON escaping', () => {
  it('escapes <, >, &, U+2028 and U+2029 as encoding/json does', () => {
    expect(goJson({ comment: '<a & b>\u2028' })).toBe('{"comment":"\\u003ca \\u0026 b\\u003e\\u2028"}');
    expect(JSON.parse(goJson({ c: '<&>' }))).toEqual({ c: '<&>' });
  });
});
