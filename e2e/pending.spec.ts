// Pending traces, the emulate page and the vesting section, in Chromium on the e2e devnet. A wallet of this
// run (e2e/wallet.ts) sends signed transfers through /api/v2/sendBoc while its account page is open: the
// page's stream shows each one as pending, with its predicted action, until the real trace is indexed and
// takes its place, without a reload; a pending trace's page moves pending → confirmed → finalized in place.
// The devnet seals a block a second and indexes it at once, so a message is pending for under a second: a
// send whose prediction a page could not catch before it landed is sent again (a new transfer), a bounded
// number of times.
import { Address, beginCell, Cell, internal, toNano } from '@ton/core';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatUnits } from '../lib/format/amount';
import { lockedAmount } from '../lib/ton/vesting-schedule';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';
import { E2eWallet, sendBoc } from './wallet';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 240_000 });

const ATTEMPTS = 8;
const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');
// An active wallet receives (a transfer to an address with no account would abort on arrival: a failure).
const receiver = () => Address.parse(genesisAccount('bob').address);
const wallet = new E2eWallet();
let funded: Promise<void> | undefined;

/** A signed transfer of `value` to the receiver with `comment`, at the wallet's current seqno: its BoC and hash. */
async function transfer(request: APIRequestContext, comment: string, value = toNano('0.02')) {
  const boc = wallet.external(await wallet.seqno(request), [internal({ to: receiver(), value, bounce: false, body: comment })]);
  return { boc, hash: Cell.fromBase64(boc).hash().toString('base64') };
}

test.beforeEach(async ({ request }) => {
  funded ??= wallet.fund(request);
  await funded;
});

/** Marks the page: a reload or navigation would lose the mark (the check that updates came in place). */
const markPage = (page: Page) => page.evaluate(() => ((window as unknown as { atlasMark: number }).atlasMark = 1));
const stillMarked = (page: Page) => page.evaluate(() => (window as unknown as { atlasMark?: number }).atlasMark === 1);

test('a transfer sent while the account page is open shows as pending, then as the real action, without a reload', async ({ page, request }) => {
  // The page follows the account's stream once its WebSocket has subscribed.
  const subscribed = page.waitForEvent('websocket').then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).includes('"subscribed"') }));
  await page.goto(`/account/${encodeURIComponent(wallet.address.toString())}`);
  await expect(page.locator('#activity')).toBeVisible();
  await subscribed;
  await markPage(page);
  let comment = '';
  for (let attempt = 1; ; attempt++) {
    comment = `pending e2e ${attempt}`;
    const t = await transfer(request, comment);
    // The entry as it showed while pending (it lasts about a block), read the moment it appeared.
    const shown = page
      .waitForFunction(
        (c) => {
          const entry = [...document.querySelectorAll('[data-testid="pending-activity"] > li')].find((li) => li.textContent?.includes(c));
          return entry ? { text: entry.textContent ?? '', href: entry.querySelector('a[href^="/trace/"]')?.getAttribute('href') ?? null } : false;
        },
        comment,
        { timeout: 5_000 },
      )
      .then(
        (h) => h.jsonValue(),
        () => null,
      );
    const before = await wallet.seqno(request);
    const sent = await sendBoc(request, t.boc);
    expect(sent.status, sent.text).toBe(200);
    const entry = await shown;
    await expect.poll(() => wallet.seqno(request), { timeout: 30_000 }).toBeGreaterThan(before);
    if (entry) {
      // The predicted action in words, its finality badge, and a link to the pending trace's page.
      expect(entry.text).toContain('TON transfer');
      expect(entry.text).toContain('0.02');
      expect(entry.text).toMatch(/Pending|Confirmed/);
      expect(entry.href).toBe(`/trace/${urlSafe(t.hash)}`);
      break;
    }
    expect(attempt, 'the page never caught a pending trace before it landed').toBeLessThan(ATTEMPTS);
  }
  // Once indexed, the real action takes its place in the activity, pushed by the stream: no reload.
  const real = page.getByTestId('activity').locator('li').filter({ hasText: comment });
  await expect(real).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('pending-activity').filter({ hasText: comment })).toHaveCount(0);
  await expect(real).toContainText('TON transfer');
  await expect(real).toContainText('0.02');
  await expect(real.getByRole('link', { name: 'trace' })).toBeVisible();
  expect(await stillMarked(page)).toBe(true);
  await noHorizontalScroll(page);
});

