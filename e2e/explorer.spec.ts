// The explorer against `npm start` on the seeded devnet: navigation, search, get-methods, failed
// transactions explained, live updates, server rendering without JavaScript, screenshots. Accessibility is
// layout.spec.ts's, on every page kind.
import fs from 'node:fs';
import path from 'node:path';
import { expect as baseExpect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';

// Each test walks several server-rendered pages on a 2-core machine that also runs the devnet and the
// indexer: generous budgets, so a slow render is not mistaken for a broken one.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

interface Tx {
  hash: string;
  account: string;
  lt: string;
  mc_block_seqno: number;
  block_ref: { workchain: number; shard: string; seqno: number };
  in_msg: { hash: string; source: string | null } | null;
  description: { aborted?: boolean; compute_ph?: { skipped?: boolean; exit_code?: number; reason?: string }; bounce?: { type: string } };
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');
const hex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');

const account = genesisAccount;

async function v3<T>(request: APIRequestContext, route: string, query: Record<string, string | number>): Promise<T> {
  const res = await request.get(`/api/v3/${route}`, { params: query });
  expect(res.status(), `${route} ${JSON.stringify(query)}`).toBe(200);
  return (await res.json()) as T;
}

/** The index has the genesis scenario (its last act is master_wallet → bob) and a few blocks more. */
async function waitForIndex(request: APIRequestContext) {
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/v3/transactions', { params: { account: account('bounce_target').address, limit: 1 } });
        return res.ok() ? ((await res.json()) as { transactions: Tx[] }).transactions.length : 0;
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBeGreaterThan(0);
}

async function accountTxs(request: APIRequestContext, name: string, limit = 100) {
  return (await v3<{ transactions: Tx[] }>(request, 'transactions', { account: account(name).address, limit, sort: 'asc' })).transactions;
}

async function shot(page: Page, info: TestInfo, name: string) {
  const dir = path.join('.reports', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${info.project.name}-${name}.png`), fullPage: true });
}

test.beforeEach(async ({ request }) => {
  await waitForIndex(request);
});

test('home → a masterchain block → one of its transactions → its account → back', async ({ page }, info) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Atlas' })).toBeVisible();
  await expect(page.getByTestId('stat-seqno')).toContainText('#');
  await expect(page.getByText('Connection lost')).toHaveCount(0);
  await noHorizontalScroll(page);
  await shot(page, info, 'home');

  // A recent masterchain block; walk back until one committed transactions.
  await page.locator('#latest-blocks-title').locator('xpath=../..').getByRole('link', { name: /^#\d+$/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: /Masterchain block #\d+/ })).toBeVisible();
  const txLinks = page.locator('#transactions-title').locator('xpath=../..').locator('a[href^="/tx/"]').locator('visible=true');
  for (let i = 0; i < 15 && (await txLinks.count()) === 0; i++) {
    const prev = (await page.getByRole('link', { name: /← Previous/ }).first().getAttribute('href'))!;
    await page.goto(prev);
    await expect(page.getByRole('heading', { level: 1, name: /Masterchain block/ })).toBeVisible();
  }
  await expect(page.getByText('Root hash')).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, 'block');

  await txLinks.first().click();
  await expect(page).toHaveURL(/\/tx\//);
  const txUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: /Transaction/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Fees' })).toBeVisible();
  await expect(page.getByText('Total fees (paid by the account)')).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, 'tx');

  await page.locator('#overview-title').locator('xpath=../..').locator('a[href^="/account/"]').first().click();
  await expect(page.getByRole('heading', { level: 1, name: /Account/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /QR code of ton:\/\/transfer\// })).toBeVisible();
  await expect(page.getByText('Non-bounceable (url-safe)')).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, 'account');

  await page.goBack();
  await expect(page).toHaveURL(txUrl);
  await expect(page.getByRole('heading', { level: 1, name: /Transaction/ })).toBeVisible();
});

test('the blocks list shows masterchain blocks with their shard blocks and pages by cursor', async ({ page, request }, info) => {
  // More than one page (20) of masterchain blocks.
  await expect.poll(async () => (await v3<{ last: { seqno: number } }>(request, 'masterchainInfo', {})).last.seqno, { timeout: 60_000 }).toBeGreaterThan(25);
  await page.goto('/blocks');
  await expect(page.getByRole('heading', { level: 1, name: 'Blocks' })).toBeVisible();
  // (Any shard: the devnet may run several, DEVNET_SHARDS.)
  await expect(page.getByRole('link', { name: /^0:[0-9A-F]{16}:\d+$/ }).first()).toBeVisible();
  const first = await page.getByRole('link', { name: /^#\d+$/ }).first().textContent();
  await noHorizontalScroll(page);
  await shot(page, info, 'blocks');
  await page.getByRole('link', { name: 'Older →' }).click();
  await expect(page).toHaveURL(/cursor=/);
  const olderFirst = Number((await page.getByRole('link', { name: /^#\d+$/ }).first().textContent())!.slice(1));
  expect(olderFirst).toBeLessThan(Number(first!.slice(1)));
});

test('the transactions list pages by lt cursor and the accounts list ranks balances', async ({ page }, info) => {
  await page.goto('/transactions');
  const links = page.locator('a[href^="/tx/"]').locator('visible=true');
  await expect(links.first()).toBeVisible();
  const firstPage = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  await shot(page, info, 'transactions');
  await page.getByRole('link', { name: 'Older →' }).click();
  await expect(page).toHaveURL(/cursor=\d+\.\d+/);
  // The URL changes before the older page's rows arrive: wait for them (on a busy machine the first page
  // was still shown when the URL had changed).
  await expect(links.first()).not.toHaveAttribute('href', firstPage[0]!, { timeout: 15_000 });
  const secondPage = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  // A cursor page never repeats a row of the page before it, however fast the chain moves.
  expect(secondPage.filter((h) => firstPage.includes(h))).toEqual([]);

  await page.goto('/accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await expect(page.locator('#top-title').locator('xpath=../..').locator('a[href^="/account/"]').first()).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, 'accounts');
});

test('live: new masterchain blocks appear on the home page without reloading', async ({ page }) => {
  await page.goto('/');
  const stat = page.getByTestId('stat-seqno');
  await expect(stat).toContainText('#');
  const before = await stat.textContent();
  await expect(stat).not.toHaveText(before!, { timeout: 10_000 });
});

test('home says so when the connection is lost', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('stat-seqno')).toContainText('#');
  await page.route('**/api/**', (route) => route.abort());
  await expect(page.getByRole('alert').filter({ hasText: 'Connection lost' })).toBeVisible({ timeout: 10_000 });
  await page.unroute('**/api/**');
  await expect(page.getByText('Connection lost')).toHaveCount(0, { timeout: 10_000 });
});

test('home follows the chain through its stream: when the stream drops it says so, reconnects and catches up', async ({ page }) => {
  let connections = 0;
  let subscribed = 0;
  let drop: (() => void) | undefined;
  // Every stream passes through (counting the subscriptions it confirms); the first is dropped on demand.
  await page.routeWebSocket('**/api/streaming/v2/ws', (ws) => {
    connections++;
    const server = ws.connectToServer();
    server.onMessage((m) => {
      ws.send(m);
      if (String(m).includes('"status":"subscribed"')) subscribed++;
    });
    if (connections === 1) drop = () => ws.close({ code: 4000, reason: 'dropped by the test' });
  });
  await page.goto('/');
  const stat = page.getByTestId('stat-seqno');
  await expect(stat).toContainText('#');
  await expect.poll(() => subscribed).toBe(1);
  drop!();
  await expect(page.getByRole('alert').filter({ hasText: 'Connection lost' })).toBeVisible({ timeout: 10_000 });
  // Back with back-off, then a catch-up read: the head moves on again.
  await expect.poll(() => subscribed, { timeout: 15_000 }).toBe(2);
  await expect(page.getByText('Connection lost')).toHaveCount(0, { timeout: 10_000 });
  const after = await stat.textContent();
  await expect(stat).not.toHaveText(after!, { timeout: 10_000 });
});

test('search resolves every identifier form', async ({ page, request }, info) => {
  const alice = account('alice');
  const detected = (await (await request.get('/api/v2/detectAddress', { params: { address: alice.address } })).json()).result;
  const aliceForms = [
    alice.address,
    alice.address.toUpperCase().replace(/^0:/, '0:'),
    alice.friendly.bounceable,
    alice.friendly.nonBounceable,
    detected.bounceable.b64,
    detected.non_bounceable.b64,
    `ton://transfer/${alice.friendly.nonBounceable}?amount=1000000000&text=hi`,
    `https://tonviewer.com/${alice.friendly.bounceable}`,
    `https://tonscan.org/address/${alice.friendly.nonBounceable}`,
  ];
  for (const q of aliceForms) {
    await page.goto(`/search?q=${encodeURIComponent(q)}`);
    await expect(page, q).toHaveURL(/\/account\//);
    await expect(page.getByText(alice.friendly.nonBounceable).first()).toBeVisible();
  }

  // A transaction received by alice through an internal message: hash forms and explorer URLs.
  const [tx] = (await accountTxs(request, 'alice')).filter((t) => t.in_msg?.source);
  const txForms = [tx!.hash, urlSafe(tx!.hash), hex(tx!.hash), `https://tonviewer.com/transaction/${hex(tx!.hash)}`, `https://toncenter.com/api/v3/transactions?hash=${encodeURIComponent(tx!.hash)}`];
  for (const q of txForms) {
    await page.goto(`/search?q=${encodeURIComponent(q)}`);
    await expect(page, q).toHaveURL(`/tx/${urlSafe(tx!.hash)}`);
  }
  // Its in-message was sent by one transaction and received by another: both are offered.
  await page.goto(`/search?q=${encodeURIComponent(tx!.in_msg!.hash)}`);
  await expect(page.getByText(/matches 2 things/)).toBeVisible();
  await expect(page.getByText('Message → receiving transaction')).toBeVisible();
  await shot(page, info, 'search-choices');
  await page.getByRole('link', { name: urlSafe(tx!.hash) }).click();
  await expect(page).toHaveURL(`/tx/${urlSafe(tx!.hash)}`);

  // Block ids: wc:shard:seqno and a bare masterchain seqno.
  const b = tx!.block_ref;
  await page.goto(`/search?q=${encodeURIComponent(`${b.workchain}:${b.shard}:${b.seqno}`)}`);
  await expect(page).toHaveURL(`/block/${b.workchain}/${b.shard}/${b.seqno}`);
  await page.goto(`/search?q=${tx!.mc_block_seqno}`);
  await expect(page).toHaveURL(`/block/-1/8000000000000000/${tx!.mc_block_seqno}`);

  // Nothing found, said in words; typed into the header box.
  await page.goto('/');
  const box = page.getByRole('searchbox', { name: /search by address/i }).locator('visible=true').first();
  await box.fill('definitely not an identifier');
  await box.press('Enter');
  await expect(page.getByRole('heading', { name: /Nothing found/ })).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, 'search-nothing');
});

test('the get-method runner returns a wallet seqno', async ({ page, request }) => {
  const alice = account('alice');
  await page.goto(`/account/${alice.friendly.nonBounceable}`);
  const runner = page.getByRole('form', { name: 'Run a get-method' });
  await runner.getByLabel(/Method name/).fill('seqno');
  await runner.getByRole('button', { name: 'Run' }).click();
  const result = page.getByTestId('get-method-result');
  await expect(result).toContainText('Exit code 0');
  const shown = Number(/num\s+(\d+)/.exec((await result.textContent())!)![1]);
  expect(shown).toBeGreaterThanOrEqual(1);
  // The runner reads the chain's latest state, walletStates the index, which may be a block behind it: the
  // index reaches the seqno shown (traffic may send from alice meanwhile: the seqno only grows).
  const indexed = async () => (await v3<{ wallets: { seqno: number }[] }>(request, 'walletStates', { address: alice.address })).wallets[0]!.seqno;
  await expect.poll(indexed, { timeout: 15_000 }).toBeGreaterThanOrEqual(shown);

  await runner.getByLabel(/Method name/).fill('no_such_method');
  await runner.getByRole('button', { name: 'Run' }).click();
  await expect(result).not.toContainText('Exit code 0');
});

test('the bounced and the aborted transactions of the genesis explain their codes', async ({ page, request }, info) => {
  const [bounced] = await accountTxs(request, 'bounce_target', 1);
  expect(bounced!.description.bounce?.type).toBe('ok');
  await page.goto(`/tx/${urlSafe(bounced!.hash)}`);
  await expect(page.getByText('Compute phase skipped: No state: the account has no code').first()).toBeVisible();
  await expect(page.getByText('The inbound value was bounced back to the sender.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bounce phase' })).toContainText('Bounced back to the sender');
  await shot(page, info, 'tx-bounced');

  const aborted = (await accountTxs(request, 'jetton_minter')).find((t) => t.description.aborted);
  expect(aborted, 'the minter has an aborted transaction').toBeTruthy();
  const code = aborted!.description.compute_ph!.exit_code!;
  await page.goto(`/tx/${urlSafe(aborted!.hash)}`);
  await expect(page.getByText('Failed').first()).toBeVisible();
  await expect(page.getByText(new RegExp(`Compute phase failed with exit code ${code}: \\w+`))).toBeVisible();
  await expect(page.getByRole('region', { name: 'Compute phase' })).toContainText(`${code} —`);
  await shot(page, info, 'tx-aborted');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('block, transaction and account pages render their data on the server', async ({ page, request }) => {
    const alice = account('alice');
    // alice's newest transaction: the first row of her account page and of its block's page.
    const [tx] = (await v3<{ transactions: Tx[] }>(request, 'transactions', { account: alice.address, limit: 1, sort: 'desc' })).transactions;
    const b = tx!.block_ref;
    const [blockFirst] = (await v3<{ transactions: Tx[] }>(request, 'transactions', { workchain: b.workchain, shard: b.shard, seqno: b.seqno, limit: 1, sort: 'desc' })).transactions;
    await page.goto(`/block/${b.workchain}/${b.shard}/${b.seqno}`);
    await expect(page.getByRole('heading', { level: 1, name: `Shard block ${b.workchain}:${b.shard}:${b.seqno}` })).toBeVisible();
    await expect(page.getByText('Root hash')).toBeVisible();
    await expect(page.locator(`a[href="/tx/${urlSafe(blockFirst!.hash)}"]`).first()).toBeAttached();

    await page.goto(`/tx/${urlSafe(tx!.hash)}`);
    await expect(page.getByText(tx!.lt, { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Compute phase' })).toBeVisible();

    await page.goto(`/account/${alice.friendly.bounceable}`);
    await expect(page.getByText('Balance', { exact: true })).toBeVisible();
    await expect(page.getByText(/\d TON/).first()).toBeVisible();
    await expect(page.getByText(alice.friendly.nonBounceable).first()).toBeVisible();
    await expect(page.locator('a[href^="/tx/"]').first()).toBeAttached();
    // The server runs with LITE_VERIFY=on (playwright.config.ts): the live balance was checked by proof,
    // and what was checked is one click away (a <details>, no JavaScript needed).
    const badge = page.getByTestId('live-balance').getByTestId('proof-badge');
    await expect(badge.getByText('verified by proof')).toBeVisible();
    await expect(badge.getByText(/account state against the state hash/)).toBeHidden();
    await badge.getByText('verified by proof').click();
    await expect(badge.getByText(/account state against the state hash/)).toBeVisible();
  });
});

test('unknown ids answer not found pages', async ({ page }) => {
  const res = await page.goto(`/tx/${'A'.repeat(43)}=`);
  expect(res!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Transaction not found' })).toBeVisible();
  expect((await page.goto('/block/0/8000000000000000/999999999'))!.status()).toBe(404);
  expect((await page.goto('/account/not-an-address'))!.status()).toBe(404);
  // Malformed escapes in a path or a searched link are text that names nothing, not a server error.
  expect((await page.goto('/tx/%25ZZ'))!.status()).toBe(404);
  expect((await page.goto('/account/%25E2'))!.status()).toBe(404);
  const search = await page.goto(`/search?q=${encodeURIComponent('http://x/%ZZ')}`);
  expect(search!.status()).toBeLessThan(500);
  await expect(page.getByRole('heading', { name: 'Nothing found for “http://x/%ZZ”' })).toBeVisible();
});

// One measurement is enough: the mobile project leaves @desktop-only tests out (playwright.config.ts).
test('first-load JavaScript per page stays within 200 KB gzipped; home time to first byte is recorded', { tag: '@desktop-only' }, async ({ page, request }, info) => {
  const [tx] = (await accountTxs(request, 'alice')).filter((t) => t.in_msg?.source);
  const pages: Record<string, string> = {
    home: '/',
    blocks: '/blocks',
    block: `/block/-1/8000000000000000/${tx!.mc_block_seqno}`,
    tx: `/tx/${urlSafe(tx!.hash)}`,
    account: `/account/${account('alice').friendly.bounceable}`,
    search: '/search?q=nothing',
  };
  const report: Record<string, { jsKbGzip: number; ttfbMs: number }> = {};
  for (const [name, url] of Object.entries(pages)) {
    await page.goto(url);
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('load');
    report[name] = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const js = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.name.endsWith('.js') || r.initiatorType === 'script');
      // encodedBodySize: bytes on the wire (gzip/br as the server sent them).
      return { jsKbGzip: Math.round(js.reduce((s, r) => s + r.encodedBodySize, 0) / 1024), ttfbMs: Math.round(nav.responseStart - nav.requestStart) };
    });
  }
  // Time to first byte of the home page, best of five warm requests (the build's first request compiles nothing but warms caches).
  const ttfb: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = Date.now();
    const res = await request.get('/', { headers: { accept: 'text/html' } });
    expect(res.ok()).toBe(true);
    ttfb.push(Date.now() - t0);
  }
  const summary = { pages: report, homeTtfbMs: { best: Math.min(...ttfb), samples: ttfb }, targets: { jsKbGzip: 200, ttfbMs: 300 } };
  fs.mkdirSync('.reports', { recursive: true });
  fs.writeFileSync(path.join('.reports', 'explorer-perf.json'), JSON.stringify(summary, null, 2));
  await info.attach('explorer-perf.json', { body: JSON.stringify(summary, null, 2), contentType: 'application/json' });
  for (const [name, r] of Object.entries(report)) expect(r.jsKbGzip, `${name} first-load JS (KB gzipped)`).toBeLessThanOrEqual(200);
});
