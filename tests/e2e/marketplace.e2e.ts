import { expect, test } from '@playwright/test';
import { bearer, demoAdminSession, expectNoHorizontalOverflow, screens, signInNewCustomer } from './helpers.js';

/*
 * Swap Tokens, Stake Plans and Manage Stakes (spec 001) against the real server: a swap is
 * one merged row in Transactions, and a stake of the minimum shows as 'Holding'.
 */

test.describe('marketplace', () => {
  test('swap BTC to ETH, see both legs as one transaction; stake the minimum and see it Holding', async ({ page, request }) => {
    test.setTimeout(180_000);
    const user = await signInNewCustomer(page, request, 'market', 'Mara Market');
    await page.setViewportSize({ width: 1280, height: 900 });
    const admin = await demoAdminSession(request);
    const credit = await request.post('/functions/v1/add-transaction', {
      headers: bearer(admin),
      data: {
        targetUserId: user.session.user.id,
        assetId: 'BTC',
        amount: '1',
        status: 'Complete',
        sentAt: new Date().toISOString(),
        senderAddress: 'bc1qfunding',
        note: 'Opening funds',
      },
    });
    expect(credit.ok(), await credit.text()).toBe(true);

    await test.step('Swap Tokens: pickers, rate, fee, net, confirm with 8 decimals, success banner', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Swap Crypto' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Swap Tokens' })).toBeVisible();
      const from = page.getByLabel('From token');
      const to = page.getByLabel('To token');
      await expect(from).toHaveValue('BTC');
      await expect(to).toHaveValue('ETH');
      // Choosing on one side the token of the other side exchanges them.
      await from.selectOption('ETH');
      await expect(to).toHaveValue('BTC');
      await to.selectOption('ETH');
      await expect(from).toHaveValue('BTC');
      await expect(page.getByTestId('swap-rate')).toHaveText(/^1 BTC ≈ [\d,]+\.\d{8} ETH$/);

      // An empty amount asks for one; only an amount above the balance is 'Insufficient Balance'.
      await expect(page.getByRole('button', { name: 'Enter an amount' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Insufficient Balance' })).toHaveCount(0);
      const amount = page.getByLabel('Amount');
      await amount.fill('2');
      await expect(page.getByText('Insufficient balance', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Insufficient Balance' })).toBeDisabled();
      await amount.fill('0.1x');
      await expect(amount).toHaveValue('0.1');
      await expect(page.getByText(/^0\.00100000 BTC \(\$[\d,]+\.\d{2}\)$/)).toBeVisible();
      await page.screenshot({ path: `${screens}/swap.png`, fullPage: true });

      await page.getByRole('button', { name: 'Swap', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm Swap' });
      await expect(dialog.getByText('0.10000000 BTC')).toBeVisible();
      await expect(dialog.getByText(/^[\d,]+\.\d{8} ETH$/)).toBeVisible();
      await expect(dialog.getByText('0.00100000 BTC')).toBeVisible();
      await page.screenshot({ path: `${screens}/swap-confirm.png` });
      await dialog.getByRole('button', { name: 'Confirm Swap' }).click();
      await expect(page.getByText(/being processed.*transaction history/)).toBeVisible();
      await expect(amount).toHaveValue('');
      await expect(page.getByText(/Available: 0\.90000000 BTC/)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Enter an amount' })).toBeDisabled();
    });

    await test.step('Transactions: the two legs are one row and one detail', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Transactions' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
      const rows = page.locator('ul.tx-list > li');
      await expect(rows).toHaveCount(2); // the funding credit and the swap
      const swapRow = rows.filter({ hasText: 'BTC → ETH' });
      await expect(swapRow).toHaveCount(1);
      await expect(swapRow).toContainText('Swap');
      await expect(swapRow).toContainText('-0.10000000 BTC');
      await expect(swapRow).toContainText(/\+\d+\.\d{8} ETH/);
      await expect(swapRow).toContainText('Pending');
      await page.screenshot({ path: `${screens}/transactions-swap.png`, fullPage: true });
      await swapRow.getByRole('button').click();
      const detail = page.getByRole('dialog', { name: 'Transaction Details' });
      await expect(detail.getByText('Swap: BTC → ETH', { exact: true })).toBeVisible();
      await expect(detail.getByText('Received transaction ID')).toBeVisible();
      await expect(detail.getByText(/^Swap: BTC → ETH \(Req ID: [0-9a-f-]{36}\)$/)).toBeVisible();
      await page.screenshot({ path: `${screens}/transactions-swap-detail.png` });
      await detail.getByRole('button', { name: 'Close' }).last().click();
    });

    await test.step('Stake Plans: validation, MAX, stake the minimum; the modal closes after 1.5 s', async () => {
      const nav = page.getByRole('navigation', { name: 'Dashboard' });
      await nav.getByRole('button', { name: 'Stake', exact: true }).click();
      await nav.getByRole('link', { name: 'Stake Plans' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Stake Plans' })).toBeVisible();
      await expect(page.getByRole('region', { name: /stake plans$/ })).toHaveCount(9);
      await expect(page.getByRole('region', { name: 'Polkadot stake plans' })).toHaveCount(0);
      const btc = page.getByRole('region', { name: 'Bitcoin stake plans' });
      await expect(btc).toContainText('7 Days');
      await expect(btc).toContainText('2.7% APY');
      await expect(btc).toContainText('Min 0.0117769844 BTC');
      await expect(btc).toContainText('Min 0.058884922 BTC');
      await page.screenshot({ path: `${screens}/stake-plans.png`, fullPage: true });

      await btc.getByRole('button', { name: 'Stake BTC' }).click();
      const modal = page.getByRole('dialog', { name: 'Stake Bitcoin (BTC)' });
      const amount = modal.getByLabel('Amount');
      await modal.getByRole('button', { name: 'MAX' }).click();
      await expect(amount).toHaveValue('0.9');
      await amount.fill('5');
      await expect(modal.getByText('Insufficient funds.')).toBeVisible();
      await modal.getByRole('button', { name: 'Stake', exact: true }).click();
      await expect(modal.getByText('Insufficient balance. You have 0.90000000 BTC available.')).toBeVisible();
      await amount.fill('0.01');
      await modal.getByRole('button', { name: 'Stake', exact: true }).click();
      await expect(modal.getByText('Amount must be at least 0.0117769844 BTC')).toBeVisible();
      await amount.fill('0.0117769844');
      await page.screenshot({ path: `${screens}/stake-modal.png` });
      await modal.getByRole('button', { name: 'Stake', exact: true }).click();
      await expect(modal.getByText(/Successfully staked 0\.0117769844 BTC/)).toBeVisible();
      await expect(modal).toBeHidden({ timeout: 5000 });
    });

    await test.step('Manage Stakes: the stake is Holding', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Manage Stakes' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Manage Stakes' })).toBeVisible();
      const row = page.locator('.stake-list > li');
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('0.01177698 BTC');
      await expect(row).toContainText('7 days · 2.7% APY');
      await expect(row).toContainText('Holding');
      await page.screenshot({ path: `${screens}/manage-stakes.png`, fullPage: true });
    });

    await test.step('on a phone the screens fit the width', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ['/dashboard/marketplace/swap', '/dashboard/marketplace/stake/plans', '/dashboard/marketplace/stake/manage']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoHorizontalOverflow(page);
      }
      await page.goto('/dashboard/marketplace/swap');
      await expect(page.getByRole('heading', { level: 1, name: 'Swap Tokens' })).toBeVisible();
      await expect(page.getByTestId('swap-rate')).toHaveText(/^1 BTC ≈/);
      await expect(page.getByText(/Available: 0\.88822302 BTC/)).toBeVisible();
      await page.screenshot({ path: `${screens}/swap-mobile.png`, fullPage: true });
    });
  });

  test('the swap form opens on what the customer holds: USDT alone, not BTC', async ({ page, request }) => {
    const user = await signInNewCustomer(page, request, 'tether', 'Tess Tether');
    const admin = await demoAdminSession(request);
    const credit = await request.post('/functions/v1/add-transaction', {
      headers: bearer(admin),
      data: {
        targetUserId: user.session.user.id,
        assetId: 'USDT',
        amount: '250',
        status: 'Complete',
        sentAt: new Date().toISOString(),
        senderAddress: 'TFundingAddress',
        note: 'Opening funds',
      },
    });
    expect(credit.ok(), await credit.text()).toBe(true);
    await page.goto('/dashboard/marketplace/swap');
    await expect(page.getByRole('heading', { level: 1, name: 'Swap Tokens' })).toBeVisible();
    await expect(page.getByLabel('From token')).toHaveValue('USDT');
    await expect(page.getByLabel('To token')).toHaveValue('ETH');
    await expect(page.getByText(/Available: 250\.\d+ USDT/)).toBeVisible();
    await page.screenshot({ path: `${screens}/swap-usdt-only.png` });
  });
});
