import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { bearer, demoAdminSession, screens, sidebarLink, signInNewCustomer, type ApiSession } from './helpers.js';

/*
 * Live updates (spec 001 sections 4, 8 and 9; spec 000 section 9): the realtime socket, the
 * notification bell, and screens that follow a staff member's changes without a reload. The
 * socket's own connection (refused tokens, heartbeats, retries): realtime.e2e.ts.
 */

async function addCard(request: APIRequestContext, session: ApiSession): Promise<string> {
  const added = await request.post('/functions/v1/add-raw-payment-method', {
    headers: bearer(session),
    data: { type: 'credit_card', cardNumber: '4242424242424242', cardHolderName: 'Liv Live', expiryDate: '12/30', cvv: '123' },
  });
  expect(added.ok(), await added.text()).toBe(true);
  return ((await added.json()) as { paymentMethod: { id: string } }).paymentMethod.id;
}

async function newestTransactionId(request: APIRequestContext, session: ApiSession): Promise<string> {
  const list = await request.get('/api/v1/transactions?page=1&pageSize=1', { headers: bearer(session) });
  expect(list.ok()).toBe(true);
  const [newest] = ((await list.json()) as { transactions: { id: string }[] }).transactions;
  expect(newest).toBeTruthy();
  return newest!.id;
}

