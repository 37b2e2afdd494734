// Jettons in the explorer on the seeded devnet: the genesis mints ATLAS to alice and bob, and the
// background traffic keeps moving it between wallets. Supply and balances on the pages are checked
// against what the jetton's own get-methods answer through /api/v2 (not against constants).
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { formatUnits } from '../lib/format/amount';
import { GENESIS_OFFCHAIN_JETTON_URI, GENESIS_STABLECOIN } from '../lib/devnet/genesis/genesis';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const ATLAS = 10n ** 9n;
/** 1234500000000 → "1,234.5": the page's own formatting of a 9-decimal amount. */
const whole = (units: bigint) => {
  const int = (units / ATLAS).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = (units % ATLAS).toString().padStart(9, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
};

/** A get-method's integer results, through the v2 API. */
async function getNums(request: APIRequestContext, address: string, method: string): Promise<bigint[]> {
  const res = await request.post('/api/v2/runGetMethod', { data: { address, method, stack: [] } });
  const body = (await res.json()) as { result: { stack: [string, unknown][] } };
  // Hex, possibly negative ("-0x1" for true).
  return body.result.stack.filter(([t]) => t === 'num').map(([, v]) => (String(v).startsWith('-') ? -BigInt(String(v).slice(1)) : BigInt(String(v))));
}

/** The devnet's genesis is indexed and the derive stage has the jetton's holders. */
async function waitForJettons(request: APIRequestContext) {
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/v3/jetton/wallets', { params: { jetton_address: genesisAccount('jetton_minter').address, exclude_zero_balance: 'true' } });
        return res.ok() ? ((await res.json()) as { jetton_wallets: unknown[] }).jetton_wallets.length : 0;
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBeGreaterThanOrEqual(3);
}

test.beforeEach(async ({ request }) => {
  await waitForJettons(request);
});

test('the jettons list leads to the jetton page: supply as get_jetton_data says, holders by balance, transfers', async ({ page, request }) => {
  await page.goto('/jettons');
  await page.getByTestId('jettons').getByRole('link', { name: 'ATLAS', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Atlas Devnet Token');
  // Traffic mints and burns now and then: the page (the index) and the get-method (the chain's head)
  // agree once the index has caught up with the last change.
  await expect
    .poll(
      async () => {
        const [supply] = await getNums(request, genesisAccount('jetton_minter').address, 'get_jetton_data');
        await page.reload();
        return (await page.locator('#overview').innerText()).includes(`${whole(supply!)} ATLAS`);
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(true);

  // Holders, largest balance first, each with its share of the supply.
  const rows = page.getByTestId('holders').locator('li');
  await expect(rows.nth(2)).toBeVisible();
  // Each amount's exact value is its tooltip ("1,234.5 ATLAS"); row text also holds labels such as "wallet v4r2".
  const titles = await rows.locator('span[title$=" ATLAS"]').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
  const amounts = titles.map((t) => Number(t.replace(/ ATLAS$/, '').replace(/,/g, '')));
  expect(amounts.length).toBe(await rows.count());
  expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
  await expect(rows.first()).toContainText('%');
  await expect(page.getByTestId('jetton-transfers').locator('li')).not.toHaveCount(0);
  await noHorizontalScroll(page);
});

test("an account's page lists the jettons it holds in the jetton's decimals and symbol", async ({ page, request }) => {
  const carol = genesisAccount('carol');
  // Traffic may move carol's balance between reading it and rendering: read, render, compare, until equal.
  await expect
    .poll(
      async () => {
        const [balance] = await getNums(request, genesisAccount('carol_jetton').address, 'get_wallet_data');
        await page.goto(`/account/${carol.friendly.nonBounceable}`);
        const text = (await page.getByTestId('account-jettons').textContent()) ?? '';
        return text.includes(`${formatUnits(balance!, 9, { maxFraction: 4 })} ATLAS`);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  await page.getByTestId('account-jettons').getByRole('link', { name: 'ATLAS' }).click();
  await expect(page).toHaveURL(/\/jetton\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Atlas Devnet Token');
  await noHorizontalScroll(page);
});

test('a jetton whose metadata is off-chain says why its name is missing and shows what the chain holds', async ({ page }) => {
  await page.goto(`/jetton/${genesisAccount('ofc_jetton_minter').friendly.bounceable}`);
  const note = page.getByTestId('offchain-metadata-note');
  // METADATA_FETCH is off (the default): the server says it has not fetched the file, and why.
  await expect(note).toContainText('has not fetched it');
  await expect(note).toContainText('METADATA_FETCH=on');
  const metadata = page.locator('#metadata');
  await expect(metadata).toContainText(GENESIS_OFFCHAIN_JETTON_URI);
  await expect(metadata).toContainText("TEP-64's default of 9");
  await noHorizontalScroll(page);

  // The governed jetton keeps its decimals on chain beside the URI: shown as on-chain fields.
  await page.goto(`/jetton/${genesisAccount('stablecoin_minter').friendly.bounceable}`);
  await expect(page.locator('#metadata')).toContainText(GENESIS_STABLECOIN.uri);
  await expect(page.locator('#metadata')).toContainText(/On chain: decimals\s*6/);
  await expect(page.locator('#metadata')).not.toContainText('default of 9');

  // In the list, an unnamed jetton says where its name is rather than standing as a bare address.
  await page.goto('/jettons');
  await expect(page.getByTestId('jettons')).toContainText('name in off-chain metadata');
});

test('a jetton address that is not a jetton, or not an address, answers not found', async ({ page }) => {
  expect((await page.goto(`/jetton/${genesisAccount('alice').friendly.bounceable}`))!.status()).toBe(404);
  expect((await page.goto('/jetton/not-an-address'))!.status()).toBe(404);
});
