import { expect, test } from '@playwright/test';
import { actFromOwnAddress, apiSignIn, bearer, createConfirmedUser, demoAdminSession, screens, solveCaptchaWidget } from './helpers.js';

/*
 * The sign-in screen's first step (spec 000 sections 2.3, 4.1, 8): its own checks, the way back to
 * a protected page, a banned account, and the captcha after a wrong password. That test signs in
 * from an address of its own (actFromOwnAddress), so the tests that run after it, in this file or
 * another, meet no captcha.
 */

test.describe('sign-in', () => {
  test('the credentials step checks its fields before calling the server', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Login to Your Wallet' })).toBeVisible();
    await expect(page.getByText('Simple. Fast. Secure')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Forgot Password' })).toBeVisible();
    await expect(page.locator('altcha-widget')).toHaveCount(0);
    await page.screenshot({ path: `${screens}/login.png` });

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required.')).toBeVisible();
    await expect(page.getByText('Password is required.')).toBeVisible();
    await page.getByLabel('Email Address').fill('someone@nowhere');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email address is invalid.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
  });

  test('a protected page sends a visitor to sign in and back again', async ({ page, request }) => {
    const user = await createConfirmedUser(request, 'return-to');
    await page.goto('/dashboard/wallets');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\/wallets$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Wallets' })).toBeVisible();

    // Signed in, the sign-in and registration screens step aside.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
    await page.goto('/register');
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
  });
});

test.describe('banned account', () => {
  test('a customer banned by an admin is refused at sign-in with the spec text', async ({ page, request }) => {
    const admin = await demoAdminSession(request);

    const customer = await createConfirmedUser(request, 'banned');
    const signedIn = await apiSignIn(request, customer.email, customer.password);
    const ban = await request.post('/functions/v1/ban-user', { headers: bearer(admin), data: { targetUserId: signedIn.user.id } });
    expect(ban.ok()).toBe(true);

    await page.goto('/login');
    await page.getByLabel('Email Address').fill(customer.email);
    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('You cannot access your account. Please contact the support team.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await page.screenshot({ path: `${screens}/login-banned.png` });
  });
});

test.describe('the bot check after a wrong password', () => {
  test('a wrong password shows the error, then the captcha, which lets the right password in', async ({ page, request }) => {
    test.setTimeout(60_000);
    const user = await createConfirmedUser(request, 'captcha');
    // The wrong password makes this page's own address suspicious, not the 127.0.0.1 of the other tests.
    await actFromOwnAddress(page);

    await page.goto('/login');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' })).toBeVisible();
    await expect(page.locator('altcha-widget').getByText("I'm not a robot")).toBeVisible();
    await page.screenshot({ path: `${screens}/login-captcha.png` });

    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Please complete the verification challenge.')).toBeVisible();

    await solveCaptchaWidget(page);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\/overview$/);

    // The suspicion stays with that client: the owner's other device signs in without a captcha.
    const elsewhere = await request.post('/auth/v1/token?grant_type=password', { data: { email: user.email, password: user.password } });
    expect(elsewhere.ok(), await elsewhere.text()).toBe(true);
  });
});
