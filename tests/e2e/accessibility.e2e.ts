import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  bearer,
  createConfirmedUser,
  demoAdminSession,
  demoManagerSession,
  enrolAuthenticator,
  openAs,
  ownSession,
  passwordSession,
  uniqueEmail,
  type ApiSession,
} from './helpers.js';

/*
 * axe-core on every screen of the spec (signed out, customer, worker, manager, admin, the staff
 * profile), on a desktop window and on a phone: a serious or critical finding fails the test.
 * Each role is one test that walks its screens in both windows; the findings of all screens are
 * gathered first, so one run lists every screen that needs fixing.
 */

const WINDOWS = [
  { name: 'desktop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;

type Screen = {
  name: string;
  /** Opened with page.goto; absent: the screen is reached from the one before by `open`. */
  url?: string;
  /** Shown once the screen is there. */
  ready: (page: Page) => Locator;
  /** A dropdown, dialog or tab opened on top of the page before the scan. */
  open?: (page: Page) => Promise<void>;
  /** Only this part is scanned (an overlay: the page behind it had its own scan). */
  within?: string;
};

const OPEN_DIALOG = 'dialog[open]';
const OPEN_DROPDOWN = '.dropdown__popup';

test.describe.configure({ mode: 'parallel' });
// A step that cannot find its button fails at once, not at the end of the test's time.
test.use({ actionTimeout: 10_000 });

/** Waits until no list or figure on the page still says it is loading (at most a few seconds). */
async function settle(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => !/Loading/.test(document.body.innerText) && !document.querySelector('[aria-busy="true"]')), {
      timeout: 8_000,
    })
    .toBe(true)
    .catch(() => undefined);
}

