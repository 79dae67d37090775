import { expect, test } from '@playwright/test';
import { createConfirmedUser, screens, signInWithForm } from './helpers.js';

/* The dashboard shell (spec 000 section 2.6): sidebar, notifications, user menu, and the drawer on a phone. */

test.describe('dashboard shell', () => {
  test('sidebar, notification bell and user menu on a desktop', async ({ page, request }) => {
    const user = await createConfirmedUser(request, 'shell', 'Sam Shell');
    await signInWithForm(page, user.email, user.password);

    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const name of ['Overview', 'Wallets', 'Transactions', 'Payments', 'Swap Crypto', 'Account Settings', 'Support Tickets']) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    for (const heading of ['General', 'Marketplace', 'Support & Settings']) {
      await expect(nav.getByRole('heading', { name: heading })).toBeVisible();
    }
    await expect(nav.getByText('Worker Panel')).toHaveCount(0);
    const sidebarWidth = await page.locator('#dashboard-sidebar').evaluate((el) => el.getBoundingClientRect().width);
    expect(sidebarWidth).toBe(256);

    // The Stake group opens and closes.
    await expect(nav.getByRole('link', { name: 'Stake Plans' })).toBeHidden();
    await nav.getByRole('button', { name: 'Stake' }).click();
    await nav.getByRole('link', { name: 'Stake Plans' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Stake Plans' })).toBeVisible();
    await nav.getByRole('link', { name: 'Manage Stakes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Manage Stakes' })).toBeVisible();
    await nav.getByRole('link', { name: 'Swap Crypto' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Swap Tokens' })).toBeVisible();
    await nav.getByRole('link', { name: 'Overview' }).click();

    await page.getByRole('button', { name: 'Open notifications' }).click();
    await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
    await expect(page.getByText('You have no notifications.')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByText('You have no notifications.')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open notifications' })).toBeFocused();

    const avatar = page.getByRole('button', { name: 'Open user menu' });
    await expect(avatar).toHaveText('S');
    await avatar.click();
    await expect(page.getByText('Hello, Sam Shell')).toBeVisible();
    await expect(page.getByRole('menu').getByText(user.email)).toBeVisible();
    for (const name of ['Wallets', 'Settings', 'Support Tickets', 'Logout']) {
      await expect(page.getByRole('menuitem', { name })).toBeVisible();
    }
    await page.screenshot({ path: `${screens}/dashboard.png` });

    // The menu works from the keyboard too.
    await page.keyboard.press('Escape');
    await expect(avatar).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Wallets' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeVisible();

    // Unknown paths under /dashboard go to the overview; elsewhere the 404 page offers the dashboard.
    await page.goto('/dashboard/no-such-screen');
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard/overview');
    await page.goto('/dashboard/overview');

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('wallet-ledger.session'))).toBeNull();
    await page.goto('/dashboard/overview');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('under 768 px the sidebar is a drawer that closes after a link', async ({ page, request }) => {
    const user = await createConfirmedUser(request, 'drawer', 'Dee Drawer');
    await page.setViewportSize({ width: 360, height: 740 });
    await signInWithForm(page, user.email, user.password);

    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(nav.getByRole('link', { name: 'Wallets' })).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screens}/dashboard-mobile.png` });

    const menuButton = page.getByRole('button', { name: 'Open navigation menu' });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await menuButton.click();
    await expect(nav.getByRole('link', { name: 'Wallets' })).toBeVisible();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${screens}/dashboard-drawer.png` });

    await nav.getByRole('link', { name: 'Wallets' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Wallets' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Wallets' })).toBeHidden();

    // Escape closes it too, and focus goes back to the menu button.
    await menuButton.click();
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeHidden();
    await expect(menuButton).toBeFocused();

    // Opening moves focus to the drawer's first link; with focus taken away, Escape still closes it.
    await menuButton.click();
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expect(nav.getByRole('link', { name: 'Overview' })).not.toBeFocused();
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: 'Overview' })).toBeHidden();
  });
});
