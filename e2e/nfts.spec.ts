// NFTs and .ton names in the explorer on the seeded devnet: the genesis mints three cards (alice gives #0
// to carol and puts #1 on a 100 TON sale, bob keeps #2), a soulbound badge, and registers alice.ton and
// atlas.ton with wallet, site/storage and next-resolver records. What the pages show is compared with what
// the public v3 routes answer (not with constants).
import { Address, internal, toNano } from '@ton/core';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { dnsChangeRecordBody } from '../lib/devnet/contracts/dns';
import { DNS_TERM_SECONDS } from '../lib/format/nft';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';
import { sendFromGenesisV4 } from './wallet';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

interface Book {
  [raw: string]: { user_friendly: string | null };
}
interface DnsRecord {
  nft_item_address: string;
  nft_item_owner: string | null;
  domain: string;
  dns_next_resolver: string | null;
  dns_wallet: string | null;
  dns_site_adnl: string | null;
  dns_storage_bag_id: string | null;
}

/** The explorer's link to an account, as the address book names it. */
const accountLink = (raw: string, book: Book) => `/account/${encodeURIComponent(book[raw]?.user_friendly ?? raw)}`;
/** Every link the explorer may use for a genesis account (wallets are shown non-bounceable, contracts bounceable). */
const accountLinks = (name: string) => {
  const a = genesisAccount(name);
  return [a.friendly.bounceable, a.friendly.nonBounceable].map((f) => `/account/${encodeURIComponent(f)}`);
};

