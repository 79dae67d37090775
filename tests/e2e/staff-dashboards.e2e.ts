import { expect, test, type Page } from '@playwright/test';
import {
  createConfirmedUser,
  demoAdminSession,
  expectReachableOnPhone,
  screens,
  uniqueEmail,
  type ApiSession,
  demoManagerSession,
  openAs,
  passwordSession,
} from './helpers.js';

/*
 * The staff dashboards (spec 002): a manager creates a worker and posts an announcement; the
 * worker signs in (forced password change), sees the announcement arrive live, claims a customer.
 */

/** A dashboard tab (a link in the dashboard's own tab bar, not the sidebar). */
function tab(page: Page, dashboard: string, name: string) {
  return page.getByRole('navigation', { name: dashboard }).getByRole('link', { name, exact: true });
}

test.describe('staff dashboards', () => {
  test('a manager creates a worker and announces; the worker changes the password, sees announcements live and claims a customer', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const manager = await demoManagerSession(request);
    const workerEmail = uniqueEmail('worker');
    const customer = await createConfirmedUser(request, 'claimed', 'Carla Claimed');

    await test.step('the manager dashboard opens on My Workers', async () => {
      await openAs(page, manager, '/dashboard/manager');
      await expect(page).toHaveURL(/\/dashboard\/manager\/my-workers$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Manager Dashboard' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'My Workers' })).toBeVisible();
    });

    await test.step('Create Worker checks its fields, then creates the worker', async () => {
      await tab(page, 'Manager Dashboard', 'Create Worker').click();
      await page.getByRole('button', { name: 'Create Worker' }).click();
      await expect(page.getByText('Please fill in all fields.')).toBeVisible();
      await page.getByLabel('Full Name').fill('Walt Worker');
      await page.getByLabel('Email').fill(workerEmail);
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create Worker' }).click();
      await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();
      await page.getByLabel('Password').fill('Given-by-manager-1');
      // A malformed address is told on the page, before any request.
      const creates: string[] = [];
      page.on('request', (r) => r.url().includes('/create-worker-for-manager') && creates.push(r.url()));
      await page.getByLabel('Email').fill('walt.worker@example');
      await page.getByRole('button', { name: 'Create Worker' }).click();
      await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
      expect(creates).toEqual([]);
      await page.getByLabel('Email').fill(workerEmail);
      await page.getByRole('button', { name: 'Create Worker' }).click();
      await expect(page.getByText(`Worker account for ${workerEmail} created successfully!`)).toBeVisible();
      await page.screenshot({ path: `${screens}/manager-create-worker.png`, fullPage: true });
    });

    await test.step('Actions: the manager posts an announcement', async () => {
      await tab(page, 'Manager Dashboard', 'Actions').click();
      await page.getByRole('textbox', { name: 'Announcement' }).fill('Welcome to the team, Walt!');
      await page.getByRole('button', { name: 'Send Announcement' }).click();
      await expect(page.getByText('Announcement sent successfully!')).toBeVisible();
      await page.screenshot({ path: `${screens}/manager-actions.png`, fullPage: true });
      // The success flag lasts 3 seconds.
      await expect(page.getByText('Announcement sent successfully!')).toBeHidden({ timeout: 5_000 });
    });

    const workerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 900 } });
    const workerPage = await workerContext.newPage();
    await test.step('the worker signs in with the given password and must choose a new one', async () => {
      const first = await passwordSession(request, workerEmail, 'Given-by-manager-1');
      expect(first.ok(), await first.text()).toBe(true);
      await openAs(workerPage, (await first.json()) as ApiSession, '/dashboard/worker');
      await expect(workerPage).toHaveURL(/\/force-password-change$/);
      // A new account: not told that their password "was reset".
      await expect(
        workerPage.getByText('Welcome! Your account was set up with a temporary password. Please choose your own password to continue.'),
      ).toBeVisible();
      await expect(workerPage.getByText(/was reset/)).toHaveCount(0);
      await workerPage.getByLabel('New Password', { exact: true }).fill('Worker-own-pass-9');
      await workerPage.getByLabel('Confirm New Password').fill('Worker-own-pass-9');
      await workerPage.getByRole('button', { name: /Update Password|Change Password|Set/ }).click();
      await expect(workerPage.getByText('Password updated successfully! Redirecting...')).toBeVisible();
      await expect(workerPage).toHaveURL(/\/dashboard\/overview$/);
    });

    await test.step('the worker dashboard shows the announcement; a new one arrives without a reload', async () => {
      await workerPage.goto('/dashboard/worker');
      await expect(workerPage).toHaveURL(/\/dashboard\/worker\/search-user$/);
      const banner = workerPage.getByRole('region', { name: 'Announcements' });
      await expect(banner.getByText('Welcome to the team, Walt!')).toBeVisible();
      await workerPage.evaluate(() => Object.assign(window, { __noReload: true }));
      await page.getByRole('textbox', { name: 'Announcement' }).fill('Stand-up moves to 10:00 tomorrow.');
      await page.getByRole('button', { name: 'Send Announcement' }).click();
      await expect(page.getByText('Announcement sent successfully!')).toBeVisible();
      await expect(banner.getByText('Stand-up moves to 10:00 tomorrow.')).toBeVisible();
      expect(await workerPage.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    });

    await test.step('the worker searches by exact e-mail and claims the customer', async () => {
      await workerPage.getByRole('button', { name: 'Search' }).click();
      await expect(workerPage.getByText('Please enter an email address.')).toBeVisible();
      await workerPage.getByLabel('Email').fill('nobody-' + customer.email);
      await workerPage.getByRole('button', { name: 'Search' }).click();
      await expect(workerPage.getByText('User not found.')).toBeVisible();
      await workerPage.getByLabel('Email').fill(customer.email);
      await workerPage.getByRole('button', { name: 'Search' }).click();
      const result = workerPage.getByLabel('Search result');
      await expect(result.getByText(customer.email)).toBeVisible();
      await workerPage.screenshot({ path: `${screens}/worker-search-user.png`, fullPage: true });
      await result.getByRole('button', { name: 'Claim' }).click();
      await expect(workerPage.getByText('User successfully claimed!')).toBeVisible();
      await expect(result).toBeHidden();
    });

    await test.step('a dismissed announcement stays hidden after a reload', async () => {
      const banner = workerPage.getByRole('region', { name: 'Announcements' });
      await banner
        .getByRole('status')
        .filter({ hasText: 'Welcome to the team, Walt!' })
        .getByRole('button', { name: 'Dismiss announcement' })
        .click();
      await expect(banner.getByText('Welcome to the team, Walt!')).toBeHidden();
      await workerPage.reload();
      await expect(banner.getByText('Stand-up moves to 10:00 tomorrow.')).toBeVisible();
      await expect(banner.getByText('Welcome to the team, Walt!')).toBeHidden();
    });

    await test.step('My Users lists the claimed customer with Edit; Stake Management is a placeholder', async () => {
      await tab(workerPage, 'Worker Dashboard', 'My Users').click();
      const row = workerPage.getByRole('row').filter({ hasText: customer.email });
      await expect(row).toBeVisible();
      await expect(workerPage.getByRole('columnheader', { name: 'Profile Created' })).toBeVisible();
      await workerPage.screenshot({ path: `${screens}/worker-my-users.png`, fullPage: true });
      await tab(workerPage, 'Worker Dashboard', 'Stake Management').click();
      await expect(workerPage.getByText('Content for managing staking activities will go here.')).toBeVisible();
      await workerPage.screenshot({ path: `${screens}/worker-stake.png`, fullPage: true });
      await tab(workerPage, 'Worker Dashboard', 'My Users').click();
      await workerPage.getByRole('button', { name: `Edit ${customer.email}` }).click();
      await expect(workerPage).toHaveURL(/\/dashboard\/user-profile\/[0-9a-f-]+\/general$/);
    });

    await test.step('All Users shows the customer with the worker; search narrows after a pause', async () => {
      await tab(page, 'Manager Dashboard', 'All Users').click();
      await expect(page.getByRole('heading', { name: 'All Users (Assigned to My Workers)' })).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: customer.email });
      await expect(row).toContainText('Carla Claimed');
      await expect(row).toContainText('Walt Worker');
      await expect(row).toContainText('Not Started');
      await expect(row).toContainText(/\d{2} [A-Z][a-z]{2} \d{4}/);
      await expect(row.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', /\/dashboard\/user-profile\/[0-9a-f-]+$/);
      await page.screenshot({ path: `${screens}/manager-all-users.png`, fullPage: true });
      // On a phone every column and the Edit action are on screen, without a sideways scroll.
      await expectReachableOnPhone(
        page,
        [row.getByText('Not Started'), row.getByText('Walt Worker'), row.getByRole('link', { name: 'Edit' })],
        'manager-all-users-phone.png',
        { width: 1280, height: 900 },
      );
      await page.getByPlaceholder('Search by name or email...').fill('no-such-person-xyz');
      await expect(page.getByText('No users found assigned to your managed workers.')).toBeVisible();
    });

    await test.step('My Workers lists the worker; a reset shows a temporary password once', async () => {
      await tab(page, 'Manager Dashboard', 'My Workers').click();
      const row = page.getByRole('row').filter({ hasText: workerEmail });
      await expect(row).toContainText('Walt Worker');
      await page.screenshot({ path: `${screens}/manager-my-workers.png`, fullPage: true });
      await expectReachableOnPhone(
        page,
        [row.getByText(workerEmail), row.getByRole('button', { name: 'Reset Password' })],
        'manager-my-workers-phone.png',
        { width: 1280, height: 900 },
      );
      await row.getByRole('button', { name: 'Reset Password' }).click();
      const dialog = page.getByRole('dialog', { name: 'Temporary Password' });
      const temporary = (await dialog.getByLabel('Temporary password', { exact: true }).textContent())!.trim();
      expect(temporary.length).toBeGreaterThanOrEqual(8);
      await page.screenshot({ path: `${screens}/manager-reset-worker-password.png`, fullPage: true });
      await dialog.getByRole('button', { name: 'Done' }).click();
      // The worker's sessions ended; the temporary password signs in only to a forced change.
      const again = await passwordSession(request, workerEmail, temporary);
      expect(((await again.json()) as ApiSession).user.user_metadata['requires_password_change']).toBe(true);
    });

    await workerContext.close();

    await test.step('the admin dashboard is a welcome placeholder', async () => {
      const admin = await demoAdminSession(request);
      // A context of its own: the worker's tab, whose sessions the reset ended, signs out its context.
      const adminContext = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 900 } });
      const adminPage = await adminContext.newPage();
      await openAs(adminPage, admin, '/dashboard/admin');
      await expect(adminPage.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
      await adminPage.screenshot({ path: `${screens}/admin-dashboard.png`, fullPage: true });
      await adminContext.close();
    });
  });
});
