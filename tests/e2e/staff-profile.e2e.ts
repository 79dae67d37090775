import { deflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import {
  bearer,
  createConfirmedUser,
  enrolAuthenticator,
  apiSignIn,
  waitForMail,
  demoAdminSession,
  expectNoHorizontalOverflow,
  expectReachableOnPhone,
  screens,
  signInNewCustomer,
  uniqueEmail,
  type ApiSession,
  demoManagerSession,
  openAs,
  passwordSession,
  solveCaptcha,
} from './helpers.js';

/*
 * The staff User Profile (spec 002): a manager's worker claims a customer, sets a BTC
 * address, adds a Pending deposit and marks it Complete; the customer's balance and
 * notification follow; the event trail shows each step with the worker's name.
 */

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** A small real PNG (a 4x4 teal square). */
function pngLogo(): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'ascii');
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4, 0);
  ihdr.writeUInt32BE(4, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [0x14, 0xb8, 0xa6]).flat()]);
  const pixels = Buffer.concat([row, row, row, row]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function profileNav(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'User profile' }).getByRole('link', { name, exact: true });
}

test.describe('staff user profile', () => {
  test("an admin removes a customer's lost authenticator with a reason; the customer signs in with the password alone", async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const customer = await createConfirmedUser(request, 'lost-authenticator', 'Lena Lost');
    const session = await apiSignIn(request, customer.email, customer.password);
    await enrolAuthenticator(request, session);
    const admin = await demoAdminSession(request);
    await openAs(page, admin, `/dashboard/user-profile/${session.user.id}/general`);
    const card = page.locator('section[aria-labelledby="mfa-reset-title"]');
    // On a phone the General tab, with the admin's Remove Two-Factor Authentication card, fits the window.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card.getByRole('button', { name: 'Remove Two-Factor Authentication' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Login History' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `${screens}/staff-profile-general-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await card.getByRole('button', { name: 'Remove Two-Factor Authentication' }).click();
    await expect(card.getByText('Please give a reason for removing two-factor authentication.')).toBeVisible();
    await card.getByLabel('Reason (recorded and sent to the customer)').fill('Lost phone; identity checked by video call');
    await card.getByRole('button', { name: 'Remove Two-Factor Authentication' }).click();
    await expect(card.getByText('Two-factor authentication removed. The customer has been informed by e-mail.')).toBeVisible();
    await page.screenshot({ path: `${screens}/staff-profile-remove-mfa.png` });
    const mail = await waitForMail(request, customer.email, 'Your two-factor authentication was removed by our staff');
    expect(mail.text).toContain('Reason given: Lost phone; identity checked by video call');
    const again = await apiSignIn(request, customer.email, customer.password);
    expect(again.user.factors).toEqual([]);
  });

  test('a worker sets an address, adds a pending deposit and completes it; the customer and the event trail follow', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Set-up through the API: the manager creates a worker, the worker sets their own password and claims the customer.
    const manager = await demoManagerSession(request);
    const workerEmail = uniqueEmail('profile-worker');
    const created = await request.post('/functions/v1/create-worker-for-manager', {
      headers: bearer(manager),
      data: { fullName: 'Wanda Worker', email: workerEmail, password: 'Given-by-manager-1' },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const first = (await (await passwordSession(request, workerEmail, 'Given-by-manager-1')).json()) as ApiSession;
    expect((await request.put('/auth/v1/user', { headers: bearer(first), data: { password: 'Worker-own-pass-9' } })).ok()).toBe(true);
    const worker = (await (await passwordSession(request, workerEmail, 'Worker-own-pass-9')).json()) as ApiSession;

    const customerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const customerPage = await customerContext.newPage();
    const customer = await signInNewCustomer(customerPage, request, 'profile-customer', 'Paula Profile');
    const userId = customer.session.user.id;
    const card = await request.post('/functions/v1/add-raw-payment-method', {
      headers: bearer(customer.session),
      data: { type: 'credit_card', cardNumber: '4000056655665556', cardHolderName: 'Paula Profile', expiryDate: '10/41', cvv: '999' },
    });
    expect(card.ok(), await card.text()).toBe(true);
    // A sign-in from Firefox: the server records it with the sign-in's own browser.
    const firefox = await request.post('/auth/v1/token?grant_type=password', {
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0' },
      data: { email: customer.email, password: customer.password, gotrue_meta_security: { captcha_token: await solveCaptcha(request) } },
    });
    expect(firefox.ok(), await firefox.text()).toBe(true);
    const claim = await request.post('/functions/v1/claim-user', { headers: bearer(worker), data: { userIdToClaim: userId } });
    expect(claim.ok(), await claim.text()).toBe(true);

    await test.step("another user's profile is refused with the reason and a way back", async () => {
      const stranger = await createConfirmedUser(request, 'profile-stranger');
      const strangerSession = (await (await passwordSession(request, stranger.email, stranger.password)).json()) as ApiSession;
      await openAs(page, worker, `/dashboard/user-profile/${strangerSession.user.id}`);
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
      await expect(page.getByText('Access Denied: You do not have permission to view this profile.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard/worker/my-users');
      await page.screenshot({ path: `${screens}/staff-profile-access-denied.png`, fullPage: true });
    });

    await test.step('a customer never gets the staff profile shell, even for their own account: they land on the overview', async () => {
      // Whether the page ever shows "Loading..." on the profile's path: the redirect comes from the
      // session's role before any of the dashboard's code loads, so it must not (the watch ends on leaving the path).
      await customerPage.addInitScript(() => {
        const w = window as unknown as { loadingOnProfile: boolean };
        w.loadingOnProfile = false;
        const watch = new MutationObserver(() => {
          if (!window.location.pathname.startsWith('/dashboard/user-profile')) return watch.disconnect();
          if (document.body?.textContent?.includes('Loading...')) w.loadingOnProfile = true;
        });
        watch.observe(document, { subtree: true, childList: true, characterData: true });
      });
      const started = Date.now();
      await customerPage.goto(`/dashboard/user-profile/${userId}`);
      await expect(customerPage).toHaveURL(/\/dashboard\/overview$/, { timeout: 2_000 });
      expect(Date.now() - started, 'ms from opening the profile to the overview').toBeLessThan(2_000);
      expect(await customerPage.evaluate(() => (window as unknown as { loadingOnProfile: boolean }).loadingOnProfile)).toBe(false);
      await expect(customerPage.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
      await expect(customerPage.getByRole('heading', { level: 1, name: 'User Profile' })).toHaveCount(0);
    });

    await test.step('General: details, note, permissions and login history', async () => {
      await page.goto(`/dashboard/user-profile/${userId}`);
      await expect(page).toHaveURL(new RegExp(`/dashboard/user-profile/${userId}/general$`));
      await expect(page.getByRole('heading', { level: 1, name: 'User Profile' })).toBeVisible();
      await expect(page.getByText(`Managing user: ${userId}`)).toBeVisible();
      await expect(page.getByRole('link', { name: '← Back to My Users' })).toBeVisible();
      await expect(page.getByText(customer.email)).toBeVisible();
      await expect(page.getByText('Not Banned')).toBeVisible();
      await expect(page.getByText('Not Started')).toBeVisible();
      await page.getByLabel(/Note shown on the user's dashboard/).fill('Your deposit is on its way.');
      await page.getByRole('button', { name: 'Send Note' }).click();
      await expect(page.getByText('Dashboard note updated successfully!')).toBeVisible();

      await page.getByRole('switch', { name: /Can Send/ }).uncheck();
      await expect(page.getByText('Unsaved changes')).toBeVisible();
      await page.getByLabel('Send disabled note (shown to the user)').fill('Sending is paused while we review your account.');
      await page.getByRole('button', { name: 'Save Permissions' }).click();
      await expect(page.getByText('Permissions updated successfully!')).toBeVisible();
      await expect(page.getByText('Unsaved changes')).toBeHidden();

      await expect(page.getByRole('button', { name: 'Update Password' })).toBeDisabled();
      await page.getByLabel('New Password').fill('12345');
      await expect(page.getByRole('button', { name: 'Update Password' })).toBeDisabled();
      // The hint and the checks say the one password rule (8 with a digit), before anything is sent.
      await expect(page.getByText(/^At least 8 characters, including at least one number\./)).toBeVisible();
      await page.getByLabel('New Password').fill('abcdefg');
      await page.getByRole('button', { name: 'Update Password' }).click();
      await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();
      await page.getByLabel('New Password').fill('abcdefgh');
      await page.getByRole('button', { name: 'Update Password' }).click();
      await expect(page.getByText('Password must contain at least one number.')).toBeVisible();
      await page.getByLabel('New Password').fill('');
      await expect(page.getByRole('heading', { name: 'Login History' })).toBeVisible();
      await expect(page.getByRole('columnheader', { name: 'Date & Time' })).toBeVisible();
      await expect(page.getByRole('cell', { name: 'Firefox 121 on Linux' })).toBeVisible();
      await page.screenshot({ path: `${screens}/staff-profile-general.png`, fullPage: true });
      await page.getByRole('button', { name: 'Ban User' }).click();
      await expect(page.getByRole('dialog', { name: 'Ban User' })).toBeVisible();
      await page.screenshot({ path: `${screens}/staff-profile-ban-confirm.png` });
      await page.getByRole('dialog', { name: 'Ban User' }).getByRole('button', { name: 'Cancel' }).click();
    });

    await test.step('Wallets: the worker sets the BTC address and adds a Pending deposit', async () => {
      await profileNav(page, 'Wallets').click();
      const btc = page.locator('tr[data-asset="BTC"]');
      await expect(page.locator('tr[data-asset]')).toHaveCount(10);
      // On a phone each asset is a card: balance and both actions on screen, no sideways scroll.
      await expectReachableOnPhone(
        page,
        [
          btc.locator('td[data-label="Balance"]'),
          btc.getByRole('button', { name: 'Update Address BTC' }),
          btc.getByRole('button', { name: 'Add Tx BTC' }),
        ],
        'staff-profile-wallets-phone.png',
        { width: 1280, height: 900 },
      );
      await btc.getByRole('button', { name: 'Update Address BTC' }).click();
      const addressDialog = page.getByRole('dialog', { name: 'Update BTC Address' });
      await addressDialog.getByLabel('BTC deposit address *').fill('   ');
      await addressDialog.getByRole('button', { name: 'Save Address' }).click();
      await expect(addressDialog.getByText('Missing required information or address is empty.')).toBeVisible();
      await addressDialog.getByLabel('BTC deposit address *').fill(BTC_ADDRESS);
      await addressDialog.getByRole('button', { name: 'Save Address' }).click();
      await expect(addressDialog.getByText('Address updated successfully!')).toBeVisible();
      await expect(addressDialog).toBeHidden({ timeout: 5_000 });
      await expect(btc).toContainText(BTC_ADDRESS);

      await btc.getByRole('button', { name: 'Add Tx BTC' }).click();
      const txDialog = page.getByRole('dialog', { name: 'Add BTC Transaction' });
      // The native date input's value, said beside it in the format module's short form.
      await expect(txDialog.getByLabel('Sent At *')).toHaveAccessibleDescription(
        /^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2} \(your time zone\)$/,
      );
      await txDialog.getByRole('button', { name: 'Add Transaction' }).click();
      await expect(txDialog.getByText('Please fill in all required fields (*).')).toBeVisible();
      // The server's amount rule, checked before anything is sent: no leading point or zero, no exponent or hex, at most 18 decimals.
      await txDialog.getByLabel('Sender Address *').fill('bc1qsenderexchangewallet000000000000000000');
      let addTxCalls = 0;
      const countAddTx = (req: { url(): string }) => {
        if (req.url().includes('/functions/v1/add-transaction')) addTxCalls++;
      };
      page.on('request', countAddTx);
      for (const amount of ['.5', '05', '1e3', '0x10', '0.0000000000000000001']) {
        await txDialog.getByLabel('Amount *').fill(amount);
        await txDialog.getByRole('button', { name: 'Add Transaction' }).click();
        await expect(txDialog.getByText('Please fill in all required fields (*).')).toBeVisible();
        if (amount === '.5') await page.screenshot({ path: '/tmp/shots/staff-add-tx-amount-refused.png' });
      }
      page.off('request', countAddTx);
      expect(addTxCalls).toBe(0);
      await txDialog.getByLabel('Amount *').fill('0.5');
      await txDialog.getByLabel('TxID').fill('4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b');
      await txDialog.getByLabel(/Note/).fill('Bank wire received, ref 7781');
      await page.screenshot({ path: `${screens}/staff-profile-add-tx.png` });
      await txDialog.getByRole('button', { name: 'Add Transaction' }).click();
      await expect(txDialog.getByText('Transaction added successfully!')).toBeVisible();
      await expect(txDialog).toBeHidden({ timeout: 5_000 });
      await expect(btc).toContainText('+0.50000000 pending');
      await expect(btc).toContainText('0.00000000');
      await page.screenshot({ path: `${screens}/staff-profile-wallets.png`, fullPage: true });
    });

    await test.step('Transactions: the worker marks the deposit Complete', async () => {
      await profileNav(page, 'Transactions').click();
      await expect(page.getByRole('heading', { name: 'Transaction History' })).toBeVisible();
      const row = page.getByRole('button', { name: /BTC\s*Received/ });
      await expect(row).toContainText('+0.50 BTC');
      await expect(row).toContainText('Pending');
      await expect(row).toContainText('From: bc1qsenderexchangewallet000000000000000000');
      await expect(row).toHaveAttribute('title', 'Click to edit details');
      await row.click();
      const dialog = page.getByRole('dialog', { name: 'Edit Transaction' });
      await dialog.getByLabel('Status').selectOption('Complete');
      await page.screenshot({ path: `${screens}/staff-profile-edit-tx.png` });
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await expect(dialog.getByText('Transaction updated successfully!')).toBeVisible();
      await expect(dialog).toBeHidden({ timeout: 5_000 });
      await expect(row).toContainText('Complete');
      await page.screenshot({ path: `${screens}/staff-profile-transactions.png`, fullPage: true });
    });

    await test.step('the customer sees the balance, the note and a notification', async () => {
      await customerPage.goto('/dashboard/overview');
      await expect(customerPage.getByText('Your deposit is on its way.')).toBeVisible();
      await expect(
        customerPage.getByRole('region', { name: 'Current Balance' }).getByRole('listitem').filter({ hasText: 'Bitcoin' }),
      ).toContainText('0.50000000 BTC');
      // Three unread: the staff notices of the permission change and of the new BTC address, and the deposit.
      await expect(customerPage.getByTestId('notification-count')).toHaveText('3');
      await customerPage.getByRole('button', { name: 'Open notifications (3 unread)' }).click();
      const bell = customerPage.getByRole('dialog', { name: 'Notifications' });
      await expect(bell).toContainText('Your deposit of 0.50 BTC has been completed.');
      await expect(bell).toContainText('A member of our staff changed what your account may do');
      await expect(bell).toContainText(`A member of our staff set a new BTC deposit address for your account: ${BTC_ADDRESS}.`);
    });

    await test.step('Payment Management: a custom buying link with a PNG logo; the customer sees it', async () => {
      await profileNav(page, 'Payment Management').click();
      const method = page.locator('.method-row').filter({ hasText: 'Visa' });
      await expect(method).toContainText('•••• 5556');
      await expect(method).toContainText('Expires 10/41');
      await expect(page.getByRole('button', { name: 'Delete', exact: true }).first()).toBeDisabled();
      await page.getByRole('button', { name: /View details of Visa ending 5556/ }).click();
      const raw = page.getByRole('dialog', { name: 'Payment Method Details (Raw)' });
      await expect(raw).toContainText('"last4": "5556"');
      await expect(raw).not.toContainText('4000056655665556');
      await expect(raw).not.toContainText('Paula Profile');
      await page.screenshot({ path: `${screens}/staff-profile-payment-method-raw.png` });
      await raw.getByRole('button', { name: 'Close' }).last().click();
      await expect(raw).toBeHidden();
      await expect(page.getByText('Manage crypto purchase options shown to this user')).toBeVisible();
      await expect(page.getByText('Default', { exact: true })).toHaveCount(3);
      await expect(page.getByText('No custom crypto buying links added yet.')).toBeVisible();
      await page.getByRole('button', { name: 'Add a link' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Crypto Buying Link' });
      await dialog.getByRole('button', { name: 'Save Link' }).click();
      await expect(dialog.getByText('Please enter a valid URL', { exact: false })).toBeVisible();
      await dialog.getByLabel('Website URL').fill('https://local-exchange.example.com/buy');
      await dialog.getByLabel('Link Name').fill('Local Exchange');
      await dialog.getByRole('button', { name: 'Save Link' }).click();
      await expect(dialog.getByText('Please upload a logo image')).toBeVisible();
      await dialog
        .getByLabel('Logo Image (PNG only, max 500KB)')
        .setInputFiles({ name: 'local exchange.png', mimeType: 'image/png', buffer: pngLogo() });
      await expect(dialog.getByRole('img', { name: 'Logo preview' })).toBeVisible();
      await page.screenshot({ path: `${screens}/staff-profile-add-link.png` });
      await dialog.getByRole('button', { name: 'Save Link' }).click();
      await expect(dialog).toBeHidden();
      const custom = page.getByRole('list', { name: 'Custom links' });
      await expect(custom.getByRole('link', { name: 'Local Exchange' })).toBeVisible();
      await expect.poll(() => custom.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(4);
      await page.screenshot({ path: `${screens}/staff-profile-payment-management.png`, fullPage: true });

      await customerPage.goto('/dashboard/payments');
      await expect(customerPage.getByRole('link', { name: /Local Exchange/ })).toBeVisible();
      await expect(customerPage.getByRole('link', { name: /Coinbase/ })).toBeVisible();
      const safeLinks = customerPage.getByRole('region', { name: 'Safe way to buying cryptocurrencies' });
      await expect.poll(() => safeLinks.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(4);
      await safeLinks.scrollIntoViewIfNeeded();
      await safeLinks.screenshot({ path: `${screens}/customer-buying-links.png` });
    });

    await test.step("Event trail: each step with the worker's name, filterable by kind", async () => {
      await profileNav(page, 'Event trail').click();
      await expect(page.getByRole('heading', { name: 'Event trail' })).toBeVisible();
      const rows = page.locator('tr[data-event-type]');
      await expect(rows.first()).toBeVisible();
      const settled = page.locator('tr[data-event-type="wallet.transaction-settled"]');
      await expect(settled).toContainText('Wanda Worker');
      await expect(settled).toContainText('Transaction marked Complete: +0.50 BTC');
      await expect(page.locator('tr[data-event-type="wallet.transaction-recorded"]')).toContainText('Bank wire received, ref 7781');
      await expect(page.locator('tr[data-event-type="user.wallet-address-set"]')).toContainText('Wanda Worker');
      await expect(page.locator('tr[data-event-type="user.permissions-updated"]')).toContainText('send off');
      await expect(page.locator('tr[data-event-type="buying-link.added"]')).toContainText('Local Exchange');
      await page.screenshot({ path: `${screens}/staff-profile-event-trail.png`, fullPage: true });
      await page.getByLabel('Kind').selectOption('money');
      await expect(page.locator('tr[data-event-type="user.permissions-updated"]')).toHaveCount(0);
      await expect(settled).toBeVisible();
      const text = await page.locator('.trail-table').innerText();
      expect(text).not.toMatch(/password|secret|token/i);
    });
    await test.step('an admin sees the balance just after each wallet event', async () => {
      const admin = await demoAdminSession(request);
      const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const adminPage = await adminContext.newPage();
      await openAs(adminPage, admin, `/dashboard/user-profile/${userId}/events`);
      await expect(adminPage.getByRole('columnheader', { name: 'Balance at this event' })).toBeVisible();
      await expect(adminPage.getByRole('link', { name: '← Back to My Users' })).toHaveCount(0);
      const recorded = adminPage.locator('tr[data-event-type="wallet.transaction-recorded"]');
      const settledRow = adminPage.locator('tr[data-event-type="wallet.transaction-settled"]');
      await recorded.getByRole('button', { name: 'Show' }).click();
      await expect(recorded).toContainText('0.00000000 BTC');
      await settledRow.getByRole('button', { name: 'Show' }).click();
      await expect(settledRow).toContainText('0.50000000 BTC');
      await adminPage.screenshot({ path: `${screens}/staff-profile-event-trail-admin.png`, fullPage: true });
      await adminContext.close();
    });
    await customerContext.close();
  });
});
