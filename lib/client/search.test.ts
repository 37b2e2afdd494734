import { describe, expect, it } from 'vitest';
import { classify, nameMatches } from './search';

const RAW = '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8';
const FRIENDLY = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const HEX = 'ab'.repeat(32);
const B64 = Buffer.from(HEX, 'hex').toString('base64');
const B64URL = Buffer.from(HEX, 'hex').toString('base64url');

describe('search input', () => {
  it('reads addresses in raw and friendly forms', () => {
    expect(classify(RAW)).toEqual([{ kind: 'address', value: RAW }]);
    expect(classify(` ${FRIENDLY} `)).toEqual([{ kind: 'address', value: FRIENDLY }]);
  });

  it('reads hashes in hex, base64 and url-safe base64 (padded or not)', () => {
    expect(classify(HEX)).toEqual([{ kind: 'hash', value: HEX }]);
    expect(classify(`0x${HEX}`)).toEqual([{ kind: 'hash', value: HEX }]);
    expect(classify(B64)).toEqual([{ kind: 'hash', value: B64 }]);
    expect(classify(B64URL)).toEqual([{ kind: 'hash', value: B64URL }]);
    // A + in a query string that was not percent-encoded arrives as a space.
    const withPlus = Buffer.alloc(32, 0xfb).toString('base64');
    expect(classify(withPlus.replace(/\+/g, ' '))).toEqual([{ kind: 'hash', value: withPlus }]);
  });

  it('reads block ids and bare masterchain seqnos', () => {
    expect(classify('-1:8000000000000000:123')).toEqual([{ kind: 'block', workchain: -1, shard: '8000000000000000', seqno: 123 }]);
    expect(classify('(0,8000000000000000,5)')).toEqual([{ kind: 'block', workchain: 0, shard: '8000000000000000', seqno: 5 }]);
    expect(classify('42')).toEqual([{ kind: 'mcSeqno', seqno: 42 }]);
  });

  it('reads ton:// links and other explorers\' URLs', () => {
    expect(classify(`ton://transfer/${FRIENDLY}?amount=1000`)).toEqual([{ kind: 'address', value: FRIENDLY }]);
    expect(classify(`https://tonviewer.com/${FRIENDLY}`)).toEqual([{ kind: 'address', value: FRIENDLY }]);
    expect(classify(`https://tonviewer.com/transaction/${HEX}`)).toEqual([{ kind: 'hash', value: HEX }]);
    expect(classify(`https://tonscan.org/address/${FRIENDLY}`)).toEqual([{ kind: 'address', value: FRIENDLY }]);
    expect(classify(`https://tonscan.org/tx/${B64URL}`)).toEqual([{ kind: 'hash', value: B64URL }]);
    expect(classify(`https://toncenter.com/api/v3/transactions?hash=${encodeURIComponent(B64)}`)).toEqual([{ kind: 'hash', value: B64 }]);
  });

  it('reads links with malformed escapes as written, never throwing', () => {
    expect(() => classify('http://x/%ZZ')).not.toThrow();
    expect(classify('http://x/%ZZ')).toEqual([]);
    expect(classify('https://tonviewer.com/%E2/EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N')).toEqual([{ kind: 'address', value: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N' }]);
    expect(classify('ton://transfer/%ZZ')).toEqual([]);
  });

  it('finds nothing in text that names nothing', () => {
    expect(classify('')).toEqual([]);
    expect(classify('   ')).toEqual([]);
    expect(classify('!!!')).toEqual([]);
    expect(classify('x'.repeat(65))).toEqual([]);
    expect(classify('evil\u0000name')).toEqual([]);
  });

  it('reads a .ton name as a domain only, and other words as a token or NFT name', () => {
    expect(classify('Alice.TON')).toEqual([{ kind: 'domain', value: 'alice.ton' }]);
    expect(classify(' ATLAS ')).toEqual([{ kind: 'name', value: 'ATLAS' }]);
    expect(classify('Atlas Devnet Cards')).toEqual([{ kind: 'name', value: 'Atlas Devnet Cards' }]);
    // Identifiers are never read as names too.
    expect(classify('42')).toEqual([{ kind: 'mcSeqno', seqno: 42 }]);
    expect(classify(RAW).map((c) => c.kind)).toEqual(['address']);
  });

  it('matches a symbol exactly and a name by any part, ignoring case', () => {
    expect(nameMatches('atlas', { symbol: 'ATLAS', name: 'Atlas Devnet Token' })).toBe(true);
    expect(nameMatches('devnet cards', { name: 'Atlas Devnet Cards' })).toBe(true);
    expect(nameMatches('devnet ca', { name: 'Atlas Devnet Cards' })).toBe(true); // every word a word prefix
    expect(nameMatches('vnet', { name: 'Atlas Devnet Cards' })).toBe(false); // not a word's start
    expect(nameMatches('usd₮', { symbol: 'USD₮' })).toBe(true);
    expect(nameMatches('ATL', { symbol: 'ATLAS' })).toBe(false);
    expect(nameMatches('cards', { symbol: 'ATLAS', name: 'Atlas Devnet Token' })).toBe(false);
    expect(nameMatches('.*', { name: 'Atlas' })).toBe(false);
    expect(nameMatches('  ', { name: 'Atlas' })).toBe(false);
  });
});
