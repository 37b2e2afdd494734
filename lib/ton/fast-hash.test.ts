import { createHash } from 'node:crypto';
import { beginCell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { describe, expect, it } from 'vitest';
import { installFastCellHash } from './fast-hash';

describe('installFastCellHash', () => {
  it('swaps in native SHA-256 without changing any hash', () => {
    const before = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8)).endCell().hash();
    expect(installFastCellHash()).toBe(true);
    const after = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8)).endCell().hash();
    expect(after.equals(before)).toBe(true);
    for (const input of [Buffer.alloc(0), Buffer.from('abc'), Buffer.alloc(1000, 7)]) {
      expect(sha256_sync(input).equals(createHash('sha256').update(input).digest())).toBe(true);
    }
    expect(sha256_sync('héllo').equals(createHash('sha256').update('héllo', 'utf8').digest())).toBe(true);
    expect(installFastCellHash()).toBe(true); // idempotent
  });
});
