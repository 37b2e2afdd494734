// The multisig v2 pages on the seeded devnet: the genesis multisig's account page shows its signers,
// proposer, threshold and both orders with their approvals; an order's page shows its wallet, its status
// and what it does in plain words (desktop and mobile).
import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';
import { genesisAccount } from './genesis';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const account = (name: string) => `/account/${encodeURIComponent(genesisAccount(name).friendly.bounceable)}`;

/** The derive stage has the genesis multisig and both its orders. */
async function waitForMultisig(request: APIRequestContext) {
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/v3/multisig/wallets', { params: { address: genesisAccount('multisig').address } });
        if (!res.ok()) return 0;
        const body = (await res.json()) as { multisigs: { orders: unknown[] | null }[] };
        return body.multisigs[0]?.orders?.length ?? 0;
      },
      { timeout: 150_000, intervals: [1000] },
    )
    .toBe(2);
}

test('a multisig wallet page lists signers, proposers, threshold and orders with their approvals', async ({ page, request }) => {
  await waitForMultisig(request);
  await page.goto(account('multisig'));
  const section = page.getByTestId('multisig-wallet');
  await expect(section).toBeVisible();
  await expect(section.getByTestId('multisig-threshold')).toHaveText('2 of 3 signers');
  const orders = section.getByTestId('multisig-order');
  await expect(orders).toHaveCount(2);
  await expect(orders.nth(0)).toContainText('Order #0');
  await expect(orders.nth(0).getByTestId('order-status')).toHaveText('executed');
  await expect(orders.nth(0).getByTestId('order-approvals')).toContainText('2 of 2');
  await expect(orders.nth(0).getByTestId('order-approvals').locator('a')).toHaveCount(2);
  await expect(orders.nth(1).getByTestId('order-status')).toHaveText('pending');
  await expect(orders.nth(1).getByTestId('order-approvals')).toContainText('1 of 2');
  await expect(orders.nth(1)).toContainText(/expires in \d+ years/);
  // The activity in plain words: alice's order, bob's approval, the execution.
  await expect(page.getByTestId('action').filter({ hasText: 'created order #0 in multisig' }).first()).toBeVisible();

  // From the list to the pending order's own page.
  await orders.nth(1).locator('a').first().click();
  await expect(page).toHaveURL(/\/account\//);
  const order = page.getByTestId('multisig-order-details');
  await expect(order).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Multisig order #1' })).toBeVisible();
  await expect(order.getByTestId('order-status')).toHaveText('pending');
  await expect(order.getByTestId('order-approvals')).toContainText('1 of 2');
  await expect(order).toContainText('Not yet approved by');
  const action = order.getByTestId('order-action');
  await expect(action).toHaveCount(1);
  await expect(action).toContainText(/send 2 TON to/);
  await expect(action).toContainText('Waiting for a second approval');
  // It expires in 2033 (GENESIS_MULTISIG.expiresAt): years ahead, shown as such, not as "just now".
  const expires = order.getByTestId('order-expires');
  await expect(expires).toContainText(/^in \d+ years/);
  await expect(expires).toContainText('2033-05-18');
});

test('an executed order says what it did: TON to a wallet and ATLAS to carol', async ({ page, request }) => {
  await waitForMultisig(request);
  await page.goto(account('multisig_order_0'));
  const order = page.getByTestId('multisig-order-details');
  await expect(order.getByTestId('order-status')).toHaveText('executed');
  await expect(order).toContainText('What it did');
  const actions = order.getByTestId('order-action');
  await expect(actions).toHaveCount(2);
  await expect(actions.nth(0)).toContainText(/send 5 TON to/);
  await expect(actions.nth(0)).toContainText('Paid by the multisig');
  await expect(actions.nth(1)).toContainText(/send 1,500\s+ATLAS to/);
  await expect(order).not.toContainText('Not yet approved by');
});
