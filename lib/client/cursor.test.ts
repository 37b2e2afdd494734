import { describe, expect, it } from 'vitest';
import { nextTxCursor, PAGE_SIZE, parseLtCursor, txPageParams } from './cursor';
import { activityParams, nextActivityCursor } from './filters';

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

describe('activity cursors', () => {
  it("page an account's actions by trace_end_lt, of the chosen kind", () => {
    expect(activityParams('A', 'all')).toEqual({ account: 'A', limit: PAGE_SIZE + 1, sort: 'desc' });
    const nft = activityParams('A', 'nft', '70.2');
    expect(nft).toMatchObject({ account: 'A', end_lt: '70', offset: 2, limit: PAGE_SIZE + 1 });
    expect(nft.action_type).toContain('nft_transfer');
    // One trace's actions share its end lt: the next page skips those already shown.
    const fetched = Array.from({ length: PAGE_SIZE + 1 }, (_, i) => ({ trace_end_lt: String(100 - Math.floor(i / 3)) }));
    const last = fetched[PAGE_SIZE - 1]!.trace_end_lt;
    expect(nextActivityCursor(fetched, undefined)).toBe(`${last}.${fetched.slice(0, PAGE_SIZE).filter((a) => a.trace_end_lt === last).length}`);
    expect(nextActivityCursor(fetched.slice(0, PAGE_SIZE), undefined)).toBeUndefined();
  });
});
