// The interactive API references a browser reaches through toncenter's documentation paths: each
// operation of the OpenAPI document with a console that sends a real request to this server.
import { expect as baseExpect, test } from '@playwright/test';
import { genesisAccount } from './genesis';
import { noHorizontalScroll } from './layout-checks';

const expect = baseExpect.configure({ timeout: 20_000 });

test('/api/v3/index.html opens the v3 reference, whose console runs masterchainInfo', async ({ page }) => {
  await page.goto('/api/v3/index.html');
  await expect(page).toHaveURL(/\/api-docs\/v3$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Index API v3');
  const op = page.getByTestId('operation-get-/api/v3/masterchainInfo');
  await op.locator('summary').click();
  await op.getByRole('button', { name: 'Send' }).click();
  const answer = op.getByTestId('console-answer');
  await expect(answer).toContainText('200');
  await expect(answer).toContainText('"last"');
  await noHorizontalScroll(page);
});

test('/api/v2/ in a browser opens the v2 reference; a method runs with the parameters typed in', async ({ page }) => {
  await page.goto('/api/v2/');
  await expect(page).toHaveURL(/\/api-docs\/v2$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('API v2');
  await page.getByLabel('Find an operation').fill('getWalletInformation');
  const op = page.getByTestId('operation-get-/api/v2/getWalletInformation');
  await op.locator('summary').click();
  await op.getByRole('textbox').first().fill(genesisAccount('wallet_v5beta').friendly.bounceable);
  await op.getByRole('button', { name: 'Send' }).click();
  const answer = op.getByTestId('console-answer');
  await expect(answer).toContainText('200');
  await expect(answer).toContainText('"wallet_type": "wallet v5 beta"');
});
