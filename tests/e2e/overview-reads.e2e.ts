import { expect, test, type Page } from '@playwright/test';
import { sidebarLink, signInNewCustomer } from './helpers.js';

/** The overview's four reads, by path, as the page asks for them. */
const READS = ['/functions/v1/crypto-prices', '/functions/v1/get-user-profile-details', '/api/v1/transactions', '/api/v1/balance-history'];

function countReads(page: Page): Map<string, number> {
  const counts = new Map(READS.map((path) => [path, 0]));
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (counts.has(path)) counts.set(path, counts.get(path)! + 1);
  });
  return counts;
}

test.describe("the overview's reads", () => {
  test('a page load asks for each once (read ahead of the screen, not again by it); coming back reads them again', async ({
    page,
    request,
  }) => {
    await signInNewCustomer(page, request, 'overview-reads');
    const counts = countReads(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Recent Transactions' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(READS.map((path) => [path, 1])));

    // Another screen and back: the overview reads its answers again (a screen shows what is
    // true when it opens), also within seconds of the page load.
    await sidebarLink(page, 'Wallets').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Wallets' })).toBeVisible();
    const before = counts.get('/functions/v1/get-user-profile-details')!;
    await sidebarLink(page, 'Overview').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect.poll(() => counts.get('/functions/v1/get-user-profile-details')).toBeGreaterThan(before);
  });
});
