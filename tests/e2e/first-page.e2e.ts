import { expect, test } from '@playwright/test';

const screens = 'docs/screens';

test.describe('first page', () => {
  test('the site root opens the sign-in screen', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Login to Your Wallet' })).toBeVisible();
  });

  test('the sign-in screen fits a 360 px wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${screens}/login-mobile.png` });
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

  test('Go Back with no earlier page goes to the sign-in screen', async ({ page }) => {
    await page.goto('/no-such-page');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Login to Your Wallet' })).toBeVisible();
  });

  test('Go Back returns to the page before', async ({ page }) => {
    await page.goto('/login');
    // A client-side move to an unknown path, as a stale link inside the app would make.
    await page.evaluate(() => {
      window.history.pushState({ usr: null, key: 'stale-link', idx: 1 }, '', '/no-such-page');
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    });
    await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/login$/);
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

test.describe('the particle background', () => {
  /** Counts the animation frames the page asks for, from its first script on. */
  async function openCounting(page: import('@playwright/test').Page): Promise<() => Promise<number>> {
    await page.addInitScript(() => {
      const w = window as unknown as { frames_asked: number };
      w.frames_asked = 0;
      const ask = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (cb) => ((w.frames_asked += 1), ask(cb));
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Login to Your Wallet' })).toBeVisible();
    return () => page.evaluate(() => (window as unknown as { frames_asked: number }).frames_asked);
  }

  test('moves for a visitor who has not asked for reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const framesAsked = await openCounting(page);
    const before = await framesAsked();
    // It keeps asking for frames (how many a second depends on how busy the machine is).
    await expect.poll(framesAsked).toBeGreaterThan(before + 5);
  });

  test('is one still frame when reduced motion is asked for', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const framesAsked = await openCounting(page);
    const before = await framesAsked();
    await page.waitForTimeout(1_000);
    expect(await framesAsked()).toBe(before);
    expect(before).toBe(0);
  });
});
