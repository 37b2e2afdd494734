// NFT marketplace trades in the explorer, on the seeded devnet: the background traffic lists cards through
// the genesis marketplace's deployer on sales and auctions, and buys, bids on, cancels and finishes them
// (lib/devnet/genesis/traffic-market.ts). Once the index has a listing and a later step of a trade, the
// seller's activity, NFTs filter, says it in words and leads to the trace, whose page names the action.
// What the pages show is compared with what /api/v3/actions answers (the traffic chooses who trades what).
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { pageRows } from '../lib/client/cursor';
import { activityParams, nextActivityCursor } from '../lib/client/filters';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 420_000 });

interface Book {
  [raw: string]: { user_friendly: string | null };
}
interface Action {
  type: string;
  trace_id: string;
  success: boolean;
  details: Record<string, unknown>;
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

type Params = Record<string, string | number | string[]>;

async function actions(request: APIRequestContext, query: Params): Promise<{ actions: Action[]; address_book: Book } | undefined> {
  const params = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, String(v)]])));
  const res = await request.get('/api/v3/actions', { params });
  return res.ok() ? ((await res.json()) as { actions: Action[]; address_book: Book }) : undefined;
}

/** The newest successful action of one of `types` the index has, with its address book; polled until there is one. */
async function newest(request: APIRequestContext, types: string[]): Promise<{ action: Action; book: Book }> {
  let found: { action: Action; book: Book } | undefined;
  await expect
    .poll(
      async () => {
        const body = await actions(request, { action_type: types, limit: 20, sort: 'desc' });
        const action = body?.actions.find((a) => a.success);
        found = action && { action, book: body!.address_book };
        return !!found;
      },
      { timeout: 360_000, intervals: [2000] },
    )
    .toBe(true);
  return found!;
}

/**
 * The cursor of the page of `account`'s activity (NFTs filter) that lists `action`, found by paging back as
 * the page's Older link does. A cursor page never shifts as the chain moves on, so the newest page is
 * named by a cursor too (at its newest row): new actions cannot push the listing off it before it loads.
 */
async function activityPageOf(request: APIRequestContext, account: string, action: Action): Promise<string> {
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const body = await actions(request, activityParams(account, 'nft', cursor));
    expect(body).toBeDefined();
    const rows = body!.actions as (Action & { trace_end_lt: string })[];
    if (pageRows(rows).some((a) => a.trace_id === action.trace_id)) return cursor ?? `${rows[0]!.trace_end_lt}.0`;
    cursor = nextActivityCursor(rows, cursor);
    if (!cursor) break;
  }
  throw new Error(`the activity of ${account} does not list the trace ${action.trace_id}`);
}

const NAMES: Record<string, string> = {
  nft_put_on_sale: 'NFT listed for sale',
  nft_put_on_auction: 'NFT put on auction',
  nft_purchase: 'NFT purchase',
  nft_cancel_sale: 'Sale cancelled',
  auction_bid: 'Auction bid',
  nft_cancel_auction: 'Auction cancelled',
  nft_finish_auction: 'Auction finished',
};

test("a card listed through the marketplace: the seller's activity says so and leads to the listing's trace", async ({ page, request }) => {
  const { action, book } = await newest(request, ['nft_put_on_sale', 'nft_put_on_auction']);
  // Late in a run the traffic's transfers may have pushed the listing off the seller's newest page.
  const account = action.details.owner as string;
  const cursor = await activityPageOf(request, account, action);
  expect(action.details.marketplace_address).toBe(genesisAccount('nft_marketplace').address.toUpperCase());
  const friendly = book[account]?.user_friendly ?? account;
  await page.goto(`/account/${encodeURIComponent(friendly)}?activity=nft&activity_cursor=${cursor}`);
  const activity = page.getByTestId('activity');
  await expect(activity).toBeVisible();
  await expect(page.locator('#activity').getByRole('link', { name: '← Newest' })).toBeVisible();
  // The listing in words: the seller put the card on sale (or auction), the card and the contract linked.
  const entry = activity.locator('li').filter({ has: page.locator(`a[href^="/trace/${urlSafe(action.trace_id)}"]`) });
  const line = entry.getByTestId('action').filter({ hasText: NAMES[action.type]! }).first();
  await expect(line).toBeVisible();
  await expect(line).toContainText(action.type === 'nft_put_on_sale' ? 'on sale for' : 'on auction');
  const item = book[action.details.nft_item as string]?.user_friendly;
  if (item) await expect(line.locator(`a[href*="${encodeURIComponent(item)}"]`).first()).toBeVisible();
  // Its trace: the page names the action on top.
  await page.goto(`/trace/${urlSafe(action.trace_id)}`);
  await expect(page.locator('#actions')).toContainText(NAMES[action.type]!);
  await expect(page.locator('#actions')).toContainText(action.type === 'nft_put_on_sale' ? 'on sale for' : 'on auction');
  await noHorizontalScroll(page);
});

test('a later step of a trade (a purchase, a bid, a cancellation or a finish) on its trace page', async ({ page, request }) => {
  const { action } = await newest(request, ['nft_purchase', 'nft_cancel_sale', 'auction_bid', 'nft_cancel_auction', 'nft_finish_auction']);
  await page.goto(`/trace/${urlSafe(action.trace_id)}`);
  const actions = page.locator('#actions');
  await expect(actions).toContainText(NAMES[action.type]!);
  const words: Record<string, string> = {
    nft_purchase: 'bought NFT',
    nft_cancel_sale: 'cancelled the sale of NFT',
    auction_bid: 'for NFT',
    nft_cancel_auction: 'cancelled the auction of NFT',
    nft_finish_auction: 'finished the auction of NFT',
  };
  await expect(actions).toContainText(words[action.type]!);
  await noHorizontalScroll(page);
});
