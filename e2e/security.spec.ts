// Hostile chain text against the explorer, in Chromium: real transfers on the e2e devnet carry comments
// that are markup, script, `javascript:` URLs and bidi/zero-width tricks. Nothing of it may run, it must
// read literally with its hidden characters marked, and addresses on the page must be the parsed ones.
// Also: the security headers on page and API answers (lib/http/security-headers.ts).
import { Address, internal, toNano } from '@ton/core';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2eWallet, sendBoc, walletSeqno } from './wallet';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

// A fresh receiver per run (an address nobody holds): its account page lists only these transfers.
const receiver = new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))));
const receiverFriendly = receiver.toString({ bounceable: false });
// Links to the receiver's account, in whichever form the address book gives it.
const receiverLink = [receiver.toString({ bounceable: false }), receiver.toString()].map((a) => `a[href="/account/${encodeURIComponent(a)}"]`).join(', ');
const addressWithZwsp = `${receiverFriendly.slice(0, 24)}\u200B${receiverFriendly.slice(24)}`;
// An address that is not the receiver's, written as a comment: it must never pass for the sender or receiver.
const decoy = new Address(0, Buffer.alloc(32, 0xaa)).toString({ bounceable: false });

const COMMENTS = {
  img: '<img src=x onerror="window.__pwned=1;alert(1)">',
  script: '<script>window.__pwned=2;alert(2)</script>',
  js: 'javascript:window.__pwned=3;alert(3)',
  rlo: 'invoice\u202Egnp.exe',
  zwsp: addressWithZwsp,
  decoy,
} as const;

// The sender is a wallet of this run (e2e/wallet.ts), funded by a genesis wallet.
const sender = new E2eWallet();
let senderSeqno = 0;

/** Sends `comments` to the receiver in one signed external (v4 carries up to 4 messages) via /api/v2/sendBoc. */
async function send(request: APIRequestContext, comments: string[]) {
  const boc = sender.external(
    senderSeqno,
    comments.map((c) => internal({ to: receiver, value: toNano('0.01'), bounce: false, body: c })),
  );
  const sent = await sendBoc(request, boc);
  expect(sent.status, sent.text).toBe(200);
  senderSeqno += 1;
  // The next external needs the next seqno: wait until this one is in a block.
  await expect.poll(() => walletSeqno(request, sender.address), { timeout: 60_000 }).toBe(senderSeqno);
}

interface Tx {
  hash: string;
  in_msg: { message_content: { decoded: { comment?: string } | null } | null } | null;
}

/** The receiver's indexed transactions, by the comment of their inbound message. */
async function indexedByComment(request: APIRequestContext): Promise<Map<string, string>> {
  const res = await request.get('/api/v3/transactions', { params: { account: receiver.toRawString(), limit: 50 } });
  if (!res.ok()) return new Map();
  const { transactions } = (await res.json()) as { transactions: Tx[] };
  return new Map(transactions.flatMap((t) => (t.in_msg?.message_content?.decoded?.comment !== undefined ? [[t.in_msg.message_content.decoded.comment, t.hash]] : [])));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/** Fails the test on any dialog; records CSP violations and anything that sets window.__pwned. */
async function guard(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  return {
    dialogs,
    pwned: () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null),
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  };
}

let txByComment: Map<string, string>;

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  await expect.poll(async () => (await request.get('/api/health')).ok(), { timeout: 120_000 }).toBe(true);
  await sender.fund(request);
  await send(request, [COMMENTS.img, COMMENTS.script, COMMENTS.js]);
  await send(request, [COMMENTS.rlo, COMMENTS.zwsp, COMMENTS.decoy]);
  await expect
    .poll(async () => (txByComment = await indexedByComment(request)).size, { timeout: 90_000, intervals: [1000] })
    .toBe(Object.keys(COMMENTS).length);
});

