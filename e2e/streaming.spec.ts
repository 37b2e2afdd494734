// The Streaming API with the browser's own clients, against `npm start`: an EventSource (the GET form of
// the SSE endpoint) and a WebSocket opened in a page, following this run's wallet while it sends a
// transfer through /api/v2/sendBoc — the transfer arrives pending, confirmed, then finalized. A bad
// subscription is refused in words the page can read.
import { Address, Cell, internal, toNano } from '@ton/core';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';
import { E2eWallet, sendBoc } from './wallet';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const wallet = new E2eWallet();
let funded: Promise<void> | undefined;
test.beforeEach(async ({ request }) => {
  funded ??= wallet.fund(request);
  await funded;
});

type Seen = { type: string; finality?: string; norm?: string; error?: string }[];

/** A transfer from the wallet with `comment`; resolves once sent (status 200). */
async function sendTransfer(page: Page, comment: string) {
  const seqno = await wallet.seqno(page.request);
  const boc = wallet.external(seqno, [internal({ to: Address.parse(genesisAccount('bob').address), value: toNano('0.01'), bounce: false, body: comment })]);
  const sent = await sendBoc(page.request, boc);
  expect(sent.status, sent.text).toBe(200);
  return Cell.fromBase64(boc).hash().toString('base64');
}

/**
 * Once the page has seen the transfer it sent finalized: every finality its client was sent for that trace,
 * in order. The transfer's trace is the one seen pending (only a message sent through Atlas after the
 * stream opened can be): the wallet's funding, sent before, may still be finalized while the test runs.
 */
async function finalitiesSeen(page: Page): Promise<(string | undefined)[]> {
  const seen = await page.waitForFunction(() => {
    const s = (window as unknown as { seen: Seen }).seen;
    const sent = s.find((n) => n.finality === 'pending')?.norm;
    return sent !== undefined && s.some((n) => n.norm === sent && n.finality === 'finalized') && s;
  });
  const list = (await seen.jsonValue()) as Seen;
  const norm = list.find((n) => n.finality === 'pending')!.norm;
  return list.filter((n) => n.norm === norm).map((n) => n.finality);
}

test('EventSource: a transfer streams pending, confirmed and finalized @desktop-only', async ({ page }) => {
  await page.goto('/api-docs');
  const address = wallet.address.toString();
  await page.evaluate((a) => {
    const w = window as unknown as { seen: Seen; connected: boolean };
    w.seen = [];
    const es = new EventSource(`/api/streaming/v2/sse?types=transactions&addresses=${encodeURIComponent(a)}&min_finality=pending`);
    es.addEventListener('connected', () => (w.connected = true));
    es.onmessage = (e) => {
      const n = JSON.parse(e.data) as { type: string; finality: string; trace_external_hash_norm: string };
      w.seen.push({ type: n.type, finality: n.finality, norm: n.trace_external_hash_norm });
    };
  }, address);
  await page.waitForFunction(() => (window as unknown as { connected?: boolean }).connected === true);
  await sendTransfer(page, 'streamed to an EventSource');
  expect(await finalitiesSeen(page)).toEqual(['pending', 'confirmed', 'finalized']);
});

test('WebSocket: subscribe, a transfer pending to finalized, and a bad subscription answered in words @desktop-only', async ({ page }) => {
  await page.goto('/api-docs');
  await page.evaluate(() => {
    const w = window as unknown as { seen: Seen; ws: WebSocket };
    w.seen = [];
    w.ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/api/streaming/v2/ws`);
    w.ws.onmessage = (e) => {
      const n = JSON.parse(e.data as string) as { type?: string; status?: string; finality?: string; error?: string; trace_external_hash_norm?: string };
      w.seen.push({ type: n.type ?? n.status ?? 'error', finality: n.finality, norm: n.trace_external_hash_norm, error: n.error });
    };
  });
  await page.waitForFunction(() => (window as unknown as { ws: WebSocket }).ws.readyState === WebSocket.OPEN);
  await page.evaluate(() => (window as unknown as { ws: WebSocket }).ws.send(JSON.stringify({ id: 'bad', operation: 'subscribe', types: ['transactions'], addresses: ['not an address'] })));
  await page.waitForFunction(() => (window as unknown as { seen: Seen }).seen.some((n) => n.error));
  expect((await page.evaluate(() => (window as unknown as { seen: Seen }).seen))[0]).toMatchObject({ error: 'invalid address: "not an address"' });
  await page.evaluate((a) => (window as unknown as { ws: WebSocket }).ws.send(JSON.stringify({ operation: 'subscribe', types: ['transactions'], addresses: [a], min_finality: 'pending' })), wallet.address.toRawString());
  await page.waitForFunction(() => (window as unknown as { seen: Seen }).seen.some((n) => n.type === 'subscribed'));
  await sendTransfer(page, 'streamed to a WebSocket');
  expect(await finalitiesSeen(page)).toEqual(['pending', 'confirmed', 'finalized']);
});

test('the reference: linked from the API page, every notification described, and its console streams blocks @desktop-only', async ({ page, request }) => {
  const doc = (await (await request.get('/api/streaming/v2/openapi.json')).json()) as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths)).toEqual(['/api/streaming/v2/sse', '/api/streaming/v2/ws']);
  await page.goto('/api-docs');
  await page.locator('#streaming').getByRole('link', { name: 'Reference and console' }).click();
  await expect(page).toHaveURL(/\/api-docs\/streaming$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Streaming API v2');
  await expect(page.getByRole('table', { name: 'Subscription fields' })).toContainText('trace_external_hash_norms');
  for (const type of ['transactions', 'actions', 'trace', 'trace_invalidated', 'account_state_change', 'jettons_change', 'blocks']) {
    await expect(page.getByRole('heading', { name: `"${type}"`, exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('notification-TransactionsNotification')).toContainText('list of Transaction');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const received = page.getByTestId('stream-console-received');
  await expect(received).toContainText('{"id":"console","status":"subscribed"}');
  await expect(received).toContainText('"type":"blocks"');
  await noHorizontalScroll(page);
});
