import { expect, test, type Locator } from '@playwright/test';
import { noHorizontalScroll } from './layout-checks';

/** Every navigation item is visible and leads to a page that exists. */
async function expectNavPages(nav: Locator): Promise<void> {
  for (const label of ['Blocks', 'Transactions', 'Accounts', 'Jettons', 'NFTs', 'API']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  for (const href of await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!))) {
    expect((await nav.page().request.get(href)).status(), href).toBe(200);
  }
}

test('home page shows the product, navigation and search', async ({ page }, info) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Atlas' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: /search by address/i }).first()).toBeVisible();
  if (info.project.name === 'mobile') {
    await page.getByLabel('Menu').click();
    const nav = page.getByRole('navigation', { name: 'Mobile' });
    // The open menu lies fully inside the viewport.
    const box = (await nav.boundingBox())!;
    const width = page.viewportSize()!.width;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await expectNavPages(nav);
  } else {
    await expectNavPages(page.getByRole('navigation', { name: 'Main' }));
  }
  // No horizontal scrolling on any viewport.
  await noHorizontalScroll(page);
  await page.screenshot({ path: info.outputPath('home.png'), fullPage: true });
});

test('dark mode toggles and is remembered across reloads', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  const bodyBg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightBg = await bodyBg();

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveClass(/dark/);
  expect(await bodyBg()).not.toBe(lightBg);

  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(html).not.toHaveClass(/dark/);
});

test('the search box submits to /search', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('searchbox', { name: /search by address/i }).locator('visible=true').first();
  await box.fill('0:abc');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=0%3Aabc$/);
});