test('page answers carry a fresh nonce policy that forbids inline script, and the security headers', async ({ page, request }) => {
  const g = await guard(page);
  const first = await page.goto('/');
  const second = await request.get('/blocks');
  for (const res of [first!, second]) {
    const h = res.headers();
    const csp = h['content-security-policy'];
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['permissions-policy']).toContain('camera=()');
  }
  const nonce = (r: { headers(): Record<string, string> }) => /'nonce-([^']+)'/.exec(r.headers()['content-security-policy'])![1];
  expect(nonce(first!)).not.toBe(nonce(second));
  // Next's own scripts carry the nonce, so the page still runs them (the app router's bootstrap sets window.next).
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { next?: unknown }).next)).toBe('object');
  const html = await second.text();
  expect(html).toContain(`nonce="${nonce(second)}"`);
  expect(html).not.toMatch(/<script(?![^>]*nonce=)[^>]*>[^<]/);
  expect(await g.violations()).toEqual([]);
});

test('each answer of a kept page has a nonce of its own, everywhere in it, and the page still hydrates @desktop-only', async ({ page, request }) => {
  // A transaction page is kept ten minutes (lib/http/page-cache.ts), whatever query string it is asked with.
  const url = `/tx/${urlSafe(txByComment.get(COMMENTS.rlo)!)}`;
  const answers = [await request.get(url), await request.get(`${url}?cb=1`), await request.get(`${url}?cb=2`)];
  expect(answers.map((r) => r.headers()['x-atlas-cache'])).toEqual([expect.stringMatching(/^(miss|hit)$/), 'hit', 'hit']);
  const nonces = answers.map((r) => /'nonce-([^']+)'/.exec(r.headers()['content-security-policy'])![1]!);
  expect(new Set(nonces).size).toBe(3);
  for (const [i, r] of answers.entries()) {
    const html = await r.text();
    // Every nonce attribute is this answer's, and no other answer's nonce is anywhere in it (Next's inline
    // payload repeats the layout script's nonce).
    const attributes = [...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(attributes.length).toBeGreaterThan(1);
    expect(new Set(attributes)).toEqual(new Set([nonces[i]]));
    for (const other of nonces.filter((_, j) => j !== i)) expect(html).not.toContain(other);
  }

  // In the browser: a kept answer runs, hydrates (a link then navigates in place, without a new document)
  // and keeps the URL it was asked for.
  const g = await guard(page);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const res = await page.goto(`${url}?cb=3`);
  expect(res!.headers()['x-atlas-cache']).toBe('hit');
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { next?: unknown }).next)).toBe('object');
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blocks' }).click();
  await expect(page).toHaveURL(/\/blocks$/);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${escape(url)}\\?cb=3$`));
  expect(await g.violations()).toEqual([]);
  expect(errors).toEqual([]);
});

test('API answers keep CORS and JSON, with nosniff and a policy that allows nothing @desktop-only', async ({ request }) => {
  const res = await request.get('/api/v2/getMasterchainInfo', { headers: { Origin: 'https://dapp.example' } });
  expect(res.status()).toBe(200);
  const h = res.headers();
  expect(h['content-type']).toMatch(/^application\/json/);
  expect(h['access-control-allow-origin']).toBe('*');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  const preflight = await request.fetch('/api/v3/transactions', { method: 'OPTIONS', headers: { Origin: 'https://dapp.example', 'Access-Control-Request-Method': 'GET' } });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()['access-control-allow-origin']).toBe('*');
});

test('markup and script in comments read literally on the transaction page and nothing runs', async ({ page }) => {
  const g = await guard(page);
  for (const key of ['img', 'script', 'js'] as const) {
    const res = await page.goto(`/tx/${urlSafe(txByComment.get(COMMENTS[key])!)}`);
    expect(res!.status()).toBe(200);
    const comment = page.getByTestId('comment');
    await expect(comment).toContainText(COMMENTS[key]);
    await expect(comment.locator('img, script, a')).toHaveCount(0);
    await expect(page.locator('a[href^="javascript:" i], [href*="pwned"], [src*="pwned"]')).toHaveCount(0);
  }
  // Markup slipped into the page (as escaping gone wrong would): its handler and its javascript: link are
  // refused by the policy. (A script element made by running script is trusted by 'strict-dynamic', but
  // making one needs script to run in the first place.)
  await page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<img src="data:," onerror="window.__pwned=4"><a id="pwn" href="javascript:window.__pwned=5">x</a>');
  });
  await page.locator('#pwn').click();
  await expect.poll(async () => (await g.violations()).length).toBeGreaterThanOrEqual(2);
  for (const v of await g.violations()) expect(v).toMatch(/^script-src(-attr|-elem)? inline/);
  expect(await g.pwned()).toBeNull();
  expect(g.dialogs).toEqual([]);
});

test('bidi overrides and zero-width characters show as markers; a comment never passes for an address', async ({ page }) => {
  const g = await guard(page);
  await page.goto(`/tx/${urlSafe(txByComment.get(COMMENTS.rlo)!)}`);
  const rlo = page.getByTestId('comment');
  await expect(rlo.locator('[data-hidden-char="U+202E"]')).toHaveText('RLO');
  expect(await rlo.innerText()).not.toContain('\u202E');
  await expect(rlo).toContainText('invoiceRLOgnp.exe');
  await expect(rlo.getByRole('note')).toContainText('invisible or direction-changing characters');

  await page.goto(`/tx/${urlSafe(txByComment.get(COMMENTS.zwsp)!)}`);
  const zwsp = page.getByTestId('comment');
  await expect(zwsp.locator('[data-hidden-char="U+200B"]')).toHaveText('ZWSP');
  await expect(zwsp).toContainText(`${receiverFriendly.slice(0, 24)}ZWSP${receiverFriendly.slice(24)}`);
  await expect(zwsp.getByRole('note')).toContainText('looks like an address');
  await expect(zwsp.locator('a')).toHaveCount(0);
  // The account the transaction belongs to is the parsed one, linked; the comment is not a link.
  await expect(page.locator(receiverLink).first()).toBeVisible();

  await page.goto(`/tx/${urlSafe(txByComment.get(COMMENTS.decoy)!)}`);
  const decoyComment = page.getByTestId('comment');
  await expect(decoyComment).toContainText(decoy);
  await expect(decoyComment.getByRole('note')).toContainText('looks like an address');
  // No link on the page leads to the decoy: it stays text.
  await expect(page.locator(`a[href*="${encodeURIComponent(decoy)}"], a[href*="${decoy}"]`)).toHaveCount(0);
  // The comment is framed apart from the address fields: it is not inside the From/To rows.
  const toRow = page.locator('dd', { has: page.locator(receiverLink) }).first();
  await expect(toRow).not.toContainText(decoy);

  expect(await g.violations()).toEqual([]);
  expect(await g.pwned()).toBeNull();
  expect(g.dialogs).toEqual([]);
});

test('the account page lists the comments inert, with markers, and its address is the parsed one', async ({ page }) => {
  const g = await guard(page);
  const res = await page.goto(`/account/${encodeURIComponent(receiverFriendly)}`);
  expect(res!.status()).toBe(200);
  expect(res!.headers()['content-security-policy']).toContain("'strict-dynamic'");
  const previews = page.getByTestId('comment-preview').filter({ visible: true });
  await expect(previews).toHaveCount(Object.keys(COMMENTS).length);
  await expect(previews.filter({ hasText: COMMENTS.script })).toHaveCount(1);
  await expect(previews.filter({ hasText: COMMENTS.img })).toHaveCount(1);
  await expect(previews.locator('[data-hidden-char="U+202E"]')).toHaveCount(1);
  await expect(previews.locator('[data-hidden-char="U+200B"]')).toHaveCount(1);
  await expect(page.locator('main img, a[href^="javascript:" i]')).toHaveCount(0);
  // The page's own address is the receiver's, character for character (no hidden characters in it).
  await expect(page.locator('main')).toContainText(new RegExp(`${escape(receiver.toString({ bounceable: false }))}|${escape(receiver.toString())}`));

  // A link whose address hides a zero-width space never shows that text as an account's address.
  await page.goto(`/account/${encodeURIComponent(addressWithZwsp)}`);
  expect(await page.locator('body').innerText()).not.toContain('\u200B');
  expect(await page.title()).not.toContain('\u200B');
  expect(await g.violations()).toEqual([]);
  expect(await g.pwned()).toBeNull();
  expect(g.dialogs).toEqual([]);
});
