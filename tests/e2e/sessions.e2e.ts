import { expect, test } from '@playwright/test';
import {
  type ApiSession,
  apiSignIn,
  bearer,
  createConfirmedUser,
  expectReachableOnPhone,
  keepSession,
  screens,
  signInNewCustomer,
  signInWithForm,
  solveCaptcha,
} from './helpers.js';

/* The session (spec 000 section 4.3): a reload and a closed page, a spent refresh token, the account's sessions in Settings. */

test.describe('session', () => {
  test('a reload or a typed URL on a slow phone keeps the session, however long the next page takes to start', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const user = await createConfirmedUser(request, 'slow-reload');
    await signInWithForm(page, user.email, user.password);
    const signOuts: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/auth/v1/logout')) signOuts.push(r.url());
    });
    // A slow phone's network (about 400 kbit/s, 400 ms round trips), and the app's code held
    // back a further 3.5 s, so the next page starts well over 3 s after this one was left.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 400,
      downloadThroughput: 50 * 1024,
      uploadThroughput: 50 * 1024,
    });
    await page.route('**/assets/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      await route.continue();
    });
    const codeArrivedAfter = () =>
      page.evaluate(() =>
        Math.max(
          ...performance
            .getEntriesByType('resource')
            .filter((e) => e.name.endsWith('.js'))
            .map((e) => (e as PerformanceResourceTiming).responseEnd),
        ),
      );

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible({ timeout: 60_000 });
    expect(await codeArrivedAfter()).toBeGreaterThan(3_000);

    await page.goto('/dashboard/settings');
    await expect(page).toHaveURL(/\/dashboard\/settings/);
    await expect(page.getByRole('button', { name: 'Open user menu' })).toBeVisible({ timeout: 60_000 });
    expect(await codeArrivedAfter()).toBeGreaterThan(3_000);
    expect(signOuts).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('wallet-ledger.session'))).not.toBeNull();
  });

  test('closing every tab of the app for more than 3 s starts signed out; with another tab open it does not', async ({ page, request }) => {
    const user = await createConfirmedUser(request, 'reopen');
    await signInWithForm(page, user.email, user.password);
    const context = page.context();

    // Two tabs: closing one while the other stays open is not closing the app.
    const other = await context.newPage();
    await other.goto('/dashboard/overview');
    await expect(other.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await other.close({ runBeforeUnload: true });
    await page.waitForTimeout(3_500);
    const third = await context.newPage();
    await third.goto('/dashboard/overview');
    await expect(third.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await third.close({ runBeforeUnload: true });

    // Now every tab of the app: a page of the same origin that is not the app reads the
    // closing time the app kept (the browser may run a closed page's pagehide a little late).
    await page.close({ runBeforeUnload: true });
    const reader = await context.newPage();
    await reader.goto('/healthz');
    await expect.poll(() => reader.evaluate(() => localStorage.getItem('wallet-ledger.closed-at'))).toMatch(/^\d+$/);
    await reader.close();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const back = await context.newPage();
    await back.goto('/dashboard/overview');
    await expect(back).toHaveURL(/\/login$/);
    expect(await back.evaluate(() => localStorage.getItem('wallet-ledger.session'))).toBeNull();
  });

  test('a session kept by an older version of the app still opens the dashboard; an unreadable one starts signed out', async ({
    page,
    request,
  }) => {
    const user = await createConfirmedUser(request, 'old-copy', 'Olive Copy');
    const session = await apiSignIn(request, user.email, user.password);
    // Without the fields the access contract names now (the role, the second factors, the expiry).
    const { user_metadata: _metadata, factors: _factors, ...olderUser } = session.user;
    const { expires_at: _expiresAt, ...olderSession } = session;
    await keepSession(page, { ...olderSession, user: olderUser } as ApiSession);
    await page.goto('/dashboard/overview');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open user menu' })).toBeVisible();

    await page.goto('/healthz');
    await page.evaluate(() => localStorage.setItem('wallet-ledger.session', '{"access_token":'));
    await page.goto('/dashboard/overview');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('refresh tokens', () => {
  test('reusing a spent refresh token ends the session, and the page that held it is signed out', async ({ page, request }) => {
    test.setTimeout(60_000);
    const user = await createConfirmedUser(request, 'reuse');
    await signInWithForm(page, user.email, user.password);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('wallet-ledger.session')!));
    // Someone who copied the refresh token uses it first...
    const stolen = await request.post('/auth/v1/token?grant_type=refresh_token', { data: { refresh_token: stored.refresh_token } });
    expect(stolen.ok()).toBe(true);
    // Within 10 s a repeat is taken for a retry or a second tab (the same new pair); past that grace,
    // the rightful page refreshing with the same (now spent) token ends the whole session.
    await page.waitForTimeout(11_000);
    const reuse = await request.post('/auth/v1/token?grant_type=refresh_token', { data: { refresh_token: stored.refresh_token } });
    expect(await reuse.json()).toEqual({ error: 'Invalid Refresh Token: Already Used', code: 'refresh_token_already_used' });
    const thief = await request.get('/auth/v1/user', { headers: { Authorization: `Bearer ${(await stolen.json()).access_token}` } });
    expect(thief.status()).toBe(401);
    await page.reload();
    await expect(page).toHaveURL(/\/login/);
  });
});

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

test.describe('sessions', () => {
  test("Settings lists the account's sessions, and ending another one signs that device out", async ({ page, request }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 1280, height: 1000 });
    const user = await signInNewCustomer(page, request, 'sessions', 'Sess Ions');
    const phone = await request.post('/auth/v1/token?grant_type=password', {
      headers: { 'user-agent': IPHONE_UA },
      data: { email: user.email, password: user.password, gotrue_meta_security: { captcha_token: await solveCaptcha(request) } },
    });
    expect(phone.ok(), await phone.text()).toBe(true);
    const phoneSession = (await phone.json()) as ApiSession;
    // What the app does after a sign-in: the login history records the device.
    const logged = await request.post('/functions/v1/log-login-details', { headers: { ...bearer(phoneSession), 'user-agent': IPHONE_UA } });
    expect(logged.ok(), await logged.text()).toBe(true);

    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'Security' }).click();
    const sessions = page.locator('section[aria-labelledby="sessions-title"]');
    await expect(sessions.getByRole('heading', { name: 'Active Sessions' })).toBeVisible();
    await expect(sessions.getByRole('row')).toHaveCount(3);
    await expect(sessions.getByText('This device')).toBeVisible();
    // The device as a person reads it, not the raw user-agent string; dates in the app's list format.
    await expect(sessions.getByRole('cell', { name: 'Safari 17.1 on iOS 17.1' })).toBeVisible();
    // Login history is a projection of the sign-in events: it may trail the sign-in by a moment.
    const history = page.locator('section[aria-labelledby="login-history-title"]');
    await expect(async () => {
      await page.goto('/dashboard/settings');
      await page.getByRole('tab', { name: 'Security' }).click();
      await expect(history.getByRole('cell', { name: 'Safari 17.1 on iOS 17.1' })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(history.locator('td[data-label="Date & Time"]').first()).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4} \| \d{2}:\d{2}$/);
    await page.screenshot({ path: `${screens}/settings-sessions.png`, fullPage: true });

    // On a phone every settings tab is on screen (the strip wraps) and a sign-in's date stays on one line.
    const dateCell = history.locator('td[data-label="Date & Time"]').first();
    await expectReachableOnPhone(
      page,
      [
        ...['General', 'Notifications', 'Verification', 'Payment Methods', 'Security'].map((name) => page.getByRole('tab', { name })),
        dateCell,
      ],
      'settings-security-phone.png',
      { width: 390, height: 844 },
    );
    const lineHeight = await dateCell.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
    expect((await dateCell.boundingBox())!.height).toBeLessThan(lineHeight * 2 + 12);
    await page.setViewportSize({ width: 1280, height: 1000 });

    await sessions
      .getByRole('row', { name: /Safari 17\.1 on iOS/ })
      .getByRole('button', { name: /End session/ })
      .click();
    // Asked first: Cancel ends nothing.
    const ask = page.getByRole('dialog', { name: 'End Session' });
    await expect(ask).toContainText('Safari 17.1 on iOS 17.1');
    await page.screenshot({ path: `${screens}/settings-session-end-confirm.png` });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeHidden();
    expect((await request.get('/auth/v1/user', { headers: bearer(phoneSession) })).status()).toBe(200);
    await sessions
      .getByRole('row', { name: /Safari 17\.1 on iOS/ })
      .getByRole('button', { name: /End session/ })
      .click();
    await ask.getByRole('button', { name: 'End Session' }).click();
    await expect(ask).toBeHidden();
    await expect(sessions.getByRole('cell', { name: 'Safari 17.1 on iOS 17.1' })).toBeHidden();
    await expect(sessions.getByRole('row')).toHaveCount(2);
    expect((await request.get('/auth/v1/user', { headers: bearer(phoneSession) })).status()).toBe(401);
    // This device is still signed in.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeVisible();
  });
});
