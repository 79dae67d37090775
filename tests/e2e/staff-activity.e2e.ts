import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  apiSignIn,
  bearer,
  createConfirmedUser,
  demoAdminSession,
  expectReachableOnPhone,
  openAs,
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
    await expect(rows.nth(0)).toContainText('unban');
    await expect(rows.nth(1)).toContainText('ban');
    await expect(rows.nth(3)).toContainText('Dashboard note set: "Asked about fees"');
    await expect(rows.nth(0)).toContainText(customer.email);
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
    expect(csv[0]).toBe('at,staff_id,staff_email,staff_role,customer_id,customer_email,action,detail,event_id,position');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`,ADMIN,${customerId},${customer.email},permissions,`);
  });
});
