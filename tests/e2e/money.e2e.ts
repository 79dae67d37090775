import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, screens, signInNewCustomer } from './helpers.js';

/*
 * The customer's money screens (spec 001: Overview, Wallets, Payments, Transactions and
 * Settings > Payment Methods) against the real server. A new customer has no balance and
 * no deposit address: deposits stay Pending until staff act, and addresses are set by staff.
 * Those states, put into the answers in the browser: money-changed-answers.e2e.ts.
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

async function recentSeeAll(page: Page) {
  await page.getByRole('link', { name: 'See All ->' }).click();
  await expect(page).toHaveURL(/\/dashboard\/transactions$/);
}
