import { describe, expect, it } from 'vitest';
import { nextTxCursor, parseLtCursor, txPageParams } from './cursor';

describe('lt cursors', () => {
  it('start with the newest page and continue below the last lt', () => {
    // One row more than the page shows: it only says an older page exists.
    expect(txPageParams({ account: 'A' }, undefined, 3)).toEqual({ account: 'A', limit: 4, sort: 'desc' });
    const rows = [{ lt: '30' }, { lt: '20' }, { lt: '10' }, { lt: '5' }];
    const next = nextTxCursor(rows, undefined, 3);
    expect(next).toBe('10.1');
    expect(txPageParams({ account: 'A' }, next, 3)).toEqual({ account: 'A', limit: 4, sort: 'desc', end_lt: '10', offset: 1 });
  });

  it('skip every row of a shared lt already shown, across pages', () => {
    const page1 = [{ lt: '9' }, { lt: '5' }, { lt: '5' }, { lt: '5' }];
    const c1 = nextTxCursor(page1, undefined, 3)!;
    expect(c1).toBe('5.2');
    // The next page starts inside the lt=5 group and stays in it.
    const page2 = [{ lt: '5' }, { lt: '5' }, { lt: '5' }, { lt: '4' }];
    expect(nextTxCursor(page2, c1, 3)).toBe('5.5');
  });

  it('end on a short page and reject malformed cursors', () => {
    expect(nextTxCursor([{ lt: '1' }], undefined, 3)).toBeUndefined();
    // Exactly a full page and nothing older: no link to an empty page.
    expect(nextTxCursor([{ lt: '3' }, { lt: '2' }, { lt: '1' }], undefined, 3)).toBeUndefined();
    expect(parseLtCursor('abc')).toBeUndefined();
    expect(parseLtCursor('12')).toEqual({ lt: '12', skip: 0 });
  });
});
