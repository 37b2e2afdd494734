import { describe, expect, it } from 'vitest';
import { friendly, parseAddress, rawLower, rawUpper } from './address';
import { parseHash } from './hash-input';

const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const BOUNCEABLE = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const NON_BOUNCEABLE = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI';

describe('parseAddress', () => {
  it('reads raw addresses in any case and prints both raw forms', () => {
    for (const text of [RAW, RAW.toUpperCase()]) {
      const p = parseAddress(text)!;
      expect(p.givenType).toBe('raw_form');
      expect(rawLower(p.address)).toBe(RAW);
      expect(rawUpper(p.address)).toBe(`0:${RAW.slice(2).toUpperCase()}`);
    }
    expect(rawUpper(parseAddress(`-1:${'3'.repeat(64)}`)!.address)).toBe(`-1:${'3'.repeat(64)}`);
  });

  it('reads friendly forms with their flags', () => {
    expect(parseAddress(BOUNCEABLE)).toMatchObject({ givenType: 'friendly_bounceable', testOnly: false, urlSafe: true });
    expect(parseAddress(NON_BOUNCEABLE)).toMatchObject({ givenType: 'friendly_non_bounceable', testOnly: false });
    const a = parseAddress(BOUNCEABLE)!.address;
    expect(friendly(a, { bounceable: false })).toBe(NON_BOUNCEABLE);
    const test = friendly(a, { bounceable: true, testOnly: true });
    expect(parseAddress(test)).toMatchObject({ givenType: 'friendly_bounceable', testOnly: true });
  });

  it('reads the standard base64 alphabet as well as url-safe', () => {
    // An address whose friendly form contains url-safe characters.
    const a = parseAddress(`0:${'f'.repeat(64)}`)!.address;
    const urlSafe = friendly(a, { bounceable: true });
    const std = friendly(a, { bounceable: true, urlSafe: false });
    expect(urlSafe).not.toBe(std);
    expect(parseAddress(std)!.urlSafe).toBe(false);
    expect(rawLower(parseAddress(std)!.address)).toBe(`0:${'f'.repeat(64)}`);
    expect(rawLower(parseAddress(urlSafe)!.address)).toBe(`0:${'f'.repeat(64)}`);
  });

  it.each([
    '',
    'invalid',
    RAW.slice(0, -1),
    `${RAW}0`,
    `128:${RAW.slice(2)}`,
    `0x${RAW.slice(2)}`,
    BOUNCEABLE.slice(0, -1) + 'M', // checksum broken
    BOUNCEABLE.slice(1),
  ])('rejects %j', (text) => {
    expect(parseAddress(text)).toBeNull();
  });
});

describe('parseHash', () => {
  const hex = '8e6a3bd0dbd7a2f4c4dc1f2b7ae0d2a1a1c0d4b5f6e7a8b9c0d1e2f3a4b5c6d7';
  const buf = Buffer.from(hex, 'hex');
  it.each([
    ['hex', hex],
    ['upper hex', hex.toUpperCase()],
    ['0x hex', `0x${hex}`],
    ['base64', buf.toString('base64')],
    ['url-safe base64 padded', `${buf.toString('base64url')}=`],
    ['url-safe base64 unpadded', buf.toString('base64url')],
  ])('reads %s', (_, text) => {
    expect(parseHash(text)?.toString('hex')).toBe(hex);
  });

  it.each(['', 'abc', hex.slice(1), `${hex}00`, 'z'.repeat(64), '!'.repeat(44)])('rejects %j', (text) => {
    expect(parseHash(text)).toBeNull();
  });
});
