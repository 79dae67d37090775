import { expect, test } from '@playwright/test';
import { createConfirmedUser, demoAdminSession, openAs, passwordSession, screens, type ApiSession } from './helpers.js';

/*
 * The staff Transactions tab shows a long history a page at a time (the server's paging is
 * tested with 1,100 real rows in server/staff/history-pages.int.spec.ts): here the answers are
 * two small pages, so the screen's part is seen without writing hundreds of rows.
 */

const row = (userId: string, n: number, asset: string, amount: string) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  user_id: userId,
  asset_id: asset,
  amount,
  fee: '0',
  type: 'deposit',
  status: 'Complete',
  sent_at: new Date(Date.UTC(2026, 0, 20 - n, 9, 30)).toISOString(),
  created_at: new Date(Date.UTC(2026, 0, 20 - n, 9, 30)).toISOString(),
  sender_address: `sender-${n}`,
  recipient_address: null,
  txid: null,
  note: null,
  is_hidden: false,
  request_id: null,
});

test('the staff Transactions tab adds older transactions under the newest ones, then shows no button at the end', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const admin = await demoAdminSession(request);
  const customer = await createConfirmedUser(request, 'history-pages', 'Hilda History');
  const { user } = (await (await passwordSession(request, customer.email, customer.password)).json()) as ApiSession;

  const asked: (string | null)[] = [];
  await page.route(`**/api/v1/users/${user.id}/transactions**`, async (route) => {
    const before = new URL(route.request().url()).searchParams.get('before');
    asked.push(before);
    const first = [row(user.id, 1, 'BTC', '0.25'), row(user.id, 2, 'ETH', '1.5')];
    const body =
      before === null ? { transactions: first, next: first[1]!.id } : { transactions: [row(user.id, 3, 'SOL', '12')], next: null };
    await route.fulfill({ json: body });
  });

  await openAs(page, admin, `/dashboard/user-profile/${user.id}`);
  await page.getByRole('navigation', { name: 'User profile' }).getByRole('link', { name: 'Transactions', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Transaction History' })).toBeVisible();
  const rows = page.locator('.history-list > li');
  await expect(rows).toHaveCount(2);
  const older = page.getByRole('button', { name: 'Show older transactions' });
  await expect(older).toBeVisible();
  await page.screenshot({ path: `${screens}/staff-profile-transactions-older.png`, fullPage: true });

  await older.click();
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('SOL');
  await expect(rows.nth(2)).toContainText('From: sender-3');
  await expect(older).toBeHidden();
  // The newest page, then one page after the last row shown.
  expect(asked[0]).toBeNull();
  expect(asked.filter((b) => b !== null)).toEqual([`00000000-0000-4000-8000-${String(2).padStart(12, '0')}`]);
});
