// NFT marketplace trades in the explorer, on the seeded devnet: the background traffic lists cards through
// the genesis marketplace's deployer on sales and auctions, and buys, bids on, cancels and finishes them
// (lib/devnet/genesis/traffic-market.ts). Once the index has a listing and a later step of a trade, the
// seller's (or the card's) activity, NFTs filter, says it in words and leads to the trace, whose page names the action.
// What the pages show is compared with what /api/v3/actions answers (the traffic chooses who trades what).
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { activityParams } from '../lib/client/filters';
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

/**
 * The newest successful action of one of `types` the index has, with its address book; with `shownOn`, the
 * newest one `shownOn` finds an account's activity listing, and that account. Polled until there is one.
 */
async function newest(
  request: APIRequestContext,
  types: string[],
  shownOn: (a: Action) => Promise<string | undefined> = async () => '',
): Promise<{ action: Action; book: Book; on: string }> {
  let found: { action: Action; book: Book; on: string } | undefined;
  await expect
    .poll(
      async () => {
        found = undefined;
        const body = await actions(request, { action_type: types, limit: 20, sort: 'desc' });
        for (const action of body?.actions ?? []) {
          const on = action.success ? await shownOn(action) : undefined;
          if (on === undefined) continue;
          found = { action, book: body!.address_book, on };
          break;
        }
        return !!found;
      },
      { timeout: 360_000, intervals: [2000] },
    )
    .toBe(true);
  return found!;
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

test("a card listed through the marketplace: the seller's or the card's activity says so and leads to the listing's trace", async ({ page, request }) => {
  // An activity page (NFTs filter) shows its account's 20 newest NFT actions. Late in a run the traffic's
  // transfers can push every listing off the seller's, so a listing is looked for on the seller's activity
  // and then on the card's own (which the card's few trades fill slowly).
  const activityListing = async (a: Action) => {
    for (const account of [a.details.owner as string, a.details.nft_item as string]) {
      const shown = await actions(request, activityParams(account, 'nft'));
      if (shown?.actions.some((x) => x.trace_id === a.trace_id)) return account;
    }
    return undefined;
  };
  const { action, book, on: account } = await newest(request, ['nft_put_on_sale', 'nft_put_on_auction'], activityListing);
  expect(action.details.marketplace_address).toBe(genesisAccount('nft_marketplace').address.toUpperCase());
  const friendly = book[account]?.user_friendly ?? account;
  await page.goto(`/account/${encodeURIComponent(friendly)}?activity=nft`);
  const activity = page.getByTestId('activity');
  await expect(activity).toBeVisible();
  // The listing in words: the seller put the card on sale (or auction), the card and the contract linked.
  const line = activity.getByTestId('action').filter({ hasText: NAMES[action.type]! }).first();
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
