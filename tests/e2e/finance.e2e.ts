import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { bearer, demoAdminSession, screens, signInNewCustomer } from './helpers.js';

/* A customer downloads their own statement from the Transactions screen. */

test.describe('statement download', () => {
  test('the Transactions screen downloads the period as CSV: opening, the settled deposit, closing', async ({ page, request }) => {
    test.setTimeout(150_000);
    const user = await signInNewCustomer(page, request, 'statement', 'Stella Statement');
    await page.setViewportSize({ width: 1280, height: 900 });
    const customer = bearer(user.session);
    const card = await request.post('/functions/v1/add-raw-payment-method', {
      headers: customer,
      data: { type: 'credit_card', cardNumber: '4000056655665556', cardHolderName: 'Stella Statement', expiryDate: '10/41', cvv: '999' },
    });
    expect(card.ok(), await card.text()).toBe(true);
    const dep = await request.post('/functions/v1/create-deposit-request', {
      headers: customer,
      data: { tokenId: 'ETH', amount: '2', paymentMethodId: (await card.json()).paymentMethod.id, userId: user.session.user.id },
    });
    expect(dep.ok(), await dep.text()).toBe(true);
    const { transactionId } = (await dep.json()) as { transactionId: string };
    const admin = await demoAdminSession(request);
    const settled = await request.post('/functions/v1/update-transaction', {
      headers: bearer(admin),
      data: { targetUserId: user.session.user.id, transactionId, status: 'Complete' },
    });
    expect(settled.ok(), await settled.text()).toBe(true);

    await page.goto('/dashboard/transactions');
    await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill(today);
    await page.screenshot({ path: `${screens}/transactions-statement.png`, fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download statement (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`statement-${today}-to-${today}.csv`);
    const csv = fs
      .readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('section,booking_date,value_date,asset,transaction_id,type,description,reference,counterparty,amount,balance');
    expect(csv.slice(1).map((l) => [l.split(',')[0]!, ...l.split(',').slice(3)])).toEqual([
      ['opening', 'ETH', '', '', 'Opening balance', '', '', '', '0'],
      ['booked', 'ETH', transactionId, 'deposit', 'Deposit settled', '', '', '2', '2'],
      ['booked', 'ETH', transactionId, 'fee', 'Fee: Deposit', '', '', '-0.02', '1.98'],
      ['closing', 'ETH', '', '', 'Closing balance', '', '', '', '1.98'],
      ['available', 'ETH', '', '', 'Available balance', '', '', '', '1.98'],
    ]);

    // A period that ends before it starts is refused on the screen, before any call.
    await page.getByLabel('From', { exact: true }).fill('2026-05-02');
    await page.getByLabel('To', { exact: true }).fill('2026-05-01');
    await page.getByRole('button', { name: 'Download statement (CSV)' }).click();
    await expect(page.getByRole('alert')).toContainText('The start date must be on or before the end date.');
  });
});

test.describe('proof of liabilities', () => {
  test('Settings offers the proof download and says so when no published liabilities include the customer', async ({ page, request }) => {
    test.setTimeout(120_000);
    await signInNewCustomer(page, request, 'proof', 'Priya Proof');
    await page.goto('/dashboard/settings');
    await expect(page.getByRole('heading', { level: 2, name: 'Proof of liabilities' })).toBeVisible();
    await page.getByRole('button', { name: 'Download my proof (JSON)' }).click();
    await expect(page.getByRole('alert')).toContainText('No published liabilities include your account yet.');
  });
});
