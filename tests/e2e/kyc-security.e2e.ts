import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import {
  bearer,
  codeIn,
  expectNoHorizontalOverflow,
  demoAdminSession,
  mailIds,
  screens,
  signInNewCustomer,
  solveCaptcha,
  waitForMail,
} from './helpers.js';

/*
 * Spec 001: the KYC card, its two modals and the Verification tab; the Security tab's
 * authenticator set-up and removal, password rules and login history. Spec 002: the staff
 * Verification & Docs tab with its signed document links.
 */

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

test.describe('KYC and account security', () => {
  test('submit KYC with two files and see it pending; staff open the documents', async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const user = await signInNewCustomer(page, request, 'kyc', 'Kay Why');

    await test.step('the info modal', async () => {
      await expect(page.getByRole('heading', { level: 2, name: 'KYC Not Verified' })).toBeVisible();
      await page.getByRole('button', { name: 'Learn More' }).click();
      const info = page.getByRole('dialog', { name: 'About KYC Verification' });
      await expect(info.getByText('Higher limits')).toBeVisible();
      await page.screenshot({ path: `${screens}/kyc-info-modal.png` });
      await info.getByRole('button', { name: 'Got it' }).click();
      await expect(info).toBeHidden();
    });

    await test.step('the verification modal: step 1 checks every field, step 2 the documents', async () => {
      await page.getByRole('button', { name: 'Verify Now' }).click();
      const modal = page.getByRole('dialog', { name: 'Identity Verification (KYC)' });
      await expect(modal.getByRole('heading', { name: 'Step 1: Basic Details' })).toBeVisible();
      await modal.getByRole('button', { name: 'Next' }).click();
      await expect(modal.getByText('This field is required')).toHaveCount(7);
      await modal.getByLabel('First Name').fill('Kay');
      await expect(modal.getByText('This field is required')).toHaveCount(6);
      await modal.getByLabel('Last Name').fill('Why');
      await modal.getByLabel('Date of Birth').fill('1991-04-02');
      await modal.getByLabel('Country').fill('Portugal');
      await modal.getByLabel('City').fill('Lisbon');
      // The server keeps postal codes to 20 characters; the field takes no more.
      await modal.getByLabel('Postal Code').pressSequentially('1100-148 LISBOA PORTUGAL');
      await expect(modal.getByLabel('Postal Code')).toHaveValue('1100-148 LISBOA PORT');
      await page.screenshot({ path: '/tmp/shots/kyc-postal-code-limit.png' });
      await modal.getByLabel('Postal Code').fill('1100-148');
      await modal.getByLabel('Full Address').fill('Rua Augusta 10');
      await page.screenshot({ path: `${screens}/kyc-step1.png` });
      await modal.getByRole('button', { name: 'Next' }).click();

      await expect(modal.getByRole('heading', { name: 'Step 2: Document Upload' })).toBeVisible();
      await modal.getByRole('button', { name: 'Submit KYC' }).click();
      await expect(modal.getByText('Required documents are missing.')).toBeVisible();
      await expect(modal.getByText('Identity document is required')).toBeVisible();
      await expect(modal.getByText('Proof of residence document is required')).toBeVisible();
      await modal.getByRole('button', { name: 'Previous' }).click();
      await expect(modal.getByLabel('City')).toHaveValue('Lisbon');
      await modal.getByRole('button', { name: 'Next' }).click();

      await modal.getByLabel(/Identity Document/).setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: PNG });
      await modal.getByLabel(/Proof of Residence/).setInputFiles({ name: 'bill.pdf', mimeType: 'application/pdf', buffer: PDF });
      await expect(modal.getByText('Selected: passport.png')).toBeVisible();
      await page.screenshot({ path: `${screens}/kyc-step2.png` });
      await modal.getByRole('button', { name: 'Submit KYC' }).click();
      await expect(modal).toBeHidden();
    });

    await test.step('the overview and settings show it pending', async () => {
      await expect(page.getByRole('heading', { level: 2, name: 'KYC Pending Review' })).toBeVisible();
      await expect(page.getByText('1-2 business days')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Verify Now' })).toHaveCount(0);
      await page.screenshot({ path: `${screens}/kyc-pending-overview.png` });

      await page.goto('/dashboard/settings');
      await expect(page.getByLabel('First Name')).toHaveValue('Kay');
      await expect(page.getByLabel('Full Address')).toHaveValue('Rua Augusta 10');
      await page.getByRole('tab', { name: 'Verification' }).click();
      await expect(page.getByRole('heading', { name: 'Verification Pending' })).toBeVisible();
      await page.screenshot({ path: `${screens}/settings-verification-pending.png` });
    });

    await test.step('staff: Verification & Docs with a working document link', async () => {
      const admin = await demoAdminSession(request);
      const details = await request.post('/functions/v1/get-kyc-details', {
        headers: bearer(admin),
        data: { targetUserId: user.session.user.id },
      });
      expect(details.ok()).toBe(true);
      const body = (await details.json()) as { residenceDocSignedUrl: string };
      const file = await request.get(body.residenceDocSignedUrl);
      expect([file.status(), file.headers()['content-type']]).toEqual([200, 'application/pdf']);

      await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
        'wallet-ledger.session',
        JSON.stringify(admin),
      ] as const);
      await page.goto(`/dashboard/user-profile/${user.session.user.id}/verification`);
      await expect(page.getByText('Pending Review')).toBeVisible();
      await expect(page.getByText('Submitted Basic Details')).toBeVisible();
      await expect(page.getByText('Lisbon')).toBeVisible();
      await expect(page.getByRole('link', { name: 'View/Download' })).toHaveCount(2);
      await page.screenshot({ path: `${screens}/staff-verification-docs.png`, fullPage: true });

      // A function's error is shown prefixed 'Error: ' in the loading-error state.
      await page.route('**/functions/v1/get-kyc-details', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'KYC store unavailable' }) }),
      );
      await page.reload();
      await expect(page.getByText('Error loading details: Error: KYC store unavailable')).toBeVisible();
      await page.screenshot({ path: `${screens}/staff-verification-error.png` });
      await page.unroute('**/functions/v1/get-kyc-details');
    });
  });

  const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';

  test('enrol and remove an authenticator app from Settings > Security; password rules; login history', async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 1000 });
    const user = await signInNewCustomer(page, request, 'totp', 'Tee Otp');
    // A sign-in from Firefox: the server records it with the sign-in's own browser.
    const firefox = await request.post('/auth/v1/token?grant_type=password', {
      headers: { 'user-agent': FIREFOX_UA },
      data: { email: user.email, password: user.password, gotrue_meta_security: { captcha_token: await solveCaptcha(request) } },
    });
    expect(firefox.ok(), await firefox.text()).toBe(true);

    await page.goto('/dashboard/settings', {});
    await page.getByRole('tab', { name: 'Security' }).click();
    const mfa = page.locator('section[aria-labelledby="mfa-title"]');
    await expect(page.getByRole('heading', { name: 'Multi-Factor Authentication' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Login History' })).toBeVisible();
    // The device as a person reads it; the raw user-agent string stays in the cell's title.
    const device = page.locator('section[aria-labelledby="login-history-title"]').getByRole('cell', { name: 'Firefox 121 on Linux' });
    await expect(device).toBeVisible();
    await expect(device).toHaveAttribute('title', FIREFOX_UA);
    await page.screenshot({ path: `${screens}/settings-security.png`, fullPage: true });

    await test.step('set up: QR, then a code from the app', async () => {
      await mfa.getByRole('button', { name: 'Set Up' }).click();
      await expect(mfa.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      // Shown in groups of four, as authenticator apps print a key.
      const shown = (await mfa.locator('.mfa-panel__secret').textContent())!.trim();
      expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
      const secret = shown.replace(/ /g, '');
      await page.screenshot({ path: `${screens}/settings-mfa-qr.png` });
      await mfa.getByRole('button', { name: 'Next' }).click();
      await mfa.getByLabel(/6-digit code/).fill('12');
      await mfa.getByRole('button', { name: 'Verify and Enable' }).click();
      await expect(mfa.getByText('Please enter a valid 6-digit verification code.')).toBeVisible();
      await mfa.getByLabel(/6-digit code/).fill(await generate({ secret }));
      await mfa.getByRole('button', { name: 'Verify and Enable' }).click();
      await expect(mfa.getByText('Authenticator App has been enabled successfully.')).toBeVisible();
      // The ten recovery codes are shown once, until the customer says they are saved.
      await expect(mfa.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
      await page.screenshot({ path: `${screens}/settings-mfa-recovery-codes.png` });
      // Shown, never kept: no code is in the browser's storage (the session kept there leaves them out).
      const codes = await mfa.getByTestId('recovery-codes').getByRole('listitem').allTextContents();
      const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage, ...window.sessionStorage }));
      for (const code of codes) expect(stored).not.toContain(code.trim());
      // Kept by downloading them too, as a text file with every code.
      const [download] = await Promise.all([page.waitForEvent('download'), mfa.getByRole('button', { name: 'Download Codes' }).click()]);
      expect(download.suggestedFilename()).toBe('wallet-ledger-recovery-codes.txt');
      const file = fs.readFileSync((await download.path())!, 'utf8');
      for (const code of codes) expect(file).toContain(code.trim());
      await expect(mfa.getByRole('button', { name: 'Print Codes' })).toBeVisible();
      await mfa.getByRole('button', { name: 'I Have Saved My Codes' }).click();
      await expect(mfa.getByTestId('recovery-codes')).toHaveCount(0);
      await expect(mfa.getByRole('button', { name: 'Enable' })).toBeDisabled();
      await page.screenshot({ path: `${screens}/settings-mfa-enabled.png` });
      // The message goes after 4 s.
      await expect(mfa.getByText('Authenticator App has been enabled successfully.')).toBeHidden({ timeout: 6000 });
    });

    await test.step('remove: the password is asked first and checked by the server', async () => {
      await mfa.getByRole('button', { name: 'Remove' }).click();
      await mfa.getByRole('button', { name: 'Remove Authenticator App' }).click();
      await expect(mfa.getByText('Please enter your password to continue.')).toBeVisible();
      await mfa.getByLabel('Password').fill('not-my-password-1');
      await mfa.getByRole('button', { name: 'Remove Authenticator App' }).click();
      await expect(mfa.getByText('Password verification failed. Please check your password and try again.')).toBeVisible();
      await mfa.getByLabel('Password').fill(user.password);
      await mfa.getByRole('button', { name: 'Remove Authenticator App' }).click();
      await expect(mfa.getByText('Authenticator App has been removed.')).toBeVisible();
      await expect(mfa.getByRole('button', { name: 'Set Up' })).toBeEnabled();
      const token = await page.evaluate(() => JSON.parse(window.localStorage.getItem('wallet-ledger.session')!).access_token as string);
      const me = (await (await request.get('/auth/v1/user', { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        factors: unknown[];
        user_metadata: { active_mfa_method: string | null };
      };
      expect([me.factors, me.user_metadata.active_mfa_method]).toEqual([[], null]);
    });

    await test.step('e-mail codes: enable with a mailed code (the authenticator is then locked), disable with the password', async () => {
      const seen = await mailIds(request, user.email);
      await mfa.getByRole('button', { name: 'Enable' }).click();
      await expect(mfa.getByText(`We sent a 6-digit code to ${user.email}.`)).toBeVisible();
      await mfa.getByLabel('Verification code').fill('123');
      await mfa.getByRole('button', { name: 'Verify and Enable' }).click();
      await expect(mfa.getByText('Please enter a valid verification code.')).toBeVisible();
      const mail = await waitForMail(request, user.email, 'Your verification code', seen);
      await mfa.getByLabel('Verification code').fill(codeIn(mail));
      await mfa.getByRole('button', { name: 'Verify and Enable' }).click();
      await expect(mfa.getByText('Email authentication has been enabled successfully.')).toBeVisible();
      await expect(mfa.getByRole('button', { name: 'Set Up' })).toBeDisabled();
      await expect(mfa.getByText('Disable Email authentication first to use an authenticator app.')).toBeVisible();
      await page.screenshot({ path: `${screens}/settings-mfa-email-enabled.png` });

      await mfa.getByRole('button', { name: 'Disable' }).click();
      await mfa.getByLabel('Password').fill(user.password);
      await mfa.getByRole('button', { name: 'Disable Email Authentication' }).click();
      await expect(mfa.getByText('Email authentication has been disabled.')).toBeVisible();
      await expect(mfa.getByRole('button', { name: 'Set Up' })).toBeEnabled();
    });

    await test.step('change password: submit waits for all three fields, then the rules', async () => {
      const form = page.locator('section[aria-labelledby="change-password-title"]');
      const submit = form.getByRole('button', { name: 'Change Password' });
      await form.getByLabel('Current Password').fill(user.password);
      await form.getByLabel('New Password', { exact: true }).fill('short1');
      await expect(submit).toBeDisabled();
      await form.getByLabel('Confirm New Password').fill('short2');
      await submit.click();
      await expect(form.getByText('New passwords do not match.')).toBeVisible();
      await form.getByLabel('Confirm New Password').fill('short1');
      await submit.click();
      await expect(form.getByText('Password must be at least 8 characters long.')).toBeVisible();
      await form.getByLabel('New Password', { exact: true }).fill('longenough');
      await form.getByLabel('Confirm New Password').fill('longenough');
      await submit.click();
      await expect(form.getByText('Password must contain at least one number.')).toBeVisible();
      await form.getByLabel('New Password', { exact: true }).fill('longenough-7');
      await form.getByLabel('Confirm New Password').fill('longenough-7');
      await submit.click();
      await expect(form.getByText('Password changed successfully!')).toBeVisible();
    });

    await test.step('on a phone the tab fits the screen', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.getByRole('tab', { name: 'Security' }).click();
      await expect(
        page.locator('section[aria-labelledby="login-history-title"]').getByRole('cell', { name: 'Firefox 121 on Linux' }),
      ).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: `${screens}/settings-security-mobile.png`, fullPage: true });
    });
  });
});
