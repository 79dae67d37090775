import { expect, test } from '@playwright/test';

const screens = 'docs/screens';

test.describe('first page', () => {
  test('home names the product and shows the live service status', async ({ page }) => {
    await page.goto('/');

    await expect(page.getByRole('heading', { level: 1, name: 'wallet-ledger' })).toBeVisible();
    await expect(page.getByText('custodial crypto wallet on an event-sourced ledger')).toBeVisible();
    await expect(page.getByText('Service status: ok')).toBeVisible();
    await expect(page.getByText('Projection lag')).toBeVisible();

    await page.screenshot({ path: `${screens}/home.png` });
  });

  test('home fits a 360 px wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');

    await expect(page.getByText('Service status: ok')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.screenshot({ path: `${screens}/home-mobile.png` });
  });

  test('an unknown path shows the 404 page', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.ok()).toBe(true);

    await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');

    await page.screenshot({ path: `${screens}/not-found.png` });
  });

  test('Go Back with no earlier page goes home', async ({ page }) => {
    await page.goto('/no-such-page');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1, name: 'wallet-ledger' })).toBeVisible();
  });

  test('the 404 page is usable with the keyboard alone', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Go to Login' })).toBeFocused();
  });
});
