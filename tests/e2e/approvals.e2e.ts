import { expect, test } from '@playwright/test';
import {
  bearer,
  createConfirmedUser,
  demoAdminSession,
  demoManagerSession,
  expectReachableOnPhone,
  openAs,
  passwordSession,
  screens,
  uniqueEmail,
  type ApiSession,
} from './helpers.js';

/*
 * The two-person rule on screen: a worker adds a large hidden credit from the profile's Wallets
 * tab and is told it awaits a second approval (amount and maker); the customer's balance does
 * not move; their manager's Approvals tab lists it live with customer, action, amount, value,
 * maker and age, but the manager created the maker (separation of duties), so an admin approves
 * it with a reason; the worker's profile and My requests then name who approved it.
 */
test.describe('approvals', () => {
  test("a large manual credit waits on the manager's Approvals tab and moves money only once approved", async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const manager = await demoManagerSession(request);
    const workerEmail = uniqueEmail('approvals-worker');
    const created = await request.post('/functions/v1/create-worker-for-manager', {
      headers: bearer(manager),
      data: { fullName: 'Wes Maker', email: workerEmail, password: 'Given-by-manager-1' },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const first = (await (await passwordSession(request, workerEmail, 'Given-by-manager-1')).json()) as ApiSession;
    expect((await request.put('/auth/v1/user', { headers: bearer(first), data: { password: 'Worker-own-pass-9' } })).ok()).toBe(true);
    const worker = (await (await passwordSession(request, workerEmail, 'Worker-own-pass-9')).json()) as ApiSession;
    const customer = await createConfirmedUser(request, 'approvals-customer', 'Carla Customer');
    const customerSession = (await (await passwordSession(request, customer.email, customer.password)).json()) as ApiSession;
    const userId = customerSession.user.id;
    expect((await request.post('/functions/v1/claim-user', { headers: bearer(worker), data: { userIdToClaim: userId } })).ok()).toBe(true);
    const btcBalance = async () =>
      (
        await (
          await request.post('/functions/v1/get-user-profile-details', { headers: bearer(worker), data: { targetUserId: userId } })
        ).json()
      ).balances.BTC;

    // The manager's Approvals tab is open before the request exists: it arrives over /realtime/v1.
    const managerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const managerPage = await managerContext.newPage();
    await openAs(managerPage, manager, '/dashboard/manager/approvals');
    await expect(managerPage.getByRole('heading', { name: 'Waiting for your approval' })).toBeVisible();

    await test.step('the dialog tells before the submit that 500 BTC will wait for a second person, and 1 BTC will not', async () => {
      await openAs(page, worker, `/dashboard/user-profile/${userId}/wallets`);
      const btc = page.locator('tr[data-asset="BTC"]');
      await btc.getByRole('button', { name: 'Add Tx BTC' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add BTC Transaction' });
      // The server's limit here is 10,000,000 USD (playwright.config.ts): 1 BTC is far below it.
      const notice = dialog.getByRole('status').filter({ hasText: "second person's approval" });
      await dialog.getByLabel('Status *').selectOption('Complete');
      await dialog.getByLabel('Amount *').fill('1');
      await expect(dialog.getByLabel('Amount *')).toHaveValue('1');
      // The prices and the limit are in (the BTC row shows its price) and still no notice.
      await expect(btc.locator('td[data-label="Price"]')).not.toHaveText('--.--');
      await expect(notice).toHaveCount(0);
      await dialog.getByLabel('Amount *').fill('500');
      await expect(notice).toHaveText(
        /^Worth about \$[\d,]+\.\d{2}, above the \$10,000,000\.00 limit for one staff action: once submitted, it will wait for a second person's approval\.$/,
      );
      // As Pending it moves no money yet: the notice says the wait comes with its completion.
      await dialog.getByLabel('Status *').selectOption('Pending');
      await expect(notice).toContainText("added as Pending it moves no money; completing it will wait for a second person's approval.");
      await dialog.getByLabel('Status *').selectOption('Complete');
      await expect(notice).toContainText("once submitted, it will wait for a second person's approval.");
      await page.screenshot({ path: `${screens}/approvals-add-transaction-notice.png` });
      await dialog.getByLabel('Amount *').fill('100');
      await expect(notice).toHaveCount(0);
      await dialog.getByLabel('Amount *').fill('500');
      await expect(notice).toBeVisible();
    });

    await test.step('the worker adds 500 BTC Complete and hidden: awaiting second approval, balance unchanged', async () => {
      const dialog = page.getByRole('dialog', { name: 'Add BTC Transaction' });
      await dialog.getByLabel('Sender Address *').fill('bc1qsenderexchangewallet000000000000000000');
      await dialog.getByLabel(/Note/).fill('Bonus agreed by phone');
      await dialog.getByRole('checkbox').check();
      await dialog.getByRole('button', { name: 'Add Transaction' }).click();
      await expect(dialog.getByText(/Awaiting second approval: \+500\.00 BTC \(\$[\d,]+\.\d{2}\), by Wes Maker/)).toBeVisible();
      // Once sent, the server's answer speaks: the notice gives way to it.
      await expect(dialog.getByText("second person's approval")).toHaveCount(0);
      await expect(dialog).toBeHidden({ timeout: 5_000 });
      await expect(page.getByText(/Awaiting second approval: \+500\.00 BTC/)).toBeVisible();
      expect(await btcBalance()).toBe('0');
    });

    await test.step('the manager sees it live, with customer, action, amount, value, maker and age, but created the maker: no buttons', async () => {
      const row = managerPage.getByRole('row', { name: new RegExp(customer.email) });
      await expect(row).toBeVisible({ timeout: 10_000 });
      await expect(row).toContainText('Manual transaction');
      await expect(row).toContainText('+500.00 BTC');
      await expect(row).toContainText(/\$[\d,]+\.\d{2}/);
      await expect(row).toContainText('Wes Maker');
      await expect(row).toContainText('0 min');
      // Separation of duties: the manager chose the maker's first password, so an admin decides.
      await expect(row).toContainText(
        "You created this maker's account or set their password recently: another manager or an admin must decide this request.",
      );
      await expect(row.getByRole('button', { name: 'Approve' })).toHaveCount(0);
      await managerPage.screenshot({ path: `${screens}/approvals-separation.png`, fullPage: true });
    });

    await test.step('an admin sees it with both decisions and approves it with a reason', async () => {
      const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const adminPage = await adminContext.newPage();
      await openAs(adminPage, await demoAdminSession(request), '/dashboard/admin/approvals');
      const row = adminPage.getByRole('row', { name: new RegExp(customer.email) });
      await expect(row).toBeVisible({ timeout: 10_000 });
      await expect(row).toContainText('+500.00 BTC');
      await expect(row).toContainText('Wes Maker');
      await adminPage.screenshot({ path: `${screens}/approvals.png`, fullPage: true });
      // On a phone the request is a card: its amount, maker and both decisions on screen, no sideways scroll.
      await expectReachableOnPhone(
        adminPage,
        [
          row.getByText('+500.00 BTC'),
          row.getByText('Wes Maker'),
          row.getByRole('button', { name: 'Approve' }),
          row.getByRole('button', { name: 'Reject' }),
        ],
        'approvals-phone.png',
        { width: 1280, height: 900 },
      );
      await row.getByRole('button', { name: 'Approve' }).click();
      await adminPage.getByRole('button', { name: 'Confirm approval' }).click();
      await expect(adminPage.getByText('Please give a reason for your decision.')).toBeVisible();
      await adminPage.getByLabel('Reason to approve *').fill('Bonus confirmed with the customer');
      await adminPage.getByRole('button', { name: 'Confirm approval' }).click();
      // Its row leaves the queue (other suites' requests may wait beside it), also on the manager's screen.
      await expect(row).toHaveCount(0);
      await expect(managerPage.getByRole('row', { name: new RegExp(customer.email) })).toHaveCount(0);
      expect(await btcBalance()).toBe('500');
      await adminContext.close();
    });

    await test.step('the maker sees who approved it, on the profile and in My Requests', async () => {
      await expect(
        page.getByText(/Approved by Ada Admin: \+500\.00 BTC \(\$[\d,]+\.\d{2}\), .*Reason: Bonus confirmed with the customer/),
      ).toBeVisible({
        timeout: 10_000,
      });
      await openAs(page, worker, '/dashboard/worker/approvals');
      await expect(page.getByRole('heading', { name: 'My requests' })).toBeVisible();
      // A table: date, customer, amount, value, status and checker, each in its own column.
      const mine = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Checker' }) });
      const request = mine.getByRole('row').filter({ hasText: 'Carla Customer' });
      await expect(request.getByRole('cell').nth(0)).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}$/);
      await expect(request.getByRole('cell').nth(2)).toHaveText('+500.00 BTC');
      await expect(request.getByRole('cell').nth(3)).toHaveText(/^\$[\d,]+\.\d{2}$/);
      await expect(request.getByRole('cell').nth(4)).toHaveText('Approved');
      await expect(request.getByRole('cell').nth(5)).toContainText('Ada Admin');
      await expect(request.getByRole('cell').nth(5)).toContainText('Reason: Bonus confirmed with the customer');
      await page.screenshot({ path: `${screens}/approvals-my-requests.png`, fullPage: true });
      await expect(page.getByRole('heading', { name: 'Waiting for your approval' })).toHaveCount(0);
    });
    await managerContext.close();
  });
});
