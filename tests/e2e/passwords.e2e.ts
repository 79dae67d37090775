import { expect, test } from '@playwright/test';
import { createConfirmedUser, createWorker, linkIn, screens, signInWithForm, waitForMail } from './helpers.js';

/* Passwords (spec 000 sections 2.5, 4.3): a forgotten one reset by e-mail, a staff member's one-time one replaced. */

test.describe('forgotten password', () => {
  test('reset a forgotten password through the e-mailed link', async ({ page, request }) => {
    const user = await createConfirmedUser(request, 'reset');
    const newPassword = 'Brand-new-pass-7';

    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Reset Password' })).toBeVisible();
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Email is required.')).toBeVisible();
    await page.screenshot({ path: `${screens}/reset-password.png` });
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('If an account exists for this email, a password reset link has been sent.')).toBeVisible();
    await expect(page.getByLabel('Email Address')).toHaveValue('');
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();

    const mail = await waitForMail(request, user.email, 'Reset your password');
    await page.goto(linkIn(mail, '/update-password'));
    await expect(page.getByRole('heading', { level: 1, name: 'Set New Password' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Update Password' })).toBeEnabled();
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByText('New password is required.')).toBeVisible();
    await expect(page.getByText('Please confirm your new password.')).toBeVisible();
    await page.screenshot({ path: `${screens}/update-password.png` });

    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByText('Your password has been updated successfully. You can now log in.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });

    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\/overview$/);
  });

  test('the set-new-password page needs a reset link', async ({ page }) => {
    await page.goto('/update-password');
    await expect(page.getByText('You must access this page via a password reset link.')).toBeVisible();
    await page.goto('/update-password#type=recovery&token=not-a-real-token');
    await expect(page.getByText('Invalid or expired link, or not logged in for password update.')).toBeVisible();
  });
});

test.describe('forced password change', () => {
  test('a staff member with a one-time password is held on the forced change page until they set their own', async ({ page, request }) => {
    // A new worker, whose first sign-in is with the password their manager gave: a fresh one per
    // run, so the test can run again on the same server.
    const { email, password } = await createWorker(request, 'forced-change');
    await signInWithForm(page, email, password, { expectDashboard: false });
    await expect(page).toHaveURL(/\/force-password-change$/);
    await expect(
      page.getByText('Welcome! Your account was set up with a temporary password. Please choose your own password to continue.'),
    ).toBeVisible();
    await page.goto('/dashboard/transactions');
    await expect(page).toHaveURL(/\/force-password-change$/);
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/force-password-change$/);

    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('Please enter and confirm your new password.')).toBeVisible();
    await page.getByLabel('New Password', { exact: true }).fill('Another-pass-8');
    await page.getByLabel('Confirm New Password').fill('Another-pass-9');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('Passwords do not match.')).toBeVisible();
    await page.screenshot({ path: `${screens}/force-password-change.png` });

    await page.getByLabel('Confirm New Password').fill('Another-pass-8');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('Password updated successfully! Redirecting...')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/overview$/, { timeout: 5_000 });
    await expect(page.getByRole('heading', { name: 'Worker Panel' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Worker Dashboard' })).toBeVisible();
  });
});
