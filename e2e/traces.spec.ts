// Traces for support staff, on the seeded devnet: from a failed jetton transfer's transaction to its trace
// with the failing node highlighted and explained, and an account's activity as actions. At genesis carol
// asks her jetton wallet to send more ATLAS than she holds (it throws 706, the message bounces back to
// her), and ATLAS moves between alice, bob and carol.
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { PAGE_SIZE, pageRows } from '../lib/client/cursor';
import { activityParams } from '../lib/client/filters';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

interface Tx {
  hash: string;
  trace_id?: string;
  description: { compute_ph?: { skipped?: boolean; exit_code?: number } };
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/** The failed transfer's transaction on carol's jetton wallet, once the index has it inside a complete trace. */
async function failedJettonTx(request: APIRequestContext): Promise<Tx> {
  let found: Tx | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/v3/transactions', { params: { account: genesisAccount('carol_jetton').address, limit: 50, sort: 'asc' } });
        if (!res.ok()) return false;
        found = ((await res.json()) as { transactions: Tx[] }).transactions.find((t) => t.description.compute_ph?.exit_code === 706 && t.trace_id);
        if (!found) return false;
        const trace = await request.get('/api/v3/traces', { params: { trace_id: found.trace_id! } });
        return ((await trace.json()) as { traces: { trace_info: { trace_state: string } }[] }).traces[0]?.trace_info.trace_state === 'complete';
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(true);
  return found!;
}

test("from a failed jetton transfer's page to its trace: the failing node is highlighted and its exit code explained", async ({ page, request }) => {
  const tx = await failedJettonTx(request);
  await page.goto(`/tx/${urlSafe(tx.hash)}`);
  // The page opens with what happened, in words.
  await expect(page.getByTestId('tx-headline')).toContainText('exit code 706: Jetton: not enough jetton balance');
  await page.locator('#overview').getByRole('link', { name: /…$/ }).click();
  await page.waitForURL(/\/trace\//);
  expect(new URL(page.url()).pathname).toBe(`/trace/${urlSafe(tx.trace_id!)}`);
  expect(new URL(page.url()).hash).toBe(`#tx-${urlSafe(tx.hash)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('1 failed');

  const failing = page.locator('[data-testid="trace-node"][data-failed="true"]');
  await expect(failing).toHaveCount(1);
  await expect(failing).toContainText('exit code 706: Jetton: not enough jetton balance');
  // The action on top says what carol meant to do, marked failed.
  await expect(page.getByTestId('action').filter({ hasText: 'Failed' }).first()).toContainText('Jetton transfer');
  // The node the link named is the one in view, and the bounce back to the sender follows it.
  await expect(page.locator(`[id="tx-${urlSafe(tx.hash)}"]`)).toBeInViewport();
  await expect(page.getByRole('list', { name: 'Trace tree' })).toContainText('bounce');
  await expect(page.locator('#raw details')).toBeVisible();
  await noHorizontalScroll(page);
});

test("an account's activity lists its actions in plain words, filters them by kind and leads to their traces", async ({ page }) => {
  await page.goto(`/account/${genesisAccount('carol').friendly.nonBounceable}`);
  const activity = page.getByTestId('activity');
  await expect(activity).toBeVisible();
  await page.getByRole('navigation', { name: 'Activity kinds' }).getByRole('link', { name: 'Jettons' }).click();
  await expect(page).toHaveURL(/activity=jettons/);
  // Jetton actions only, counted in the jetton's units (ATLAS, not TON).
  const actions = activity.getByTestId('action');
  await expect(actions.first()).toContainText('ATLAS');
  const kinds = await actions.evaluateAll((els) => els.map((e) => e.querySelector('span')?.textContent ?? ''));
  expect(kinds.length).toBeGreaterThan(0);
  for (const kind of kinds) expect(kind).toMatch(/^Jetton /);
  await activity.getByRole('link', { name: 'trace' }).first().click();
  await expect(page).toHaveURL(/\/trace\//);
  await expect(page.locator('#actions')).toContainText('Jetton');
  await noHorizontalScroll(page);
});

test("an account's activity pages back: Older shows the next actions as /actions answers them, and Newest returns", async ({ page, request }) => {
  const alice = genesisAccount('alice');
  // The activity of every kind: the page's own query, as query parameters.
  const params = (cursor?: string) => new URLSearchParams(Object.entries(activityParams(alice.address, undefined, cursor)).map(([k, v]) => [k, String(v)]));
  const page1 = params();
  const count = async () => ((await (await request.get('/api/v3/actions', { params: page1 })).json()) as { actions: unknown[] }).actions.length;
  // The traffic's transfers give alice more than a page of actions within minutes.
  await expect.poll(count, { timeout: 300_000, intervals: [2000] }).toBe(PAGE_SIZE + 1);
  await page.goto(`/account/${alice.friendly.nonBounceable}#activity`);
  const card = page.locator('#activity');
  await expect(page.getByTestId('activity').getByTestId('action')).toHaveCount(PAGE_SIZE);
  await card.getByRole('link', { name: 'Older →' }).click();
  await expect(page).toHaveURL(/activity_cursor=/);
  await expect(card.getByRole('link', { name: '← Newest' })).toBeVisible();
  // The older page lists, in order, the traces /actions answers at that cursor.
  const cursor = new URL(page.url()).searchParams.get('activity_cursor')!;
  const res = await request.get('/api/v3/actions', { params: params(cursor) });
  const older = pageRows(((await res.json()) as { actions: { trace_id: string }[] }).actions);
  const traceIds = () => page.getByTestId('activity').getByRole('link', { name: 'trace' }).evaluateAll((as) => as.map((a) => decodeURIComponent(new URL((a as HTMLAnchorElement).href).pathname.split('/')[2]!)));
  await expect.poll(traceIds).toEqual(older.map((a) => urlSafe(a.trace_id)));
  await card.getByRole('link', { name: '← Newest' }).click();
  await expect(page).not.toHaveURL(/activity_cursor=/);
  await expect(card.getByRole('link', { name: 'Older →' })).toBeVisible();
});
