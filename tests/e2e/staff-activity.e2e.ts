import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  apiSignIn,
  bearer,
  createConfirmedUser,
  createWorker,
  demoAdminSession,
  demoManagerSession,
  expectReachableOnPhone,
  openAs,
  ownSession,
  screens,
  waitForMail,
} from './helpers.js';

/*
 * Staff activity (issue 28): an admin's actions on a customer appear in the admin dashboard's
 * Staff activity tab, filtered by customer and action, and download as CSV; the customer is told.
 */
test.describe('staff activity', () => {
  test('an admin sees staff actions filtered by customer and action, and downloads them as CSV', async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const admin = await demoAdminSession(request);
    const customer = await createConfirmedUser(request, 'activity', 'Alma Activity');
    const customerId = (await apiSignIn(request, customer.email, customer.password)).user.id;
    const call = async (name: string, data: Record<string, unknown>) => {
      const res = await request.post(`/functions/v1/${name}`, { headers: bearer(admin), data });
      expect(res.ok(), await res.text()).toBe(true);
    };
    await call('set-dashboard-note', { userId: customerId, noteContent: 'Asked about fees' });
    await call('update-all-user-permissions', {
      targetUserId: customerId,
      permissions: { can_send: false, can_swap: true, can_buy: true, can_sell: true, can_stake: true },
    });
    await call('ban-user', { targetUserId: customerId });
    await call('unban-user', { targetUserId: customerId });
    // The customer is told by e-mail of the ban.
    await waitForMail(request, customer.email, 'Your account has been suspended');

    await openAs(page, admin, '/dashboard/admin');
    await expect(page).toHaveURL(/\/dashboard\/admin\/staff-activity$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Staff activity' })).toBeVisible();

    await page.getByLabel('Customer').fill(customer.email);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(0).locator('td[data-label="Action"]')).toHaveText('Unban');
    await expect(rows.nth(1).locator('td[data-label="Action"]')).toHaveText('Ban');
    // The admin did each alone: the maker, and no checker.
    await expect(rows.nth(0).locator('td[data-label="Maker"]')).toContainText('ADMIN');
    await expect(rows.nth(0).locator('td[data-label="Checker"]')).toHaveText('-');
    await expect(rows.nth(3)).toContainText('Dashboard note set: "Asked about fees"');
    await expect(rows.nth(0)).toContainText(customer.email);
    // The format module's forms: the long form in the viewer's zone; the ban's end, written by the server, in UTC and named.
    await expect(rows.nth(0).locator('td[data-label="Time"]')).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}$/);
    await expect(rows.nth(1).locator('td[data-label="Detail"]')).toHaveText(
      /^Banned until \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} UTC$/,
    );
    // A native date input, its chosen day said beside it in the module's form.
    const from = page.getByLabel('From', { exact: true });
    await from.fill('2026-12-06');
    await expect(from).toHaveAccessibleDescription('06 Dec 2026');
    await from.fill('');
    await page.screenshot({ path: `${screens}/staff-activity.png`, fullPage: true });
    // On a phone each action is a card: its customer and detail on screen, no sideways scroll.
    await expectReachableOnPhone(
      page,
      [
        rows.nth(0).getByText(customer.email),
        rows.nth(3).getByText('Dashboard note set: "Asked about fees"'),
        page.getByRole('button', { name: 'Download CSV' }),
        page.getByRole('button', { name: 'Older' }),
      ],
      'staff-activity-phone.png',
      page.viewportSize()!,
    );

    await page.getByLabel('Action').selectOption('permissions');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toContainText('Permissions: send off, swap on, buy on, sell on, stake on');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('staff-activity.csv');
    const csv = fs
      .readFileSync((await file.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe(
      'at,action,action_code,maker_id,maker_email,maker_role,checker_id,checker_email,checker_role,customer_id,customer_email,detail,event_type,event_id,position',
    );
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`,Permissions changed,permissions,`);
    expect(csv[1]).toContain(`,ADMIN,,,,${customerId},${customer.email},`);
  });

  test('a credit a worker asked for and an admin approved shows the worker as maker and the admin as checker', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const admin = await demoAdminSession(request);
    const manager = await demoManagerSession(request);
    const made = await createWorker(request, 'maker', 'Maya Maker');
    const worker = await ownSession(request, made.email, made.password, 'Maker-own-pass-1');
    const customer = await createConfirmedUser(request, 'approved', 'Carl Credited');
    const customerId = (await apiSignIn(request, customer.email, customer.password)).user.id;
    const claimed = await request.post('/functions/v1/claim-user', { headers: bearer(worker), data: { userIdToClaim: customerId } });
    expect(claimed.ok(), await claimed.text()).toBe(true);
    // 500 BTC is above the browser tests' limit (FOUR_EYES_LIMIT_USD 10,000,000): it waits for a second person.
    const asked = await request.post('/functions/v1/add-transaction', {
      headers: bearer(worker),
      data: {
        targetUserId: customerId,
        assetId: 'BTC',
        amount: '500',
        status: 'Complete',
        senderAddress: 'bank',
        sentAt: new Date().toISOString(),
      },
    });
    expect(asked.status(), await asked.text()).toBe(202);
    const { requestId } = ((await asked.json()) as { approval: { requestId: string } }).approval;
    // The manager created the worker and chose their first password (separation of duties): refused.
    const refused = await request.post('/functions/v1/decide-approval', {
      headers: bearer(manager),
      data: { requestId, decision: 'approve', reason: 'Bank statement checked' },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({
      error: "You created this maker's account or set their password recently: another manager or an admin must decide this request.",
    });
    const decided = await request.post('/functions/v1/decide-approval', {
      headers: bearer(admin),
      data: { requestId, decision: 'approve', reason: 'Bank statement checked' },
    });
    expect(decided.ok(), await decided.text()).toBe(true);

    await openAs(page, admin, '/dashboard/admin/staff-activity');
    await page.getByLabel('Customer or account').fill(customer.email);
    await page.getByLabel('Action').selectOption({ label: 'Manual transaction' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0).locator('td[data-label="Action"]')).toHaveText('Manual transaction');
    await expect(rows.nth(0).locator('td[data-label="Maker"]')).toContainText('Maya Maker');
    await expect(rows.nth(0).locator('td[data-label="Maker"]')).toContainText('WORKER');
    await expect(rows.nth(0).locator('td[data-label="Checker"]')).toContainText('ADMIN');
    await page.getByLabel('Action').selectOption('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(rows).toHaveCount(4);
    await expect(rows.locator('td[data-label="Action"]')).toHaveText([
      'Manual transaction',
      'Approval decision',
      'Approval requested',
      'Customer claimed',
    ]);
    await page.screenshot({ path: `${screens}/staff-activity-maker-checker.png`, fullPage: true });
  });
});