async function settle(request: APIRequestContext, admin: ApiSession, targetUserId: string, transactionId: string): Promise<void> {
  const response = await request.post('/functions/v1/update-transaction', {
    headers: bearer(admin),
    data: { targetUserId, transactionId, status: 'Complete' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  expect(((await response.json()) as { success?: boolean }).success).toBe(true);
}

/** A mark on the window that a reload would wipe. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { __noReload: true }));
}

async function expectNoReload(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

test.describe('live updates', () => {
  test('a deposit settled by staff reaches the overview, the bell, the transactions and the wallets without a reload', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const customer = await signInNewCustomer(page, request, 'live', 'Liv Live');
    const userId = customer.session.user.id;
    const cardId = await addCard(request, customer.session);

    await test.step('the customer requests a deposit of 100 USDT with the card', async () => {
      await page.getByRole('button', { name: 'Buy Crypto' }).click();
      await expect(page.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');
      await page.getByLabel('Payment Method').selectOption({ label: 'Visa •••• 4242 (exp. 12/30)' });
      await page.getByLabel('Token').selectOption('USDT');
      await page.getByLabel('Amount').fill('100');
      await page.getByRole('button', { name: 'Deposit', exact: true }).click();
      await expect(page.getByText('Deposit request submitted successfully!')).toBeVisible();
    });

    const recentRow = page.getByRole('region', { name: 'Recent Transactions' }).getByRole('listitem').first();
    await test.step('the overview shows it pending; the bell has nothing unread', async () => {
      await sidebarLink(page, 'Overview').click();
      await expect(recentRow).toContainText('+99.0000 USDT');
      await expect(recentRow.locator('.tx-icon--pending')).toBeVisible();
      await expect(
        page.getByRole('region', { name: 'Current Balance' }).getByRole('listitem').filter({ hasText: 'US Dollars' }),
      ).toContainText('99.00000000 USDT');
      await expect(page.getByTestId('notification-count')).toHaveCount(0);
      await markPage(page);
    });

    const admin = await demoAdminSession(request);
    const firstDeposit = await newestTransactionId(request, customer.session);

    await test.step('staff settle it: the overview follows, the bell counts one unread', async () => {
      // The balances are read again after the event: the 99 USDT are no longer pending but settled.
      const settledProfile = page.waitForResponse(async (response) => {
        if (!response.url().endsWith('/functions/v1/get-user-profile-details') || !response.ok()) return false;
        const body = (await response.json()) as { balances: Record<string, string>; pendingDeposits: Record<string, string> };
        return Number(body.balances['USDT']) === 99 && Number(body.pendingDeposits['USDT']) === 0;
      });
      await settle(request, admin, userId, firstDeposit);
      await settledProfile;
      await expect(recentRow.locator('.tx-icon--complete')).toBeVisible();
      await expect(recentRow.locator('.tx-icon--pending')).toHaveCount(0);
      await expect(
        page.getByRole('region', { name: 'Current Balance' }).getByRole('listitem').filter({ hasText: 'US Dollars' }),
      ).toContainText('99.00000000 USDT');
      await expect(page.getByTestId('notification-count')).toHaveText('1');
      // The chart of settled holdings now ends at today's value of the 99 USDT.
      const chart = page.getByRole('region', { name: 'Balance over time' });
      await expect(chart.getByRole('img', { name: /Balance over the last 30 days, from \$0\.00 to \$9\d\.\d{2}/ })).toBeVisible();
      await chart.scrollIntoViewIfNeeded();
      await chart.screenshot({ path: `${screens}/overview-balance-chart.png` });
      await expectNoReload(page);
    });

    await test.step('the bell lists the unread notification; a click marks it read', async () => {
      const bell = page.getByRole('button', { name: 'Open notifications (1 unread)' });
      await bell.click();
      const panel = page.getByRole('dialog', { name: 'Notifications' });
      await expect(panel.getByRole('heading', { name: 'Notifications' })).toBeVisible();
      const item = panel.locator('.notifications__item--unread');
      await expect(item).toHaveCount(1);
      await expect(item).toContainText(/Your deposit of 99(\.0+)? USDT has been completed\./);
      await expect(item).toContainText('less than a minute ago');
      await expect(panel.getByRole('button', { name: 'Mark all as read' })).toBeVisible();
      await page.mouse.move(0, 0);
      await page.screenshot({ path: `${screens}/notifications.png` });

      await item.click();
      await expect(panel.locator('.notifications__item--unread')).toHaveCount(0);
      await expect(panel.getByText(/Your deposit of 99(\.0+)? USDT has been completed\./)).toBeVisible();
      await expect(panel.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
      await expect(page.getByTestId('notification-count')).toHaveCount(0);
      await expect
        .poll(
          async () =>
            ((await (await request.get('/api/v1/notifications', { headers: bearer(customer.session) })).json()) as { unread: number })
              .unread,
        )
        .toBe(0);
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();
    });

    await test.step('Transactions shows it Complete; a new deposit appears there live', async () => {
      await sidebarLink(page, 'Transactions').click();
      await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
      const rows = page.locator('.tx-list > li');
      await expect(rows).toHaveCount(1);
      await expect(rows.first().locator('.status-badge--complete')).toHaveText('Complete');

      const deposit = await request.post('/functions/v1/create-deposit-request', {
        headers: bearer(customer.session),
        data: { tokenId: 'USDT', amount: '50', paymentMethodId: cardId, userId },
      });
      expect(deposit.ok(), await deposit.text()).toBe(true);
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText('+49.50000000 USDT');
      await expect(rows.first().locator('.status-badge--pending')).toHaveText('Pending');
      await expect(rows.nth(1).locator('.status-badge--complete')).toHaveText('Complete');
      await expectNoReload(page);
    });

    await test.step('the wallets follow a settlement too', async () => {
      await sidebarLink(page, 'Wallets').click();
      const available = page.getByTestId('assets-available');
      await expect(available).toHaveText(/^\$9\d\.\d{2}$/);
      const before = await available.textContent();
      await settle(request, admin, userId, await newestTransactionId(request, customer.session));
      await expect(available).not.toHaveText(before!);
      await expect(available).toHaveText(/^\$14\d\.\d{2}$/);
      await expect(page.getByTestId('notification-count')).toHaveText('1');
      await expectNoReload(page);
    });

    await test.step('Mark all as read clears the count', async () => {
      await page.getByRole('button', { name: 'Open notifications (1 unread)' }).click();
      const panel = page.getByRole('dialog', { name: 'Notifications' });
      await expect(panel.locator('.notifications__item--unread')).toContainText(/Your deposit of 49\.5(0*)? USDT has been completed\./);
      await panel.getByRole('button', { name: 'Mark all as read' }).click();
      await expect(panel.locator('.notifications__item--unread')).toHaveCount(0);
      await expect(page.getByTestId('notification-count')).toHaveCount(0);
      await expect(panel.locator('.notifications__item')).toHaveCount(2);
    });
  });
});

test.describe('the notification bell, with answers changed in the browser', () => {
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  const list = () => ({
    notifications: [
      {
        id: '00000000-0000-4000-8000-000000000001',
        message: 'Your withdrawal of 5 BTC has failed.',
        read: false,
        created_at: minutesAgo(5),
        transaction_id: null,
        source: 'stored',
      },
      {
        id: '00000000-0000-4000-8000-000000000002',
        message: 'Your deposit of 2 ETH has been completed.',
        read: false,
        created_at: minutesAgo(180),
        transaction_id: null,
        source: 'stored',
      },
      {
        id: '00000000-0000-4000-8000-000000000003',
        message: 'You received 1.5 SOL',
        read: true,
        created_at: minutesAgo(3 * 24 * 60),
        transaction_id: null,
        source: 'received',
      },
    ],
    unread: 2,
  });

  test('a refused mark-as-read is undone, fetch errors are silent, and the list loads when the bell opens', async ({ page, request }) => {
    let answer: 'list' | 'fail' | 'slow' = 'list';
    let gets = 0;
    // A slow answer waits until the test has seen the loading text, however long the sign-in took.
    let answerNow!: () => void;
    const answered = new Promise<void>((resolve) => (answerNow = resolve));
    await page.route('**/api/v1/notifications', async (route) => {
      gets += 1;
      if (answer === 'fail') return route.fulfill({ status: 500, json: { error: 'Database is down.' } });
      if (answer === 'slow') await answered;
      return route.fulfill({ json: list() });
    });
    const marks: string[] = [];
    await page.route(/\/api\/v1\/notifications\/.+\/read$|\/api\/v1\/notifications\/read-all$/, async (route) => {
      marks.push(new URL(route.request().url()).pathname);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.fulfill({ status: 500, json: { error: 'Could not save.' } });
    });

    answer = 'slow';
    await signInNewCustomer(page, request, 'bell');
    const bell = page.getByRole('button', { name: /^Open notifications/ });
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel.getByText('Loading notifications...')).toBeVisible();
    answer = 'list';
    answerNow();
    await expect(panel.locator('.notifications__item')).toHaveCount(3);
    await expect(page.getByTestId('notification-count')).toHaveText('2');
    await expect(bell).toHaveAccessibleName('Open notifications (2 unread)');
    await expect(panel.locator('.notifications__item').nth(0)).toContainText('5 minutes ago');
    await expect(panel.locator('.notifications__item').nth(1)).toContainText('about 3 hours ago');
    await expect(panel.locator('.notifications__item').nth(2)).toContainText('You received 1.5 SOL');
    await expect(panel.locator('.notifications__item').nth(2)).toContainText('3 days ago');
    await expect(panel.locator('.notifications__item--unread')).toHaveCount(2);

    // One item: read at once, unread again when the server refuses.
    await panel.getByRole('button', { name: /Your withdrawal of 5 BTC has failed\./ }).click();
    await expect(panel.locator('.notifications__item--unread')).toHaveCount(1);
    await expect(page.getByTestId('notification-count')).toHaveText('1');
    await expect(panel.locator('.notifications__item--unread')).toHaveCount(2);
    await expect(page.getByTestId('notification-count')).toHaveText('2');
    expect(marks).toEqual(['/api/v1/notifications/00000000-0000-4000-8000-000000000001/read']);

    // All of them: the same.
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(panel.locator('.notifications__item--unread')).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
    await expect(panel.locator('.notifications__item--unread')).toHaveCount(2);
    await expect(panel.getByRole('button', { name: 'Mark all as read' })).toBeVisible();
    expect(marks[1]).toBe('/api/v1/notifications/read-all');

    // A failed read says nothing and keeps the list; opening the bell reads it again.
    answer = 'fail';
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    const before = gets;
    await bell.click();
    await expect.poll(() => gets).toBeGreaterThan(before);
    await expect(panel.locator('.notifications__item')).toHaveCount(3);
    await expect(panel.getByRole('alert')).toHaveCount(0);
    await expect(page.getByText('Database is down.')).toHaveCount(0);
  });

  test('a failed first read ends the loading text silently', async ({ page, request }) => {
    await page.route('**/api/v1/notifications', (route) => route.abort());
    await signInNewCustomer(page, request, 'bell-down');
    await page.getByRole('button', { name: 'Open notifications' }).click();
    await expect(page.getByRole('dialog', { name: 'Notifications' }).getByText('You have no notifications.')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
