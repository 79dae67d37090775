import { expect, test } from '@playwright/test';
import {
  bearer,
  demoAdminSession,
  demoManagerSession,
  openAs,
  ownSession,
  screens,
  signInNewCustomer,
  uniqueEmail,
  type ApiSession,
} from './helpers.js';

/*
 * Screens people trust (issue 32): the bell tells money that arrived from money on its way,
 * in the app's money format; the menus are solid on a phone; a screen a role cannot use
 * never renders for it; the swap button does not cry "Insufficient Balance" at an empty amount.
 */

const PHONE = { width: 390, height: 844 };

test.describe('screens people trust', () => {
  test('the bell: a completed credit is "You received", a pending deposit says pending, amounts grouped with 2 to 8 decimals; the menus are solid on a phone', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const customer = await signInNewCustomer(page, request, 'trust-bell', 'Tia Trust');
    const userId = customer.session.user.id;
    const admin = await demoAdminSession(request);
    const credit = await request.post('/functions/v1/add-transaction', {
      headers: bearer(admin),
      data: {
        targetUserId: userId,
        assetId: 'USDT',
        amount: '4866.004059138010692363',
        status: 'Complete',
        sentAt: new Date().toISOString(),
        senderAddress: 'TFunding',
        note: 'Opening funds',
      },
    });
    expect(credit.ok(), await credit.text()).toBe(true);
    const card = await request.post('/functions/v1/add-raw-payment-method', {
      headers: bearer(customer.session),
      data: { type: 'credit_card', cardNumber: '4242424242424242', cardHolderName: 'Tia Trust', expiryDate: '12/30', cvv: '123' },
    });
    expect(card.ok(), await card.text()).toBe(true);
    const cardId = ((await card.json()) as { paymentMethod: { id: string } }).paymentMethod.id;
    const deposit = await request.post('/functions/v1/create-deposit-request', {
      headers: bearer(customer.session),
      data: { tokenId: 'USDT', amount: '5000', paymentMethodId: cardId, userId },
    });
    expect(deposit.ok(), await deposit.text()).toBe(true);

    await page.setViewportSize(PHONE);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await page.getByRole('button', { name: /^Open notifications/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const items = panel.locator('.notifications__item');
    await expect(items).toHaveCount(2);
    // The deposit (5,000 less its 1% fee) is still Pending: not money received.
    await expect(items.nth(0)).toContainText('Your deposit of 4,950.00 USDT is pending.');
    await expect(items.nth(1)).toContainText('You received 4,866.00405914 USDT');
    await expect(panel).not.toContainText('You received 4,950');
    // Solid: no see-through colour (the cards behind used to show through).
    expect(await panel.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgb\(/);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${screens}/bell-phone.png` });
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await expect(page.getByText('Hello, Tia Trust')).toBeVisible();
    const menu = page.locator('.dropdown__popup').filter({ hasText: 'Hello, Tia Trust' });
    expect(await menu.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgb\(/);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${screens}/user-menu-phone.png` });
  });

  test('a customer opening a staff screen lands on the overview, and a worker opening the admin dashboard on their own', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInNewCustomer(page, request, 'trust-roles');
    for (const path of [
      '/dashboard/admin',
      '/dashboard/worker',
      '/dashboard/manager/all-users',
      '/dashboard/user-profile/00000000-0000-4000-8000-000000000001',
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard\/overview$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
      await expect(page.getByRole('heading', { name: /Admin Dashboard|Worker Dashboard|Manager Dashboard/ })).toHaveCount(0);
    }

    const manager = await demoManagerSession(request);
    const workerEmail = uniqueEmail('trust-worker');
    const created = await request.post('/functions/v1/create-worker-for-manager', {
      headers: bearer(manager),
      data: { fullName: 'Wyn Worker', email: workerEmail, password: 'Given-by-manager-1' },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const worker: ApiSession = await ownSession(request, workerEmail, 'Given-by-manager-1', 'Worker-own-pass-9');
    await openAs(page, worker, '/dashboard/admin');
    await expect(page).toHaveURL(/\/dashboard\/worker\/search-user$/);
    await page.goto('/dashboard/manager');
    await expect(page).toHaveURL(/\/dashboard\/worker\/search-user$/);
    await expect(page.getByRole('heading', { name: 'Search User' })).toBeVisible();
  });

  test('the swap button asks for an amount instead of saying "Insufficient Balance"', async ({ page, request }) => {
    await signInNewCustomer(page, request, 'trust-swap');
    await page.goto('/dashboard/marketplace/swap');
    await expect(page.getByRole('heading', { level: 1, name: 'Swap Tokens' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enter an amount' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Insufficient Balance' })).toHaveCount(0);
    await page.getByLabel('To token').selectOption('USDT');
    await expect(page.getByLabel('To token').locator('option:checked')).toHaveText('USDT · Tether');
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${screens}/swap-phone.png` });
  });
});
