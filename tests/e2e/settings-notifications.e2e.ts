import { expect, test, type Page } from '@playwright/test';
import { bearer, screens, signInNewCustomer } from './helpers.js';

/*
 * Settings > Notifications (issue 32): the customer's choices of the e-mails and in-app
 * notifications they get, saved on the server; security notices cannot be turned off.
 */

async function openNotifications(page: Page) {
  await page.goto('/dashboard/settings');
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Notifications' })).toBeVisible();
}

test.describe('notification preferences', () => {
  test('a choice is saved, survives a reload, and security stays on', async ({ page, request }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    const user = await signInNewCustomer(page, request, 'notif-prefs', 'Nora Notify');
    await openNotifications(page);

    const account = page.getByRole('group', { name: 'Account changes' });
    const transactions = page.getByRole('group', { name: 'Transaction updates' });
    const security = page.getByRole('group', { name: 'Security' });
    await expect(account.getByRole('switch', { name: 'Email' })).toBeChecked();
    await expect(transactions.getByRole('switch', { name: 'In-app' })).toBeChecked();
    // Transaction e-mails are off until the customer turns them on.
    await expect(transactions.getByRole('switch', { name: 'Email' })).not.toBeChecked();
    await expect(transactions.getByRole('switch', { name: 'Email' })).toBeEnabled();
    for (const name of ['Email', 'In-app']) {
      await expect(security.getByRole('switch', { name })).toBeChecked();
      await expect(security.getByRole('switch', { name })).toBeDisabled();
    }
    const save = page.getByRole('button', { name: 'Save Preferences' });
    await expect(save).toBeDisabled();

    await account.getByRole('switch', { name: 'Email' }).uncheck();
    await transactions.getByRole('switch', { name: 'In-app' }).uncheck();
    await transactions.getByRole('switch', { name: 'Email' }).check();
    await save.click();
    await expect(page.getByRole('status').filter({ hasText: 'Your notification preferences have been saved.' })).toBeVisible();
    await expect(save).toBeDisabled();
    await page.screenshot({ path: `${screens}/settings-notifications.png`, fullPage: true });

    await page.reload();
    await openNotifications(page);
    await expect(account.getByRole('switch', { name: 'Email' })).not.toBeChecked();
    await expect(account.getByRole('switch', { name: 'In-app' })).toBeChecked();
    await expect(transactions.getByRole('switch', { name: 'In-app' })).not.toBeChecked();
    await expect(transactions.getByRole('switch', { name: 'Email' })).toBeChecked();
    await expect(security.getByRole('switch', { name: 'Email' })).toBeChecked();

    // The server holds the same choices.
    const stored = await request.get('/api/v1/notification-preferences', { headers: bearer(user.session) });
    expect(await stored.json()).toEqual({
      transactionsInApp: false,
      transactionsEmail: true,
      accountChangesEmail: false,
      accountChangesInApp: true,
    });

    // On a phone the tab fits without a sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(security.getByRole('switch', { name: 'Email' })).toBeVisible();
    // (after the resize the sidebar settles into its drawer first)
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screens}/settings-notifications-phone.png`, fullPage: true });
  });
});