async function dnsRecords(request: APIRequestContext, domain: string): Promise<{ records: DnsRecord[]; address_book: Book }> {
  const res = await request.get('/api/v3/dns/records', { params: { domain } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { records: DnsRecord[]; address_book: Book };
}

/** The devnet's genesis is indexed and the derive stage has the cards and both .ton names. */
async function waitForNfts(request: APIRequestContext) {
  await expect
    .poll(
      async () => {
        const items = await request.get('/api/v3/nft/items', { params: { collection_address: genesisAccount('nft_collection').address } });
        const names = await request.get('/api/v3/dns/records', { params: { domain: 'atlas.ton' } });
        if (!items.ok() || !names.ok()) return 0;
        return Math.min(((await items.json()) as { nft_items: unknown[] }).nft_items.length, ((await names.json()) as { records: unknown[] }).records.length * 3);
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBeGreaterThanOrEqual(3);
}

/** A card of the page by its id (components/ui/Card: the section is labelled by its `${id}-title` heading). */
const card = (page: Page, id: string) => page.locator(`section[aria-labelledby="${id}-title"]`);

test.beforeEach(async ({ request }) => {
  await waitForNfts(request);
});

test('collections grid → collection → item → owner account → item → collection', async ({ page }) => {
  await page.goto('/nfts');
  const grid = page.getByTestId('nft-collections');
  await expect(grid).toContainText('Atlas Devnet Badges');
  await grid.getByRole('link', { name: 'Atlas Devnet Cards' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Atlas Devnet Cards');
  await expect(card(page, 'overview')).toContainText('5 items'); // cards 0-4 (3 is on auction, 4 was bought at genesis)
  const items = page.getByTestId('collection-items').locator('li');
  await expect(items).toHaveCount(5);
  await expect(page.getByTestId('nft-transfers').locator('li')).not.toHaveCount(0);
  await noHorizontalScroll(page);

  // Card #2: its page names its owner (the devnet's background traffic moves cards between wallets, so
  // the owner is whoever /api/v3/nft/items says now) and its collection.
  await page.getByTestId('collection-items').getByRole('link', { name: '#2', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('#2');
  const itemPath = new URL(page.url()).pathname;
  const owner = card(page, 'overview').locator('a[href^="/account/"]').first();
  await expect(owner).toBeVisible();
  await noHorizontalScroll(page);

  await owner.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Account');
  await page.goto(itemPath);
  await card(page, 'overview').locator('a[href^="/nft/collection/"]').click();
  await expect(page).toHaveURL(/\/nft\/collection\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Atlas Devnet Cards');
});

test("an account's NFTs include the one it has put on sale", async ({ page }) => {
  // alice's card #1 sits in a sale contract: traffic cannot move it, and she is still its real owner.
  await page.goto(`/account/${genesisAccount('alice').friendly.nonBounceable}`);
  const item = genesisAccount('nft_item_1');
  const links = [item.friendly.bounceable, item.friendly.nonBounceable].map((f) => `a[href="/nft/${encodeURIComponent(f)}"]`).join(', ');
  await expect(page.getByTestId('account-nfts').locator(links).first()).toBeVisible();
});

test('an item on sale names the seller behind the sale and its price; a soulbound badge is marked', async ({ page }) => {
  await page.goto(`/nft/${genesisAccount('nft_item_1').friendly.bounceable}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('on sale');
  expect(accountLinks('alice')).toContain(await card(page, 'overview').locator('a[href^="/account/"]').first().getAttribute('href'));
  await expect(card(page, 'sale')).toContainText('fixed-price sale');
  await expect(card(page, 'sale')).toContainText('100 TON');
  // History: old owner → new owner, the transfer to the sale contract included.
  await expect(page.getByTestId('nft-transfers').locator('li')).not.toHaveCount(0);
  await noHorizontalScroll(page);

  await page.goto(`/nft/${genesisAccount('sbt_item_0').friendly.bounceable}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('SBT');
  // bob's attempt to give it away is listed, aborted.
  await expect(page.getByTestId('nft-transfers')).toContainText('aborted');
});

for (const domain of ['alice.ton', 'atlas.ton', 'files.ton']) {
  test(`the ${domain} page shows its owner and every record as dns/records answers`, async ({ page, request }) => {
    // The page and dns/records must show one state of the name: while the indexer still derives the
    // genesis's record changes, the two reads may straddle one, so both are read again until they agree.
    await expect(async () => {
      await page.goto(`/dns/${domain}`);
      const { records, address_book: book } = await dnsRecords(request, domain);
      const r = records[0]!;
      const quick = { timeout: 2_000 };
      await expect(page.getByRole('heading', { level: 1 })).toContainText(domain, quick);
      await expect(page.getByTestId('dns-owner').getByRole('link')).toHaveAttribute('href', accountLink(r.nft_item_owner!, book), quick);
      for (const [testId, raw] of [
        ['dns-wallet', r.dns_wallet],
        ['dns-resolver', r.dns_next_resolver],
      ] as const) {
        if (raw) await expect(page.getByTestId(testId).getByRole('link')).toHaveAttribute('href', accountLink(raw, book), quick);
        else await expect(page.getByTestId(testId)).toHaveCount(0, quick);
      }
      for (const [testId, hex] of [
        ['dns-site', r.dns_site_adnl],
        ['dns-storage', r.dns_storage_bag_id],
      ] as const) {
        if (hex) await expect(page.getByTestId(testId)).toContainText(hex, quick);
        else await expect(page.getByTestId(testId)).toHaveCount(0, quick);
      }
    }).toPass({ timeout: 25_000 });
    await noHorizontalScroll(page);
    // The name's NFT item, and back to the name from it.
    await page.getByTestId('dns-item').click();
    await expect(page).toHaveURL(/\/nft\//);
    await card(page, 'overview').getByRole('link', { name: domain }).click();
    await expect(page).toHaveURL(new RegExp(`/dns/${domain.replace('.', '\\.')}$`));
  });
}

test('a renewed name shows its expiry a year ahead as the future, not as "just now"', async ({ page, request }) => {
  const item = genesisAccount('alice.ton').address;
  const filledUp = async () => {
    const res = await request.post('/api/v2/runGetMethod', { data: { address: item, method: 'get_last_fill_up_time', stack: [] } });
    return Number(BigInt(((await res.json()) as { result: { stack: [string, string][] } }).result.stack[0]![1]));
  };
  // The seeded genesis registered the name in 2024: alice renews it now (change_dns_record, key 0, no value).
  const since = Math.floor(Date.now() / 1000) - 5;
  const renew = dnsChangeRecordBody({ category: 0n, record: null, queryId: BigInt(Date.now()) });
  await sendFromGenesisV4(request, 'alice', [internal({ to: Address.parse(item), value: toNano('0.05'), bounce: true, body: renew })], async () => (await filledUp()) >= since);
  const expiry = new Date(((await filledUp()) + DNS_TERM_SECONDS) * 1000);
  await page.goto('/dns/alice.ton');
  const shown = page.getByTestId('dns-expiry');
  await expect(shown).toContainText(/^in (11|12) months|^in 1 year/);
  await expect(shown).toContainText(expiry.toISOString().slice(0, 10));
  await expect(shown).not.toContainText('just now');
  await noHorizontalScroll(page);
});

test("an account's page lists the .ton names it owns", async ({ page }) => {
  await page.goto(`/account/${genesisAccount('alice').friendly.nonBounceable}`);
  // The name links to its DNS page once dns/records confirms the item holds it.
  await page.getByTestId('account-domains').locator('a[href="/dns/alice.ton"]').first().click();
  await expect(page).toHaveURL(/\/dns\/alice\.ton$/);
});

test('search resolves a .ton name, finds a jetton by symbol and a collection by name', async ({ page }) => {
  await page.goto('/search?q=alice.ton');
  await expect(page).toHaveURL(/\/dns\/alice\.ton$/);

  await page.goto('/search?q=Devnet%20Cards');
  await expect(page).toHaveURL(/\/nft\/collection\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Atlas Devnet Cards');

  // "atlas" is also part of NFT names: the jetton whose symbol it is comes first.
  await page.goto('/search?q=atlas');
  const first = page.getByTestId('search-choices').locator('li').first();
  await expect(first).toContainText('ATLAS · Atlas Devnet Token');
  const minter = genesisAccount('jetton_minter');
  expect([minter.friendly.bounceable, minter.friendly.nonBounceable].map((f) => `/jetton/${encodeURIComponent(f)}`)).toContain(await first.getByRole('link').getAttribute('href'));
});

test('unknown names and non-addresses answer not found', async ({ page }) => {
  expect((await page.goto('/dns/nobody-here.ton'))!.status()).toBe(404);
  expect((await page.goto('/dns/not a domain'))!.status()).toBe(404);
  expect((await page.goto(`/nft/${genesisAccount('alice').friendly.bounceable}`))!.status()).toBe(404);
  expect((await page.goto('/nft/collection/not-an-address'))!.status()).toBe(404);
});