test("a pending trace's page: its finality badge rises pending → confirmed → finalized in place", async ({ page, request }) => {
  // Every text the badge shows, in order, recorded as the page changes it.
  await page.addInitScript(() => {
    const w = window as unknown as { badges: string[] };
    w.badges = [];
    const record = () => {
      const text = document.querySelector('[data-testid="finality"]')?.textContent;
      if (text && w.badges.at(-1) !== text) w.badges.push(text);
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
  for (let attempt = 1; ; attempt++) {
    const comment = `pending trace page ${attempt}`;
    const { boc, hash } = await transfer(request, comment);
    const before = await wallet.seqno(request);
    const sent = await sendBoc(request, boc);
    expect(sent.status, sent.text).toBe(200);
    const res = await page.goto(`/trace/${urlSafe(hash)}`);
    const html = await res!.text();
    // The server rendered the prediction (not a redirect to a trace that had already landed).
    if (new URL(res!.url()).pathname === `/trace/${urlSafe(hash)}` && html.includes('data-testid="pending-note"')) {
      await markPage(page);
      await expect(page.getByTestId('finality')).toHaveText('Finalized', { timeout: 30_000 });
      const badges = await page.evaluate(() => (window as unknown as { badges: string[] }).badges);
      // Never lower than before; the page stayed where it was.
      const ranks = badges.map((b) => ['Pending', 'Confirmed', 'Finalized'].indexOf(b));
      expect(ranks).toEqual([...ranks].sort());
      expect(new URL(page.url()).pathname).toBe(`/trace/${urlSafe(hash)}`);
      expect(await stillMarked(page)).toBe(true);
      await expect(page.getByTestId('action').first()).toContainText('TON transfer');
      await expect(page.getByTestId('action').first()).toContainText(comment);
      await expect(page.getByRole('link', { name: "Open the trace's own page" })).toBeVisible();
      if (badges.join() === 'Pending,Confirmed,Finalized') break;
    }
    // A page that opened after the trace landed, or that saw no step of it, tries again with a new transfer.
    expect(attempt, 'the trace page never showed every step of a trace').toBeLessThan(ATTEMPTS);
    await expect.poll(() => wallet.seqno(request), { timeout: 30_000 }).toBeGreaterThan(before);
  }
  await noHorizontalScroll(page);
});

test('the emulate page: a good message is predicted without being sent, a refused and a malformed one are explained', async ({ page, request }) => {
  await page.goto('/emulate');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Emulate a message');
  const box = page.getByLabel('Signed external message (BoC in base64 or hex)');
  const seqno = await wallet.seqno(request);
  const { boc } = await transfer(request, 'emulated in the browser', toNano('0.05'));

  // A good message, pasted as hex: its trace, action in words and fees; nothing is sent.
  await box.fill(Buffer.from(boc, 'base64').toString('hex'));
  await page.getByRole('button', { name: 'Emulate' }).click();
  await expect(page.getByTestId('emulate-result')).toContainText('Every transaction would succeed');
  await expect(page.getByTestId('emulate-result')).toContainText('Fees in all');
  await expect(page.getByTestId('action').first()).toContainText('TON transfer');
  await expect(page.getByTestId('action').first()).toContainText('0.05');
  await expect(page.getByTestId('action').first()).toContainText('emulated in the browser');
  await expect(page.locator('[data-testid="trace-node"]')).toHaveCount(2);
  expect(await wallet.seqno(request)).toBe(seqno);

  // The same wallet message with a seqno already used: the chain would refuse it, in words.
  if (seqno > 0) {
    const replay = wallet.external(seqno - 1, [internal({ to: receiver(), value: 1n, bounce: false })]);
    await box.fill(replay);
    await page.getByRole('button', { name: 'Emulate' }).click();
    await expect(page.getByTestId('refusal')).toContainText('exit code 33: Wallet: the message seqno does not match');
  }

  // Not a BoC, and a BoC that is no external message: a clear error, no crash.
  await box.fill('definitely not a boc');
  await page.getByRole('button', { name: 'Emulate' }).click();
  await expect(page.getByTestId('emulate-error')).toContainText('invalid boc: boc is not base64');
  await box.fill(beginCell().storeUint(7, 8).endCell().toBoc().toString('base64'));
  await page.getByRole('button', { name: 'Emulate' }).click();
  await expect(page.getByTestId('emulate-error')).toContainText('not an external inbound message');
  await noHorizontalScroll(page);
});

interface VestingJson {
  start_time: number;
  total_duration: number;
  unlock_period: number;
  cliff_duration: number;
  total_amount: string;
  whitelist: string[];
}

test("a vesting wallet's page shows its schedule, total, locked and unlocked amounts now, owner, sender and whitelist", async ({ page, request }) => {
  const vesting = genesisAccount('vesting');
  let v: VestingJson | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/v3/vesting', { params: { contract_address: vesting.address } });
        v = res.ok() ? ((await res.json()) as { vesting_contracts: VestingJson[] }).vesting_contracts[0] : undefined;
        // The genesis whitelists carol: wait until the index has read it.
        return v?.whitelist.length ?? 0;
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBeGreaterThan(0);
  await page.goto(`/account/${encodeURIComponent(vesting.friendly.bounceable)}`);
  const section = page.locator('section#vesting');
  await expect(section).toBeVisible();
  const schedule = { startTime: v!.start_time, totalDuration: v!.total_duration, unlockPeriod: v!.unlock_period, cliffDuration: v!.cliff_duration, totalAmount: BigInt(v!.total_amount) };
  const locked = lockedAmount(schedule, Date.now() / 1000)!;
  const ton = (n: bigint) => formatUnits(n, 9);
  await expect(section).toContainText(`Total vested${ton(schedule.totalAmount)} TON`);
  await expect(section).toContainText(`Locked now${ton(locked)} TON`);
  await expect(section).toContainText(`Unlocked now${ton(schedule.totalAmount - locked)} TON`);
  await expect(section).toContainText('every 30 days (48 steps)');
  await expect(section).toContainText('90 days, until');
  await expect(section).toContainText('1,440 days, fully unlocked');
  // Owner alice (her .ton name shows), sender the admin, and carol on the whitelist: links to their pages.
  const owner = genesisAccount('alice');
  await expect(section.locator(`a[href*="${encodeURIComponent(owner.friendly.nonBounceable)}"], a[href*="${encodeURIComponent(owner.friendly.bounceable)}"]`).first()).toBeVisible();
  await expect(section.getByRole('list', { name: 'Whitelisted addresses' }).getByRole('listitem')).toHaveCount(v!.whitelist.length);
  await expect(section.getByRole('meter', { name: 'Share of the vested total unlocked now' })).toBeVisible();
  await noHorizontalScroll(page);
});
