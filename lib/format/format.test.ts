import { describe, expect, it } from 'vitest';
import { formatTon, formatUnits, sumNano } from './amount';
import { explainActionResult, explainComputeExit, explainRefusal } from './exit-codes';
import { base64ToHex, middle, toUrlSafe } from './hash';
import { jettonDisplay, jettonLabel } from './jetton';
import { opcodeName } from './opcodes';
import { CLOCK_SKEW_S, formatDuration, formatRelative, formatUtc } from './time';

describe('amounts', () => {
  it('print nano exactly, beyond float precision', () => {
    expect(formatTon('1000000000')).toBe('1 TON');
    expect(formatTon(1n)).toBe('0.000000001 TON');
    expect(formatUnits('123456789012345678901234567')).toBe('123,456,789,012,345,678.901234567');
    expect(formatUnits('-1500000000')).toBe('−1.5');
    expect(formatUnits('1234567', 9, { maxFraction: 4 })).toBe('≈0.0012');
    expect(formatUnits('1200000', 6)).toBe('1.2');
    expect(sumNano('1', undefined, '2')).toBe(3n);
  });
});

describe('jettons', () => {
  it('take name, symbol and decimals from the content, with TEP-64 defaults and no trust in odd values', () => {
    expect(jettonDisplay({ name: 'Atlas Token', symbol: 'ATL', decimals: '6', description: ' ' })).toEqual({
      name: 'Atlas Token', symbol: 'ATL', decimals: 6, description: undefined, uri: undefined,
    });
    expect(jettonDisplay({ uri: 'https://example.org/j.json' })).toMatchObject({ decimals: 9, uri: 'https://example.org/j.json', symbol: undefined });
    for (const bad of ['-1', '1e3', '256', 'nine', '']) expect(jettonDisplay({ decimals: bad }).decimals, bad).toBe(9);
    expect(jettonDisplay(null).decimals).toBe(9);
    expect(jettonLabel(jettonDisplay({ name: 'Only name' }))).toBe('Only name');
    expect(jettonLabel(jettonDisplay({ name: 'N', symbol: 'S' }))).toBe('S');
    expect(formatUnits('1234500', jettonDisplay({ decimals: '6' }).decimals)).toBe('1.2345');
  });
});

describe('times and hashes', () => {
  it('format UTC and relative times', () => {
    expect(formatUtc(0)).toBe('1970-01-01 00:00:00 UTC');
    expect(formatRelative(100, 130_000)).toBe('30 s ago');
    expect(formatRelative(100, 100_000 + 7200_000)).toBe('2 h ago');
    const now = 1_800_000_000;
    const at = (seconds: number) => formatRelative(now + seconds, now * 1000);
    expect(at(-3 * 86_400)).toBe('3 d ago');
    expect(at(-45 * 86_400)).toBe('1 month ago');
    expect(at(-400 * 86_400)).toBe('1 year ago');
    expect(at(-3 * 365 * 86_400)).toBe('2 years ago');
    // The future reads as the future, not as "just now": a DNS expiry a year ahead, an order's expiration.
    expect(at(31_536_000 - 20 * 86_400)).toBe('in 11 months');
    expect(at(366 * 86_400)).toBe('in 1 year');
    expect(at(8 * 86_400)).toBe('in 8 d');
    expect(at(90 * 60)).toBe('in 1 h');
    expect(at(CLOCK_SKEW_S + 1)).toBe(`in ${CLOCK_SKEW_S + 1} s`);
    // Only clock skew is clamped: a moment ahead of the browser's clock is now.
    expect(at(CLOCK_SKEW_S)).toBe('just now');
    expect(at(2)).toBe('just now');
    expect(at(-4)).toBe('just now');
  });
  it('format durations in the largest whole unit', () => {
    expect(formatDuration(30 * 86_400)).toBe('30 days');
    expect(formatDuration(86_400)).toBe('1 day');
    expect(formatDuration(36 * 3_600)).toBe('36 hours');
    expect(formatDuration(90)).toBe('90 s');
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(1440 * 86_400)).toBe('1,440 days');
  });
  it('convert hashes', () => {
    const b64 = Buffer.alloc(32, 0xfb).toString('base64');
    expect(toUrlSafe(b64)).not.toMatch(/[+/]/);
    expect(base64ToHex(toUrlSafe(b64))).toBe('fb'.repeat(32));
    expect(middle('EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2')).toBe('EQDtFp…74p4q2');
  });
});

describe('exit codes', () => {
  it('explain TVM, contract and action codes in words', () => {
    expect(explainComputeExit(9)).toMatch(/Cell underflow/);
    expect(explainComputeExit(33, ['wallet_v4r2'])).toMatch(/seqno/);
    expect(explainComputeExit(33)).toMatch(/Action list too long/);
    expect(explainComputeExit(1234)).toMatch(/Contract-defined/);
    expect(explainActionResult(37)).toMatch(/Not enough Toncoin/);
  });

  it('explain why an external message is refused, by the receiving contract when it is known', () => {
    const reason = 'cannot run message on account: inbound external message rejected by transaction (exit code 33)';
    expect(explainRefusal(reason, ['wallet_v4r2'])).toBe('exit code 33: Wallet: the message seqno does not match the wallet seqno (replayed or out of order)');
    // Unknown receiver: a code the contract threw is not passed off as an action-phase code.
    expect(explainRefusal(reason)).toBe('exit code 33: an error the contract threw before accepting the message');
    expect(explainRefusal('… (exit code 9)')).toMatch(/^exit code 9: Cell underflow/);
    expect(explainRefusal('no exit code here')).toBe('no exit code here');
  });
});

describe('opcode names the decoder has no schema for', () => {
  it('names a bounce and the wallet v5 kinds, as the API spells opcodes, in any case', () => {
    expect(opcodeName('0xffffffff')).toBe('bounced message');
    expect(opcodeName('0x7369676E')).toBe('wallet v5 signed external');
    expect(opcodeName('0x73696e74')).toBe('wallet v5 signed internal');
    expect(opcodeName('0x6578746e')).toBe('wallet v5 extension action');
    expect(opcodeName('0x0f8a7ea5')).toBeUndefined();
    expect(opcodeName(null)).toBeUndefined();
  });
});
