import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import {
  apiSignIn,
  bearer,
  codeIn,
  createConfirmedUser,
  demoAdminSession,
  enrolAuthenticator,
  mailIds,
  screens,
  signInWithForm,
  waitForMail,
} from './helpers.js';

/* The sign-in's second step (spec 000 sections 4.1, 8): an e-mailed code, an authenticator app, a recovery code. */

test.describe('second step', () => {
  test('sign in with a code sent by e-mail', async ({ page, request }) => {
    const user = await createConfirmedUser(request, 'email-mfa');

    // Turn e-mail codes on through the API: a code verified in this session, then the switch.
    const first = await apiSignIn(request, user.email, user.password);
    const before = await mailIds(request, user.email);
    expect((await request.post('/auth/v1/otp', { data: { email: user.email, create_user: false } })).ok()).toBe(true);
    const setupCode = codeIn(await waitForMail(request, user.email, 'Your verification code', before));
    const verified = await request.post('/auth/v1/verify', {
      headers: bearer(first),
      data: { type: 'email', email: user.email, token: setupCode },
    });
    expect(verified.ok(), await verified.text()).toBe(true);
    const upgraded = (await verified.json()) as { access_token: string };
    const switched = await request.put('/auth/v1/user', { headers: bearer(upgraded), data: { data: { active_mfa_method: 'email' } } });
    expect(switched.ok(), await switched.text()).toBe(true);

    const seen = await mailIds(request, user.email);
    await page.goto('/login');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    await expect(page.getByRole('heading', { level: 2, name: 'Check Your Email' })).toBeVisible();
    await expect(page.getByText(user.email)).toBeVisible();
    await page.getByRole('button', { name: 'Verify Email OTP' }).click();
    await expect(page.getByText('Please enter the verification code')).toBeVisible();

    // Only digits, at most six.
    const codeField = page.getByLabel('Email Verification Code');
    await codeField.fill('12ab-34 5678');
    await expect(codeField).toHaveValue('123456');
    await codeField.fill('');
    await page.screenshot({ path: `${screens}/login-email-code.png` });

    const code = codeIn(await waitForMail(request, user.email, 'Your verification code', seen));
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Verify Email OTP' }).click();
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  });

  test('sign in with an authenticator app, and the mandatory step for a half-signed-in session', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = await createConfirmedUser(request, 'totp');

    // Enrol an authenticator through the API and prove it with a code.
    const session = await apiSignIn(request, user.email, user.password);
    const { factor, enrolStep } = await enrolAuthenticator(request, session);

    await page.goto('/login');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    await expect(page.getByRole('heading', { level: 2, name: 'Two-Factor Authentication' })).toBeVisible();
    await expect(page.getByText('Enter the code from your authenticator app.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back to Login' })).toBeVisible();
    await page.screenshot({ path: `${screens}/login-totp.png` });

    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(page.getByText('Please enter the verification code')).toBeVisible();
    await page.getByLabel('Verification Code').fill('000000');
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(page.getByText('Invalid verification code. Please try again.')).toBeVisible();

    // The session is still at the first level: any protected page asks for the code, mandatorily.
    await page.goto('/dashboard/wallets');
    await expect(page).toHaveURL(/\/verify-mfa$/);
    await expect(
      page.getByText('Your account requires two-factor authentication. Please enter the code from your authenticator app to continue.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back to Login' })).toHaveCount(0);
    await page.screenshot({ path: `${screens}/verify-mfa.png` });

    // A code is accepted once, so this is the code of a later window than the enrolment's: the
    // next one, which the server takes up to 30 s early (an authenticator's clock may run ahead).
    const nextStep = Math.max(enrolStep + 1, Math.floor(Date.now() / 30_000));
    await page.getByLabel('Verification Code').fill(await generate({ secret: factor.totp.secret, epoch: nextStep * 30 }));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(page).toHaveURL(/\/dashboard\/wallets$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Wallets' })).toBeVisible();
  });

  test('a lost authenticator: a recovery code stands in for it once at the second step', async ({ page, request, browser }) => {
    const user = await createConfirmedUser(request, 'recovery-code');
    const { recoveryCodes } = await enrolAuthenticator(request, await apiSignIn(request, user.email, user.password));
    expect(recoveryCodes).toHaveLength(10);

    await page.goto('/login');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Two-Factor Authentication' })).toBeVisible();
    await page.getByRole('button', { name: 'Lost your authenticator? Use a recovery code' }).click();
    await page.getByLabel('Recovery Code').fill(recoveryCodes[0]!);
    await page.screenshot({ path: `${screens}/login-recovery-code.png` });
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
    await waitForMail(request, user.email, 'A recovery code was used');

    // The same code again, at a later sign-in: it says the code is spent, not that it was mistyped.
    const elsewhere = await browser.newContext({ baseURL: test.info().project.use.baseURL, reducedMotion: 'reduce' });
    const again = await elsewhere.newPage();
    await again.goto('/login');
    await again.getByLabel('Email Address').fill(user.email);
    await again.getByLabel('Password').fill(user.password);
    await again.getByRole('button', { name: 'Sign In' }).click();
    await again.getByRole('button', { name: 'Lost your authenticator? Use a recovery code' }).click();
    await again.getByLabel('Recovery Code').fill(recoveryCodes[0]!);
    await again.getByRole('button', { name: 'Verify Code' }).click();
    await expect(again.getByText('This recovery code has already been used. Each code works once: please use another one.')).toBeVisible();
    await again.screenshot({ path: `${screens}/login-recovery-code-spent.png` });
    await elsewhere.close();
  });
});

test.describe('staff reset of a customer with an authenticator', () => {
  test('the second step comes first, then the forced password change', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = await createConfirmedUser(request, 'reset-totp');

    // An authenticator, enrolled and proved through the API.
    const session = await apiSignIn(request, user.email, user.password);
    const { factor, enrolStep } = await enrolAuthenticator(request, session);

    // Staff reset the password: the factor stays, and a new password is required.
    const admin = await demoAdminSession(request);
    const reset = await request.post('/functions/v1/reset-user-password', {
      headers: bearer(admin),
      data: { targetUserId: session.user.id, newPassword: 'Staff-set-pass-1' },
    });
    expect(reset.ok(), await reset.text()).toBe(true);

    await signInWithForm(page, user.email, 'Staff-set-pass-1', { expectDashboard: false });
    await expect(page.getByRole('heading', { level: 2, name: 'Two-Factor Authentication' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    // Until the code is given, the forced change page (and any other) leads to the second step.
    await page.goto('/force-password-change');
    await expect(page).toHaveURL(/\/verify-mfa$/);
    await expect(
      page.getByText('Your account requires two-factor authentication. Please enter the code from your authenticator app to continue.'),
    ).toBeVisible();

    const nextStep = Math.max(enrolStep + 1, Math.floor(Date.now() / 30_000));
    await page.getByLabel('Verification Code').fill(await generate({ secret: factor.totp.secret, epoch: nextStep * 30 }));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await expect(page).toHaveURL(/\/force-password-change$/);
    await expect(page.getByText('Your password was reset by our support team. Please choose a new password to continue.')).toBeVisible();

    await page.getByLabel('New Password', { exact: true }).fill('My-own-pass-10');
    await page.getByLabel('Confirm New Password').fill('My-own-pass-10');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('Password updated successfully! Redirecting...')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/overview$/, { timeout: 5_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  });
});
