import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { apiSignIn, keepSession, signInNewCustomer } from './helpers.js';

/**
 * Data that arrives late shifts nothing: the overview is opened with every API answer held
 * back 1.5 s, so that its first paint shows the loading states, and the layout shifts the
 * arrival causes are summed as the browser reports them (the cumulative layout shift Lighthouse
 * scores; issue 32's target is under 0.05).
 */
async function shiftWhileDataArrives(page: Page): Promise<number> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  let held = 0;
  await page.route(/\/(api|functions|rest)\/v1\//, async (route) => {
    held++;
    await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  await page.goto('/dashboard/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1_000);
  expect(held).toBeGreaterThan(0);
  return page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}

test.describe('the overview keeps its place while its data arrives', () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width}x${viewport.height}`, async ({ page, request }) => {
      await page.setViewportSize(viewport);
      await signInNewCustomer(page, request, `shift-${viewport.width}`);
      expect(await shiftWhileDataArrives(page)).toBeLessThan(0.01);
    });

    test(`for the demo customer, whose wallets and transactions fill the grid, at ${viewport.width}x${viewport.height}`, async ({
      page,
      request,
    }) => {
      const demo = fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, 'demo-users.txt'), 'utf8');
      const [, email, password] = /USER\s+(\S+)\s+password: (\S+)/.exec(demo)!;
      await keepSession(page, await apiSignIn(request, email!, password!));
      await page.setViewportSize(viewport);
      expect(await shiftWhileDataArrives(page)).toBeLessThan(0.01);
    });
  }
});
