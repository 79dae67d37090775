import { expect, test } from '@playwright/test';
import { linkIn, screens, solveCaptchaWidget, uniqueEmail, waitForMail } from './helpers.js';

/* Registration (spec 000 sections 2.4, 4.2, 5): the form's rules, the e-mailed confirmation, the first sign-in. */

test.describe('registration', () => {
  test('register with the captcha solved in the browser, confirm by e-mail, sign in', async ({ page, request }) => {
    // The proof of work is solved in the page, at the pace of a real browser on a busy machine.
    test.slow();
    const email = uniqueEmail('register');
    const password = 'Wallet-pass-42';

    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Create Your Wallet Account' })).toBeVisible();
    await expect(page.getByText('Minimum 8 characters. Consider adding special characters & numbers for stronger security.')).toBeVisible();

    // Every rule of section 5 at once.
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Full Name is required.')).toBeVisible();
    await expect(page.getByText('Email is required.')).toBeVisible();
    await expect(page.getByText('Password is required.')).toBeVisible();
    await expect(page.getByText('Please confirm your password.')).toBeVisible();
    await expect(page.getByText('Please complete the verification challenge.')).toBeVisible();
    await expect(page.getByLabel('Full Name')).toBeFocused();

    await page.getByLabel('Full Name').fill('Rita Register');
    await page.getByLabel('Email Address').fill('not-an-address');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password').fill('different');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Email address is invalid.')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();
    await expect(page.getByText('Passwords do not match.')).toBeVisible();
    // Passwords are cleared after any error; the other fields keep what was typed.
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Confirm Password')).toHaveValue('');
    await expect(page.getByLabel('Full Name')).toHaveValue('Rita Register');

    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password').fill(password);
    await solveCaptchaWidget(page);
    await page.setViewportSize({ width: 1280, height: 960 });
    await page.screenshot({ path: `${screens}/register.png` });
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'please confirm your email address' })).toBeVisible();
    await expect(page.getByLabel('Full Name')).toHaveValue('');
    await expect(page.getByLabel('Email Address')).toHaveValue('');
    await expect(page.locator('altcha-widget').getByText("I'm not a robot")).toBeVisible();

    const confirmation = await waitForMail(request, email, 'Confirm your email address');
    await page.goto(linkIn(confirmation, '/auth/v1/verify'));
    await expect(page).toHaveURL(/\/login\?confirmed=1$/);
    await expect(page.getByText('Your email address has been confirmed. You can now sign in.')).toBeVisible();

    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

    // The server sent the welcome mail when the address was confirmed.
    await waitForMail(request, email, 'Welcome to your wallet');
  });

  test('a used confirmation link shows the error banner', async ({ page }) => {
    await page.goto('/login?confirm_error=1');
    await expect(page.getByRole('alert')).toContainText('confirmation link is invalid or has expired');
  });
});
