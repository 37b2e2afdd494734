// Every page kind of the explorer at desktop (1440×900), tablet (768×1024) and phone (390×844) widths, in the
// light and the dark theme, on the seeded devnet: no text box drawn over another, no sideways scrolling,
// no console error or failed request, no serious or critical axe finding, a visible focus ring on every
// keyboard stop, and a screenshot compared with the baseline in layout.spec.ts-snapshots/ (chain data that
// differs between runs — times, hashes, addresses, amounts, live lists — is masked).
// The spec sets its own viewports, so the mobile project (Pixel 7) leaves it out (@desktop-only).
import { expect as baseExpect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { genesisAccount } from './genesis';
import { axeFindings, focusProblems, horizontalOverflow, PageProblems, textOverlaps, unreachableControls } from './layout-checks';

const expect = baseExpect.configure({ timeout: 20_000 });

interface Tx {
  hash: string;
  trace_id?: string | null;
  mc_block_seqno: number;
  block_ref: { workchain: number; shard: string; seqno: number };
  in_msg: { source: string | null } | null;
  description: { compute_ph?: { exit_code?: number } };
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

interface PageKind {
  name: string;
  url: (ids: Ids) => string;
  /** Card ids (components/ui/Card) whose bodies hold data the devnet's traffic or the clock changes. */
  live?: string[];
  /** Other selectors to mask in screenshots. */
  mask?: string[];
  /** Selectors left out of screenshots (display: none) because the traffic makes them come and go. */
  hide?: string[];
  /** A response status other than 2xx/3xx that this page answers on purpose (the not-found page). */
  status?: number;
}

/** Ids the index assigns at run time (hashes, seqnos). */
interface Ids {
  tx: Tx;
  trace: string;
}

const account = (name: string, form: 'bounceable' | 'nonBounceable' = 'bounceable') => `/account/${encodeURIComponent(genesisAccount(name).friendly[form])}`;
const friendly = (name: string) => encodeURIComponent(genesisAccount(name).friendly.bounceable);

const KINDS: PageKind[] = [
  { name: 'home', url: () => '/', live: ['latest-blocks', 'latest-txs'], mask: ['section[aria-label="Network summary"]'] },
  { name: 'blocks', url: () => '/blocks', live: ['blocks'] },
  { name: 'block-masterchain', url: ({ tx }) => `/block/-1/8000000000000000/${tx.mc_block_seqno}`, live: ['shards', 'transactions'] },
  { name: 'block-basechain', url: ({ tx: { block_ref: b } }) => `/block/${b.workchain}/${b.shard}/${b.seqno}`, live: ['transactions'] },
  { name: 'transactions', url: () => '/transactions', live: ['transactions'] },
  { name: 'transaction', url: ({ tx }) => `/tx/${urlSafe(tx.hash)}` },
  { name: 'account-wallet', url: () => account('alice', 'nonBounceable'), live: ['overview', 'jettons', 'activity', 'nfts', 'domains', 'transactions'] },
  { name: 'account-jetton-wallet', url: () => account('alice_jetton'), live: ['overview', 'activity', 'transactions'] },
  { name: 'account-nft-item', url: () => account('nft_item_2'), live: ['overview', 'activity', 'transactions'] },
  { name: 'account-nonexist', url: () => account('bounce_target'), live: ['activity', 'transactions'] },
  { name: 'account-vesting', url: () => account('vesting'), live: ['overview', 'activity', 'transactions'] },
  { name: 'account-multisig', url: () => account('multisig'), live: ['overview', 'jettons', 'activity', 'transactions'] },
  { name: 'accounts-top', url: () => '/accounts', live: ['top'] },
  { name: 'jettons', url: () => '/jettons', live: ['jettons'] },
  { name: 'jetton', url: () => `/jetton/${friendly('jetton_minter')}`, live: ['holders', 'transfers'] },
  { name: 'jetton-offchain', url: () => `/jetton/${friendly('stablecoin_minter')}`, live: ['holders', 'transfers'] },
  { name: 'nfts', url: () => '/nfts', live: ['collections'] },
  { name: 'nft-collection', url: () => `/nft/collection/${friendly('nft_collection')}`, live: ['items', 'transfers'] },
  // The traffic's marketplace lists and sells the cards now and then: the Sale card comes and goes.
  { name: 'nft-item', url: () => `/nft/${friendly('nft_item_2')}`, live: ['overview', 'history'], hide: ['section#sale'] },
  { name: 'dns', url: () => '/dns/alice.ton' },
  { name: 'trace', url: ({ trace }) => `/trace/${urlSafe(trace)}` },
  { name: 'search', url: () => '/search?q=atlas' },
  { name: 'emulate', url: () => '/emulate' },
  { name: 'api-docs', url: () => '/api-docs' },
  { name: 'api-reference', url: () => '/api-docs/v3' },
  { name: 'not-found', url: () => '/no-such-page', status: 404 },
];

/** Data every screenshot masks: times, hashes, addresses and amounts (monospaced), counters. */
const MASK_ALWAYS = ['time', '.font-mono', '.tabular-nums'];
/**
 * Data screenshots leave out (display: none while the screenshot is taken): an address's .ton name comes
 * and goes as the devnet traffic rewrites DNS wallet records, and takes room when it is there.
 */
const HIDE_ALWAYS = ['[data-testid="address-domain"]'];

async function get<T>(request: APIRequestContext, route: string, params: Record<string, string | number>): Promise<T | undefined> {
  const res = await request.get(`/api/v3/${route}`, { params });
  return res.ok() ? ((await res.json()) as T) : undefined;
}

/**
 * Waits until the genesis scenario is indexed (jettons, NFTs, names) and its failed minter transaction
 * sits in a complete trace; returns alice's first received transaction and that trace.
 */
async function resolveIds(request: APIRequestContext): Promise<Ids> {
  let failed: Tx | undefined;
  await expect
    .poll(
      async () => {
        const txs = await get<{ transactions: Tx[] }>(request, 'transactions', { account: genesisAccount('jetton_minter').address, limit: 50, sort: 'asc' });
        failed = txs?.transactions.find((t) => t.description.compute_ph?.exit_code === 0xffff && t.trace_id);
        if (!failed) return false;
        const trace = await get<{ traces: { trace_info: { trace_state: string } }[] }>(request, 'traces', { trace_id: failed.trace_id! });
        const items = await get<{ nft_items: unknown[] }>(request, 'nft/items', { collection_address: genesisAccount('nft_collection').address });
        const names = await Promise.all(['alice.ton', 'atlas.ton'].map((domain) => get<{ records: unknown[] }>(request, 'dns/records', { domain })));
        const holders = await get<{ jetton_wallets: unknown[] }>(request, 'jetton/wallets', { jetton_address: genesisAccount('jetton_minter').address, exclude_zero_balance: 'true' });
        // The genesis multisig with both its orders (the account-multisig page lists them).
        const multisig = await get<{ multisigs: { orders: unknown[] | null }[] }>(request, 'multisig/wallets', { address: genesisAccount('multisig').address });
        return (
          trace?.traces[0]?.trace_info.trace_state === 'complete' &&
          (items?.nft_items.length ?? 0) >= 3 &&
          names.every((n) => (n?.records.length ?? 0) >= 1) &&
          (holders?.jetton_wallets.length ?? 0) >= 3 &&
          multisig?.multisigs[0]?.orders?.length === 2
        );
      },
      { timeout: 150_000, intervals: [1000] },
    )
    .toBe(true);
  const aliceTxs = (await get<{ transactions: Tx[] }>(request, 'transactions', { account: genesisAccount('alice').address, limit: 20, sort: 'asc' }))!.transactions;
  return { tx: aliceTxs.find((t) => t.in_msg?.source)!, trace: failed!.trace_id! };
}

// Resolved once per worker (a failed test restarts the worker, which resolves again).
let ids: Promise<Ids> | undefined;

/** Loaded and hydrated, with data: no skeleton or loading placeholder left, fonts in. */
async function waitForData(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('main .animate-pulse, main [role="status"][aria-label^="Loading"]')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Takes the elements of `selectors` out of the layout (`false` puts them back); set through the CSSOM as pinHeights does. */
async function hide(page: Page, selectors: string[], hidden: boolean) {
  await page.evaluate(
    ([sel, h]) => {
      for (const el of document.querySelectorAll<HTMLElement>(sel as string)) {
        if (h) el.style.setProperty('display', 'none', 'important');
        else el.style.removeProperty('display');
      }
    },
    [selectors.join(', '), hidden] as const,
  );
}

/**
 * For screenshots, live card bodies become one fixed-height empty box (`null` restores them): how many rows
 * the traffic has made by now must not move what follows them, and masks of rows hidden below a clipped
 * edge would still be painted. Set through the CSSOM: the pages' CSP refuses injected <style> elements
 * (Playwright's stylePath), and says so on the console.
 */
async function pinHeights(page: Page, selectors: string[], height: string | null) {
  if (!selectors.length) return;
  await page.evaluate(
    ([sel, h]) => {
      for (const el of document.querySelectorAll<HTMLElement>(sel!)) {
        if (h) el.style.setProperty('height', h, 'important');
        else el.style.removeProperty('height');
        for (const child of el.children) {
          if (h) (child as HTMLElement).style.setProperty('display', 'none', 'important');
          else (child as HTMLElement).style.removeProperty('display');
        }
      }
    },
    [selectors.join(', '), height] as const,
  );
}

async function expectClean(page: Page, where: string) {
  const overlaps = await textOverlaps(page);
  expect.soft(overlaps.map((o) => `"${o.a}" × "${o.b}" at ${o.x},${o.y} (${o.width}×${o.height} px)`), `overlapping text on ${where}`).toEqual([]);
  const overflow = await horizontalOverflow(page);
  expect.soft(overflow, `horizontal overflow on ${where}`).toBeNull();
}

// axe and the keyboard walk cost seconds per page on a 2-core machine: axe runs in full where the markup
// differs (desktop tables, phone stacked lists and menu; tablet shares the desktop variants) and only
// for contrast in the dark theme; the keyboard walk runs once per page kind.
const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900, axe: true, keyboard: true },
  { name: 'tablet', width: 768, height: 1024, axe: false, keyboard: false },
  { name: 'mobile', width: 390, height: 844, axe: true, keyboard: false },
] as const;

test.describe('the layout of every page kind', { tag: '@desktop-only' }, () => {
  test('the detectors catch overlapping table columns and sideways overflow, and pass clean markup', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // The bug issue 17 reported: fixed-layout table columns too narrow for addresses that may not shrink.
    const table = (cell: string) => `
      <table style="table-layout:fixed;width:180px;border-spacing:0;font:14px monospace">
        <tr><th style="width:60px">Account</th><th style="width:60px">From / value</th><th style="width:40px">Out</th></tr>
        <tr>
          <td><span style="display:inline-flex;${cell}"><a href="#" style="flex-shrink:0">EQAbcd…wxyz</a></span></td>
          <td><span style="display:inline-flex;${cell}"><a href="#" style="flex-shrink:0">UQ1234…7890</a></span></td>
          <td>3</td>
        </tr>
      </table>`;
    await page.setContent(`<body style="margin:0">${table('')}</body>`);
    const overlaps = await textOverlaps(page);
    expect(overlaps.map((o) => [o.a, o.b].sort().join(' × '))).toEqual(expect.arrayContaining(['EQAbcd…wxyz × UQ1234…7890', '3 × UQ1234…7890']));

    // The same table with cells that clip (min-width:0 + overflow hidden + ellipsis), plus what must not
    // count: a screen-reader-only label, an inline run of adjacent spans, a wide table in a scroll container.
    await page.setContent(`<body style="margin:0">
      ${table('max-width:100%;overflow:hidden;text-overflow:ellipsis;min-width:0')}
      <p>1.5<span> TON</span><span style="position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap">Comment: hidden label</span></p>
      <div style="overflow-x:auto;width:300px"><table style="width:2000px"><tr><td>wide</td><td>cells</td></tr></table></div>
    </body>`);
    expect(await textOverlaps(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBeNull();

    await page.setContent('<body style="margin:0"><div style="width:2000px">too wide</div></body>');
    const overflow = await horizontalOverflow(page);
    expect(overflow?.scrollWidth).toBe(2000);
    expect(overflow?.culprits[0]).toContain('too wide');

    // An element that looks clickable but is no keyboard stop, and a control without a focus ring.
    await page.setContent('<body><div style="cursor:pointer">open</div><a href="#x" style="outline:none">link</a><button>ok</button></body>');
    expect(await unreachableControls(page)).toEqual(['div "open"']);
    expect(await focusProblems(page)).toEqual(['a "link": no visible focus indicator']);
  });

  for (const vp of VIEWPORTS) {
    test.describe(`${vp.name} ${vp.width}×${vp.height}`, () => {
      // One browser page per viewport, reused by every page kind.
      let context: BrowserContext;
      let page: Page;
      let problems: PageProblems;

      test.beforeAll(async ({ browser }, info) => {
        context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, baseURL: info.project.use.baseURL, colorScheme: 'light', reducedMotion: 'reduce' });
        // Each load starts in the system theme (light); the dark pass uses the page's own toggle.
        await context.addInitScript(() => localStorage.removeItem('atlas-theme'));
        page = await context.newPage();
        problems = new PageProblems(page);
      });
      test.afterAll(async () => {
        await context?.close();
      });

      for (const kind of KINDS) {
        test(kind.name, async ({ request }) => {
          ids ??= resolveIds(request);
          const url = kind.url(await ids);
          const where = (theme: string) => `${kind.name} (${url}) at ${vp.width}×${vp.height}, ${theme}`;
          // A blank page first, so requests the previous page had in flight end before collecting starts.
          await page.goto('about:blank');
          problems.start();
          const res = await page.goto(url);
          expect(res!.status(), url).toBe(kind.status ?? 200);
          await waitForData(page);
          const live = (kind.live ?? []).map((id) => `section#${id} > div:last-child`);
          const mask = [page.locator([...MASK_ALWAYS, ...(kind.mask ?? []), ...live].join(', '))];

          for (const theme of ['light', 'dark'] as const) {
            if (theme === 'dark') {
              // The page's own switch (components/layout/ThemeToggle); then no hover or focus left on it.
              await page.getByRole('button', { name: 'Switch to dark theme' }).click();
              await expect(page.locator('html')).toHaveClass(/\bdark\b/);
              await page.mouse.move(0, 0);
              await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
            }
            await expectClean(page, where(theme));
            await pinHeights(page, live, '240px');
            await hide(page, [...HIDE_ALWAYS, ...(kind.hide ?? [])], true);
            await expect.soft(page).toHaveScreenshot(`${kind.name}-${vp.name}-${theme}.png`, { mask, maxDiffPixelRatio: 0.02 });
            await hide(page, [...HIDE_ALWAYS, ...(kind.hide ?? [])], false);
            // The dark pass re-checks contrast only: the markup does not change with the theme.
            await pinHeights(page, live, null);
            if (vp.axe) expect.soft(await axeFindings(page, theme === 'dark' ? ['color-contrast'] : undefined), `axe on ${where(theme)}`).toEqual([]);
          }

          if (vp.keyboard) {
            expect.soft(await unreachableControls(page), `controls the keyboard cannot reach on ${where('dark')}`).toEqual([]);
            expect.soft(await focusProblems(page), `focus on ${where('dark')}`).toEqual([]);
          }

          // The not-found page answers its own document with 404 (and Chromium logs that load as an error).
          const expected = (s: string) => kind.status !== undefined && s.includes(new URL(url, 'http://x').pathname) && (s.startsWith(`HTTP ${kind.status}`) || s.includes(`status of ${kind.status}`));
          expect(problems.stop(expected), `console errors and failed requests on ${where('both themes')}`).toEqual([]);
        });
      }
    });
  }
});
