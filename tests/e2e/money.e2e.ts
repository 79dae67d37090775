import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, screens, signInNewCustomer } from './helpers.js';

/*
 * The customer's money screens (spec 001: Overview, Wallets, Payments, Transactions and
 * Settings > Payment Methods) against the real server. A new customer has no balance and
 * no deposit address: deposits stay Pending until staff act, and addresses are set by staff.
 */

const LIST_DATE = /^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}$/;
const DETAIL_DATE = /^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}$/;
const SHORT_DATE = /\d{2} [A-Z][a-z]{2} \| \d{2}:\d{2}/;
const USD = /^\$\d{1,3}(,\d{3})*\.\d{2}$/;

test.describe('customer money screens', () => {
  test('add a card, deposit, see it pending on the overview and in transactions; withdrawal and send checks', async ({ page, request }) => {
    test.setTimeout(150_000);
    const user = await signInNewCustomer(page, request, 'money', 'Mona Money');
    await page.setViewportSize({ width: 1280, height: 900 });

    await test.step('a new customer sees an empty overview', async () => {
      await expect(page.getByRole('heading', { level: 2, name: 'Bitcoin' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Ethereum' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'KYC Not Verified' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Verify Now' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Learn More' })).toBeVisible();
      await expect(page.getByText('Includes pending deposits and withdrawals')).toBeVisible();
      await expect(page.getByText('No recent transactions found.')).toBeVisible();
      await expect(page.getByText('US Dollars')).toBeVisible();
      // Prices arrive with 2 decimals and thousands separators.
      await expect(page.locator('.price-card__price').first()).toHaveText(USD);
      await expect(page.getByTestId('total-balance')).toHaveText('$0.00');
      await expect(page.getByRole('link', { name: 'See All ->' })).toHaveAttribute('href', '/dashboard/transactions');
    });

    await test.step('Account Settings: basic details, then add, check and delete payment methods', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Account Settings' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('heading', { level: 2, name: 'Basic Details' })).toBeVisible();
      await expect(page.getByLabel('Email')).toHaveValue(user.email);
      await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
      for (const name of ['Notifications', 'Verification', 'Payment Methods', 'Security']) {
        await expect(page.getByRole('tab', { name })).toBeVisible();
      }

      await page.getByRole('tab', { name: 'Payment Methods' }).click();
      await expect(page.getByText('No payment methods added yet.')).toBeVisible();

      await page.getByRole('button', { name: 'Add New' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Payment Method' });
      await expect(dialog.getByRole('tab', { name: 'Credit Card' })).toHaveAttribute('aria-selected', 'true');
      await dialog.getByRole('button', { name: 'Add Card' }).click();
      await expect(dialog.getByText('Please fill in all required fields')).toBeVisible();

      // MM/YY is formatted while typing and holds 5 characters at most; the CVV 4 digits.
      const expiry = dialog.getByLabel('Expiry Date');
      await expiry.pressSequentially('123456');
      await expect(expiry).toHaveValue('12/34');
      await expiry.fill('1230');
      await expect(expiry).toHaveValue('12/30');
      const cvv = dialog.getByLabel('CVV');
      await cvv.pressSequentially('12a345');
      await expect(cvv).toHaveValue('1234');
      await cvv.fill('123');

      // The server's own check of the number is shown.
      await dialog.getByLabel('Card Number').fill('4242 4242 4242 4241');
      await dialog.getByLabel('Card Holder Name').fill('Mona Money');
      await dialog.getByRole('button', { name: 'Add Card' }).click();
      await expect(dialog.getByText('Card number is invalid.')).toBeVisible();
      await dialog.getByLabel('Card Number').fill('4242 4242 4242 4242');
      await page.screenshot({ path: `${screens}/add-card.png` });
      await dialog.getByRole('button', { name: 'Add Card' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Visa •••• 4242')).toBeVisible();
      await expect(page.getByText('Expires 12/30')).toBeVisible();

      // A bank account: both fields are required; then it is added and deleted again.
      await page.getByRole('button', { name: 'Add New' }).click();
      await dialog.getByRole('tab', { name: 'Bank Account' }).click();
      await dialog.getByLabel('Bank Name').fill('First Test Bank');
      await dialog.getByRole('button', { name: 'Add Bank Account' }).click();
      await expect(dialog.getByText('Please fill in all required fields')).toBeVisible();
      await dialog.getByLabel('Account Number').fill('DE89 3704 0044 0532 0130 00');
      await dialog.getByRole('button', { name: 'Add Bank Account' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('First Test Bank •••• 3000')).toBeVisible();
      await page.screenshot({ path: `${screens}/settings-payment-methods.png` });

      await page.getByRole('button', { name: 'Delete First Test Bank •••• 3000' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete Payment Method' });
      await expect(confirm).toContainText('Are you sure you want to delete');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByText('First Test Bank •••• 3000')).toBeVisible();
      await page.getByRole('button', { name: 'Delete First Test Bank •••• 3000' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByText('First Test Bank •••• 3000')).toBeHidden();
      await expect(page.getByText('Visa •••• 4242')).toBeVisible();
    });

    await test.step('Buy Crypto opens the Deposit tab; a deposit is requested', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('button', { name: 'Buy Crypto' }).click();
      await expect(page).toHaveURL(/\/dashboard\/payments$/);
      await expect(page.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');

      // Nothing chosen yet: the three section-5 checks.
      await page.getByRole('button', { name: 'Deposit', exact: true }).click();
      await expect(page.getByText('Please enter a valid amount')).toBeVisible();
      await expect(page.getByText('Please select a token')).toBeVisible();
      await expect(page.getByText('Please select a payment method')).toBeVisible();

      // Digits and one point only.
      const amount = page.getByLabel('Amount');
      await amount.fill('1a.2.5');
      await expect(amount).toHaveValue('1.25');

      await page.getByLabel('Payment Method').selectOption({ label: 'Visa •••• 4242 (exp. 12/30)' });
      await page.getByLabel('Token').selectOption('USDT');
      await amount.fill('100');
      await expect(page.locator('.fee-lines')).toContainText('Fee (1%)1.00 USDT');
      await expect(page.locator('.fee-lines')).toContainText('Total100.00 USDT');
      await expect(page.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/dashboard/settings');

      const links = page.getByRole('region', { name: 'Safe way to buying cryptocurrencies' }).getByRole('link');
      await expect(links).toHaveCount(3);
      for (const link of await links.all()) {
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      }
      await page.screenshot({ path: `${screens}/payments-deposit.png` });

      await page.getByRole('button', { name: 'Deposit', exact: true }).click();
      await expect(page.getByText('Deposit request submitted successfully!')).toBeVisible();
      await expect(amount).toHaveValue('');
    });

    await test.step('a withdrawal beyond the available balance is refused inline and on submit', async () => {
      await page.getByRole('tab', { name: 'Withdrawal' }).click();
      await page.getByLabel('Payment Method').selectOption({ label: 'Visa •••• 4242 (exp. 12/30)' });
      await page.getByLabel('Token').selectOption('USDT');
      // The deposit is still pending: nothing is available yet.
      await expect(page.getByText('Available: 0.00000000 USDT')).toBeVisible();
      await page.getByLabel('Amount').fill('10');
      await expect(page.getByText('Insufficient balance (with fee: 10.10 USDT)')).toBeVisible();
      await expect(page.locator('.fee-lines')).toContainText('Total10.10 USDT');
      await page.screenshot({ path: `${screens}/payments-withdrawal.png` });
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Insufficient USDT balance' })).toBeVisible();
    });

    await test.step('Edit leads to the Payment Methods tab', async () => {
      await page.getByRole('link', { name: 'Edit' }).click();
      await expect(page).toHaveURL(/\/dashboard\/settings$/);
      await expect(page.getByRole('tab', { name: 'Payment Methods' })).toHaveAttribute('aria-selected', 'true');
    });

    await test.step('the pending deposit shows on the overview', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }).click();
      const recent = page.getByRole('region', { name: 'Recent Transactions' });
      const row = recent.getByRole('listitem').first();
      // 100 charged to the card, 1% fee: 99 USDT pending, shown with 4 decimals and its sign.
      await expect(row).toContainText('USDT Received');
      await expect(row).toContainText('+99.0000 USDT');
      await expect(row).toContainText(SHORT_DATE);
      await expect(row.locator('.tx-icon--pending')).toBeVisible();
      const balances = page.getByRole('region', { name: 'Current Balance' });
      await expect(balances.getByRole('listitem').filter({ hasText: 'US Dollars' })).toContainText('99.00000000 USDT');
      // The total includes the pending deposit (99 x the USDT price), counted up over 1.5 s.
      await expect(page.getByTestId('total-balance')).not.toHaveText('$0.00');
      await expect(page.getByTestId('total-balance')).toHaveText(/^\$9\d\.\d{2}$/);
      await page.waitForTimeout(1_600);
      await page.screenshot({ path: `${screens}/overview.png` });
    });

    await test.step('Transactions lists it with its status and dates', async () => {
      await recentSeeAll(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
      const row = page.locator('.tx-list button').first();
      await expect(row).toContainText('Deposit');
      await expect(row).toContainText('+99.00000000 USDT');
      await expect(row.locator('.status-badge--pending')).toHaveText('Pending');
      await expect(row.locator('.tx-row__date')).toHaveText(LIST_DATE);
      await expect(page.getByText('Page 1 of 1 (Total: 1)')).toHaveCount(0);
      await page.screenshot({ path: `${screens}/transactions.png` });

      await row.click();
      const detail = page.getByRole('dialog', { name: 'Transaction Details' });
      await expect(detail).toBeVisible();
      const field = (label: string) =>
        detail
          .locator('.detail-list__item')
          .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
          .locator('dd');
      await expect(field('Date')).toHaveText(DETAIL_DATE);
      await expect(field('Created')).toHaveText(DETAIL_DATE);
      await expect(field('Type')).toHaveText('Deposit');
      await expect(field('Status')).toHaveText('Pending');
      await expect(field('Amount')).toHaveText('+99.00000000 USDT');
      await expect(field('Fee')).toHaveText('1.00000000 USDT');
      await page.screenshot({ path: `${screens}/transaction-detail.png` });
      await detail.getByRole('button', { name: 'Close', exact: true }).last().click();
      await expect(detail).toBeHidden();
    });

    await test.step('Wallets: send checks, the server refuses a bad address, receive has no address yet', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Wallets' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Wallets' })).toBeVisible();
      const summary = page.getByRole('region', { name: 'Your Assets' });
      await expect(summary.getByText('Current Balance')).toBeVisible();
      await expect(summary.getByText('Available')).toBeVisible();
      await expect(page.getByTestId('assets-current')).toHaveText(/^\$9\d\.\d{2}$/);
      await expect(page.getByTestId('assets-available')).toHaveText('$0.00');
      await expect(page.locator('.wallet-list > li')).toHaveCount(10);
      // The whole list in one window (a full-page shot would cut the fixed sidebar short).
      await page.setViewportSize({ width: 1280, height: 1200 });
      await page.screenshot({ path: `${screens}/wallets.png` });
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByRole('button', { name: /^Tether USDT \(USDT\)/ }).click();
      const modal = page.getByRole('dialog', { name: 'Tether USDT (USDT)' });
      await expect(modal.getByRole('tab', { name: 'Send' })).toHaveAttribute('aria-selected', 'true');
      await modal.getByRole('button', { name: 'Send USDT' }).click();
      await expect(modal.getByText('Please enter a valid positive amount.')).toBeVisible();
      await expect(modal.getByText('Please enter a recipient address.')).toBeVisible();

      await modal.getByLabel('Amount (USDT)').fill('1000');
      await modal.getByLabel('Recipient Address').fill('0x1234');
      await modal.getByRole('button', { name: 'Send USDT' }).click();
      await expect(
        modal.getByText('Insufficient funds, this wallet might not have enough balance to send or pending transactions.'),
      ).toBeVisible();

      // Within the shown balance, but that is all a pending deposit: nothing is available to send yet.
      await modal.getByLabel('Amount (USDT)').fill('1');
      await modal.getByRole('button', { name: 'Send USDT' }).click();
      await expect(
        modal.getByText('Insufficient funds, this wallet might not have enough balance to send or pending transactions.'),
      ).toBeVisible();
      await page.screenshot({ path: `${screens}/wallet-send.png` });

      await modal.getByRole('tab', { name: 'Receive' }).click();
      await expect(modal.getByText('No deposit address has been assigned to this wallet yet.')).toBeVisible();
      await expect(modal.getByRole('img')).toHaveCount(0);
      await page.screenshot({ path: `${screens}/wallet-receive.png` });
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden();
    });
  });

  test('paste from the clipboard fills the recipient, and a refused clipboard says so', async ({ page, request, context, browserName }) => {
    test.skip(browserName !== 'chromium', 'clipboard permissions are granted the Chromium way');
    await signInNewCustomer(page, request, 'paste');
    await page.goto('/dashboard/wallets');
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click();
    const modal = page.getByRole('dialog', { name: 'Bitcoin (BTC)' });

    // No permission to read the clipboard: the failure is shown, not thrown.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { value: { readText: () => Promise.reject(new Error('denied')) }, configurable: true });
    });
    await modal.getByRole('button', { name: 'Paste address from clipboard' }).click();
    await expect(modal.getByText('Could not paste from clipboard.')).toBeVisible();

    await page.reload();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click();
    await page.evaluate(() => navigator.clipboard.writeText('  bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq  '));
    await modal.getByRole('button', { name: 'Paste address from clipboard' }).click();
    await expect(modal.getByLabel('Recipient Address')).toHaveValue('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await expect(modal.getByText('Could not paste from clipboard.')).toHaveCount(0);
  });

  test('the money screens fit a 360 px wide screen', async ({ page, request }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 360, height: 740 });
    await signInNewCustomer(page, request, 'money-mobile');
    await expect(page.getByText('No recent transactions found.')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.waitForTimeout(1_600);
    await page.screenshot({ path: `${screens}/overview-mobile.png`, fullPage: true });

    for (const [path, heading] of [
      ['/dashboard/wallets', 'Wallets'],
      ['/dashboard/payments', 'Payments'],
      ['/dashboard/transactions', 'Transactions'],
      ['/dashboard/settings', 'Account Settings'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('.skeleton')).toHaveCount(0);
      await expectNoHorizontalOverflow(page);
    }

    await page.goto('/dashboard/payments');
    await page.getByLabel('Amount').fill('12345.678');
    await page.getByLabel('Token').selectOption('BTC');
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `${screens}/payments-mobile.png`, fullPage: true });

    await page.goto('/dashboard/wallets');
    await page.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click();
    await expect(page.getByRole('dialog', { name: 'Bitcoin (BTC)' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `${screens}/wallet-send-mobile.png` });
  });
});

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

async function recentSeeAll(page: Page) {
  await page.getByRole('link', { name: 'See All ->' }).click();
  await expect(page).toHaveURL(/\/dashboard\/transactions$/);
}