/** The serious and critical axe findings of the page as it is now, one line each. */
async function seriousFindings(page: Page, where: string, within?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  if (within) axe.include(within);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) on ${v.nodes.length} node(s): ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/** Visits every screen in both windows and fails with the list of what axe found. */
async function scanScreens(page: Page, screens: Screen[], windows: readonly (typeof WINDOWS)[number][] = WINDOWS): Promise<void> {
  const findings: string[] = [];
  for (const window of windows) {
    await page.setViewportSize({ width: window.width, height: window.height });
    for (const screen of screens) {
      await test.step(`${screen.name} (${window.name})`, async () => {
        if (screen.url) await page.goto(screen.url);
        await screen.open?.(page);
        await expect(screen.ready(page)).toBeVisible();
        await settle(page);
        findings.push(...(await seriousFindings(page, `${screen.name} (${window.name})`, screen.within)));
      });
    }
  }
  expect(findings, findings.join('\n')).toEqual([]);
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
const dialog = (name: string | RegExp) => (page: Page) => page.getByRole('dialog', { name });
const tab = (name: string) => async (page: Page) => {
  await page.getByRole('tab', { name, exact: true }).click();
};

async function post(request: APIRequestContext, session: ApiSession, fn: string, data: object): Promise<unknown> {
  const answer = await request.post(`/functions/v1/${fn}`, { headers: bearer(session), data });
  expect(answer.ok(), `${fn}: ${await answer.text()}`).toBe(true);
  return answer.json();
}

/** A customer with money, a pending deposit, a ticket and a sign-in on record. */
async function customerWithHistory(request: APIRequestContext, tag: string) {
  const user = await createConfirmedUser(request, tag, 'Alex Access');
  const session = (await (await passwordSession(request, user.email, user.password)).json()) as ApiSession;
  const admin = await demoAdminSession(request);
  const credit = (assetId: string, amount: string, status: string) =>
    post(request, admin, 'add-transaction', {
      targetUserId: session.user.id,
      assetId,
      amount,
      status,
      sentAt: new Date().toISOString(),
      senderAddress: 'bc1qfundingaddress',
      note: 'Opening funds',
    });
  await credit('BTC', '1', 'Complete');
  await credit('USDT', '2500', 'Complete');
  await credit('ETH', '0.5', 'Pending');
  await post(request, session, 'log-login-details', {});
  await post(request, session, 'create-support-ticket', {
    subject: 'Card declined',
    message: 'Please help: my card was declined.',
    urgency: 'medium',
  });
  return { ...user, session };
}

/** A worker of the demo manager's, signed in with the password they chose; `first` is their session before that. */
async function newWorker(request: APIRequestContext, manager: ApiSession) {
  const email = uniqueEmail('a11y-worker');
  await post(request, manager, 'create-worker-for-manager', { fullName: 'Wren Worker', email, password: 'Given-by-manager-1' });
  const first = (await (await passwordSession(request, email, 'Given-by-manager-1')).json()) as ApiSession;
  const session = await ownSession(request, email, 'Given-by-manager-1', 'Worker-own-pass-9');
  return { email, first, session };
}

test('signed out: sign-in, registration, new password and the 404 page', async ({ page }) => {
  await scanScreens(page, [
    { name: 'sign-in', url: '/login', ready: heading('Login to Your Wallet') },
    { name: 'registration', url: '/register', ready: (p) => p.getByRole('button', { name: /Create Account|Sign Up|Register/ }) },
    { name: 'set new password', url: '/update-password', ready: (p) => p.locator('main') },
    { name: '404', url: '/no-such-page', ready: heading('Oops! Page Not Found') },
  ]);
});

test('customer: overview, wallets, transactions and payments, with their dropdowns and dialogs', async ({ page, request }) => {
  test.setTimeout(240_000);
  const customer = await customerWithHistory(request, 'a11y-customer');
  await openAs(page, customer.session, '/dashboard/overview');
  await scanScreens(page, [
    { name: 'overview', url: '/dashboard/overview', ready: heading('Overview') },
    {
      name: 'bell',
      open: (p) => p.getByRole('button', { name: /Open notifications/ }).click(),
      ready: dialog('Notifications'),
      within: OPEN_DROPDOWN,
    },
    {
      name: 'user menu',
      url: '/dashboard/overview',
      open: (p) => p.getByRole('button', { name: 'Open user menu' }).click(),
      ready: (p) => p.getByRole('menu'),
      within: OPEN_DROPDOWN,
    },
    {
      name: 'KYC modal',
      url: '/dashboard/overview',
      open: (p) => p.getByRole('button', { name: 'Verify Now' }).click(),
      ready: (p) => p.getByRole('dialog'),
      within: OPEN_DIALOG,
    },
    { name: 'wallets', url: '/dashboard/wallets', ready: heading('Wallets') },
    {
      name: 'send and receive',
      open: (p) => p.getByRole('button', { name: /^Bitcoin \(BTC\)/ }).click(),
      ready: dialog('Bitcoin (BTC)'),
      within: OPEN_DIALOG,
    },
    { name: 'transactions', url: '/dashboard/transactions', ready: heading('Transactions') },
    {
      name: 'transaction detail',
      open: (p) => p.locator('.tx-list button').first().click(),
      ready: dialog('Transaction Details'),
      within: OPEN_DIALOG,
    },
    { name: 'payments: withdrawal', url: '/dashboard/payments', ready: heading('Payments') },
    { name: 'payments: deposit', open: tab('Deposit'), ready: heading('Payments') },
  ]);
});

// The customer area in two tests, each within its time on a busy machine (about two minutes each alone).
test('customer: settings, support, swap and stakes', async ({ page, request }) => {
  test.setTimeout(240_000);
  const customer = await customerWithHistory(request, 'a11y-customer-2');
  await openAs(page, customer.session, '/dashboard/settings');
  const stakeBtc = (p: Page) => p.getByRole('region', { name: 'Bitcoin stake plans' }).getByRole('button', { name: 'Stake BTC' }).click();
  await scanScreens(page, [
    { name: 'settings: general', url: '/dashboard/settings', ready: heading('Account Settings') },
    { name: 'settings: notifications', open: tab('Notifications'), ready: heading('Account Settings') },
    { name: 'settings: verification', open: tab('Verification'), ready: heading('Account Settings') },
    { name: 'settings: payment methods', open: tab('Payment Methods'), ready: heading('Account Settings') },
    {
      name: 'add payment method',
      open: (p) => p.getByRole('button', { name: 'Add New' }).click(),
      ready: dialog('Add Payment Method'),
      within: OPEN_DIALOG,
    },
    {
      name: 'settings: security',
      url: '/dashboard/settings',
      open: tab('Security'),
      ready: (p) => p.getByRole('heading', { name: /Login History/i }),
    },
    { name: 'support', url: '/dashboard/support', ready: heading(/Support/) },
    {
      name: 'create ticket',
      open: (p) => p.getByRole('button', { name: 'Create Ticket' }).click(),
      ready: (p) => p.getByRole('dialog'),
      within: OPEN_DIALOG,
    },
    { name: 'swap', url: '/dashboard/marketplace/swap', ready: heading('Swap Tokens') },
    { name: 'stake plans', url: '/dashboard/marketplace/stake/plans', ready: heading(/Stake Plans/) },
    { name: 'stake dialog', open: stakeBtc, ready: dialog('Stake Bitcoin (BTC)'), within: OPEN_DIALOG },
    { name: 'manage stakes', url: '/dashboard/marketplace/stake/manage', ready: heading(/Manage Stakes/) },
  ]);
  // The sidebar is a drawer on a phone only.
  const drawer: Screen = {
    name: 'navigation drawer',
    url: '/dashboard/overview',
    open: (p) => p.getByRole('button', { name: 'Open navigation menu' }).click(),
    ready: (p) => p.getByRole('navigation', { name: 'Dashboard' }),
  };
  await scanScreens(page, [drawer], [WINDOWS[1]]);
});

test('second factor: the sign-in screen at its authenticator step', async ({ page, request }) => {
  const user = await createConfirmedUser(request, 'a11y-mfa', 'Morgan Factor');
  const first = (await (await passwordSession(request, user.email, user.password)).json()) as ApiSession;
  await enrolAuthenticator(request, first);
  const aal1 = (await (await passwordSession(request, user.email, user.password)).json()) as ApiSession;
  await openAs(page, aal1, '/verify-mfa');
  await scanScreens(page, [{ name: 'verify MFA', url: '/verify-mfa', ready: (p) => p.getByRole('textbox').first() }]);
});

test('worker: forced password change, the worker dashboard and every tab of a user profile', async ({ page, request }) => {
  test.setTimeout(240_000);
  const manager = await demoManagerSession(request);
  const worker = await newWorker(request, manager);
  const customer = await customerWithHistory(request, 'a11y-claimed');
  const userId = customer.session.user.id;
  await post(request, worker.session, 'claim-user', { userIdToClaim: userId });
  // Above the two-person limit: a request waiting on the Approvals tabs.
  const held = await request.post('/functions/v1/add-transaction', {
    headers: bearer(worker.session),
    data: {
      targetUserId: userId,
      assetId: 'BTC',
      amount: '500',
      status: 'Complete',
      sentAt: new Date().toISOString(),
      senderAddress: 'bc1qbig',
      note: 'Large',
    },
  });
  expect(held.status(), await held.text()).toBe(202);

  const beforeOwnPassword = await await page.context().newPage();
  await openAs(beforeOwnPassword, worker.first, '/force-password-change');
  await scanScreens(beforeOwnPassword, [
    {
      name: 'forced password change',
      url: '/force-password-change',
      ready: (p) => p.getByRole('button', { name: /Password|Set/ }).first(),
    },
  ]);
  await beforeOwnPassword.close();

  await openAs(page, worker.session, '/dashboard/worker');
  const profile = `/dashboard/user-profile/${userId}`;
  await scanScreens(page, [
    { name: 'search user', url: '/dashboard/worker/search-user', ready: heading('Worker Dashboard') },
    { name: 'my users', url: '/dashboard/worker/my-users', ready: (p) => p.getByText(customer.email).first() },
    { name: 'support tickets', url: '/dashboard/worker/support-tickets', ready: (p) => p.getByText('Card declined').first() },
    {
      name: 'ticket conversation',
      open: (p) => p.getByText('Card declined').first().click(),
      ready: (p) => p.getByText('Please help: my card was declined.').first(),
    },
    { name: 'stake', url: '/dashboard/worker/stake', ready: heading('Worker Dashboard') },
    { name: 'worker approvals', url: '/dashboard/worker/approvals', ready: heading('Worker Dashboard') },
    { name: 'profile: general', url: `${profile}/general`, ready: (p) => p.getByText(customer.email).first() },
    { name: 'profile: wallets', url: `${profile}/wallets`, ready: (p) => p.locator('tr[data-asset="BTC"]') },
    {
      name: 'profile: add transaction',
      open: (p) => p.getByRole('button', { name: 'Add Tx BTC' }).click(),
      ready: dialog('Add BTC Transaction'),
      within: OPEN_DIALOG,
    },
    {
      name: 'profile: add transaction, second approval ahead',
      open: async (p) => {
        const form = p.getByRole('dialog', { name: 'Add BTC Transaction' });
        await form.getByLabel('Amount *').fill('500');
        await form.getByLabel('Status *').selectOption('Complete');
      },
      ready: (p) =>
        p.getByRole('dialog', { name: 'Add BTC Transaction' }).getByRole('status').filter({ hasText: "second person's approval" }),
      within: OPEN_DIALOG,
    },
    { name: 'profile: transactions', url: `${profile}/transactions`, ready: (p) => p.getByText('Opening funds').first() },
    { name: 'profile: verification', url: `${profile}/verification`, ready: (p) => p.locator('main') },
    { name: 'profile: payment management', url: `${profile}/payment-management`, ready: (p) => p.locator('main') },
    { name: 'profile: event trail', url: `${profile}/events`, ready: (p) => p.locator('main') },
  ]);
});

test('manager and admin: every tab of their dashboards', async ({ page, request }) => {
  test.setTimeout(240_000);
  const manager = await demoManagerSession(request);
  const admin = await demoAdminSession(request);
  // A ticket from a customer no worker owns waits in the manager's queue.
  await customerWithHistory(request, 'a11y-unowned');
  await openAs(page, manager, '/dashboard/manager');
  await scanScreens(page, [
    { name: 'my workers', url: '/dashboard/manager/my-workers', ready: heading('Manager Dashboard') },
    { name: 'create worker', url: '/dashboard/manager/create-worker', ready: heading('Manager Dashboard') },
    { name: 'actions', url: '/dashboard/manager/actions', ready: heading('Manager Dashboard') },
    { name: 'all users', url: '/dashboard/manager/all-users', ready: heading('Manager Dashboard') },
    { name: 'unassigned tickets', url: '/dashboard/manager/unassigned-tickets', ready: (p) => p.getByText('Card declined').first() },
    { name: 'manager approvals', url: '/dashboard/manager/approvals', ready: heading('Manager Dashboard') },
  ]);
  await openAs(page, admin, '/dashboard/admin');
  await scanScreens(page, [
    { name: 'staff activity', url: '/dashboard/admin/staff-activity', ready: heading('Admin Dashboard') },
    { name: 'admin approvals', url: '/dashboard/admin/approvals', ready: heading('Admin Dashboard') },
  ]);
});
