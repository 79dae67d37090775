import { expect, test, type Page } from '@playwright/test';
import { screens, signInNewCustomer } from './helpers.js';

/*
 * The customer's money screens (spec 001) in the states a new customer cannot reach by
 * itself: staff-set flags, notes, addresses and KYC status put into the real answers, empty
 * lists, failed loads and a stubbed send. The screens on the real answers: money.e2e.ts.
 */

test.describe('customer money screens, with answers changed in the browser', () => {
  // Flags, KYC status, notes and addresses are set by staff; here they are put into the real answer.
  async function patchProfile(page: Page, patch: Record<string, unknown>) {
    await page.route('**/functions/v1/get-user-profile-details', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...body, ...patch } });
    });
  }

  test('the receive tab shows an assigned address with its QR code, and copies it', async ({ page, request, context }) => {
    await signInNewCustomer(page, request, 'receive');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    await patchProfile(page, { addresses: { BTC: address } });
    await page.goto('/dashboard/wallets');
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click();
    const modal = page.getByRole('dialog', { name: 'Bitcoin (BTC)' });
    await modal.getByRole('tab', { name: 'Receive' }).click();
    await expect(modal.getByTestId('deposit-address')).toHaveText(address);
    const qr = modal.getByRole('img', { name: 'QR code of your BTC deposit address' });
    await expect(qr).toBeVisible();
    await expect(qr).toHaveAttribute('width', '160');
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);

    await modal.getByRole('button', { name: 'Copy address' }).click();
    await expect(modal.getByText('Address copied to clipboard!')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await page.screenshot({ path: `${screens}/wallet-receive-address.png` });
    // The notice lasts 2 s.
    await expect(modal.getByText('Address copied to clipboard!')).toBeHidden({ timeout: 3_000 });

    // A refused copy says so.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
        configurable: true,
      });
    });
    await modal.getByRole('button', { name: 'Copy address' }).click();
    await expect(modal.getByText('Failed to copy address.')).toBeVisible();
  });

  test('flags off: greyed tabs, Not Permitted and the notes; the dashboard note; KYC pending', async ({ page, request }) => {
    await signInNewCustomer(page, request, 'flags');
    await patchProfile(page, {
      can_buy: false,
      buy_disabled_note: null,
      can_sell: false,
      sell_disabled_note: 'Withdrawals are paused while we review your account.',
      dashboard_note: 'Scheduled maintenance on Sunday, 02:00-03:00 UTC.',
      kyc_status: 'pending',
    });
    await page.goto('/dashboard/overview');
    await expect(page.getByRole('status').filter({ hasText: 'Scheduled maintenance on Sunday, 02:00-03:00 UTC.' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'KYC Pending Review' })).toBeVisible();
    await expect(page.getByText('1-2 business days')).toBeVisible();
    await expect(page.locator('.kyc-card .badge')).toHaveText('Pending');
    await expect(page.getByRole('button', { name: 'Verify Now' })).toHaveCount(0);

    await page.goto('/dashboard/payments');
    await expect(page.getByRole('tab', { name: 'Withdrawal' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Withdrawal (not permitted)' })).toBeVisible();
    await expect(page.getByText('Withdrawals are paused while we review your account.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Not Permitted' })).toBeDisabled();
    await page.getByRole('tab', { name: 'Deposit (not permitted)' }).click();
    await expect(page.getByText('You do not have permission to make deposits.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Not Permitted' })).toBeDisabled();
    await page.screenshot({ path: `${screens}/payments-not-permitted.png` });
  });

  test('no saved methods: the empty texts of each tab', async ({ page, request }) => {
    await signInNewCustomer(page, request, 'no-methods');
    await page.goto('/dashboard/payments');
    await expect(page.getByText('No payment methods available. Please add one.')).toBeVisible();
    await page.getByRole('tab', { name: 'Deposit' }).click();
    await expect(page.getByText('No credit cards available. Please add one.')).toBeVisible();
    // "Please add one." leads to where one is added.
    await page.getByRole('link', { name: 'Please add one.' }).click();
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
    await expect(page.getByRole('tab', { name: 'Payment Methods' })).toHaveAttribute('aria-selected', 'true');
  });

  test('failed loads show their error banners', async ({ page, request }) => {
    await signInNewCustomer(page, request, 'errors');
    await page.route('**/functions/v1/crypto-prices', (route) =>
      route.fulfill({ status: 503, json: { error: 'Failed to load market data.' } }),
    );
    await page.route('**/functions/v1/get-user-profile-details', (route) => route.abort());
    await page.route(/\/api\/v1\/transactions\?/, (route) => route.fulfill({ status: 500, json: { error: 'Database is down.' } }));
    await page.route('**/api/v1/payment-methods', (route) => route.abort());

    await page.goto('/dashboard/overview');
    await expect(page.getByRole('alert').filter({ hasText: 'Error: Failed to load market data.' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Error: Failed to fetch wallet details.' })).toBeVisible();
    await expect(page.getByText('Failed to fetch recent transactions.')).toBeVisible();
    // An unknown KYC status reads as not verified.
    await expect(page.getByRole('heading', { level: 2, name: 'KYC Not Verified' })).toBeVisible();

    await page.goto('/dashboard/transactions');
    await expect(page.getByRole('alert')).toHaveText('Error loading transactions: Database is down.');

    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'Payment Methods' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to load payment methods.' })).toBeVisible();
  });

  test('a send that went through: the notice for 3 s, fields cleared, balances read again (send answer stubbed)', async ({
    page,
    request,
  }) => {
    await signInNewCustomer(page, request, 'send-ok');
    await patchProfile(page, { balances: { BTC: '0.5' } });
    let sent: unknown = null;
    await page.route('**/functions/v1/create-pending-withdrawal', async (route) => {
      sent = route.request().postDataJSON();
      expect(route.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      await route.fulfill({ json: { success: true, transactionId: '00000000-0000-4000-8000-000000000000' } });
    });
    await page.goto('/dashboard/wallets');
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click();
    const modal = page.getByRole('dialog', { name: 'Bitcoin (BTC)' });
    await expect(modal.getByText('Balance: 0.50000000 BTC')).toBeVisible();
    await modal.getByLabel('Amount (BTC)').fill('0.25');
    await modal.getByLabel('Recipient Address').fill('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    const reread = page.waitForRequest('**/functions/v1/get-user-profile-details');
    await modal.getByRole('button', { name: 'Send BTC' }).click();
    await expect(modal.getByText('Transaction has been successfully sent for approval.')).toBeVisible();
    await reread;
    expect(sent).toEqual({ assetId: 'BTC', amount: '0.25', recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    await expect(modal.getByLabel('Amount (BTC)')).toHaveValue('');
    await expect(modal.getByLabel('Recipient Address')).toHaveValue('');
    await expect(modal.getByText('Transaction has been successfully sent for approval.')).toBeHidden({ timeout: 4_000 });
  });

  test('send checks the amount against the available balance; pending deposits do not count', async ({ page, request }) => {
    await signInNewCustomer(page, request, 'send-available');
    // Effective 1.5 BTC (shown in the list), available 0.5 BTC (what the server lets leave).
    await patchProfile(page, { balances: { BTC: '0.5' }, pendingDeposits: { BTC: '1' } });
    let sends = 0;
    page.on('request', (req) => {
      if (req.url().includes('/functions/v1/create-pending-withdrawal')) sends++;
    });
    await page.goto('/dashboard/wallets');
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click();
    const modal = page.getByRole('dialog', { name: 'Bitcoin (BTC)' });
    await expect(modal.getByText('Balance: 1.50000000 BTC')).toBeVisible();
    await modal.getByLabel('Amount (BTC)').fill('1');
    await modal.getByLabel('Recipient Address').fill('0x1234');
    await modal.getByRole('button', { name: 'Send BTC' }).click();
    await expect(
      modal.getByText('Insufficient funds, this wallet might not have enough balance to send or pending transactions.'),
    ).toBeVisible();
    await page.screenshot({ path: '/tmp/shots/send-insufficient-available.png' });
    expect(sends).toBe(0);

    // Within what is available, so the server decides: the address is not a Bitcoin one.
    await modal.getByLabel('Amount (BTC)').fill('0.25');
    await modal.getByRole('button', { name: 'Send BTC' }).click();
    await expect(modal.getByRole('alert').filter({ hasText: 'This is not a valid Bitcoin address for BTC.' })).toBeVisible();
    expect(sends).toBe(1);
  });

  test('Transactions pages through 10 at a time', async ({ page, request }) => {
    test.setTimeout(60_000);
    const user = await signInNewCustomer(page, request, 'paging');
    const { session } = user;
    const headers = { Authorization: `Bearer ${session.access_token}` };
    const added = await request.post('/functions/v1/add-raw-payment-method', {
      headers,
      data: { type: 'credit_card', cardNumber: '4242424242424242', cardHolderName: 'Page Turner', expiryDate: '12/30', cvv: '123' },
    });
    expect(added.ok(), await added.text()).toBe(true);
    const cardId = ((await added.json()) as { paymentMethod: { id: string } }).paymentMethod.id;
    for (let i = 1; i <= 11; i += 1) {
      const deposit = await request.post('/functions/v1/create-deposit-request', {
        headers,
        data: { tokenId: 'BTC', amount: `0.0${i < 10 ? `0${i}` : i}`, paymentMethodId: cardId, userId: session.user.id },
      });
      expect(deposit.ok(), await deposit.text()).toBe(true);
    }

    await page.goto('/dashboard/transactions');
    await expect(page.getByText('Page 1 of 2 (Total: 11)')).toBeVisible();
    await expect(page.locator('.tx-list > li')).toHaveCount(10);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Page 2 of 2 (Total: 11)')).toBeVisible();
    await expect(page.locator('.tx-list > li')).toHaveCount(1);
    // The oldest: 0.001 BTC less 1%.
    await expect(page.locator('.tx-list > li').first()).toContainText('+0.00099000 BTC');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page.getByText('Page 1 of 2 (Total: 11)')).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${screens}/transactions-paged.png` });
  });
});
