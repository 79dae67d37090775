import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { solveAltcha, type AltchaChallenge } from '../support/proof-of-work.js';

/** Shared steps of the browser tests: users, the local mailbox, the captcha, signing in. */

export const screens = 'docs/screens';

export type Mail = { id: string; to: string; subject: string; text: string; html?: string; sentAt: string };

export type ApiSession = {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  user: { id: string; email: string; user_metadata: Record<string, unknown>; factors?: { id: string; status: string }[] };
};

let counter = 0;

/** An address no earlier test (or run) has used. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** The newest mail to `to` with `subject` that is not one of `seen`, waiting for it to arrive. */
export async function waitForMail(request: APIRequestContext, to: string, subject: string, seen: string[] = []): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
        expect(response.ok()).toBe(true);
        const mails = (await response.json()) as Mail[];
        found = mails.find((m) => m.to.toLowerCase() === to.toLowerCase() && m.subject === subject && !seen.includes(m.id));
        return Boolean(found);
      },
      { message: `a mail "${subject}" to ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** All mails to `to` so far (ids), to tell a new one from the old ones. */
export async function mailIds(request: APIRequestContext, to: string): Promise<string[]> {
  const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as Mail[]).map((m) => m.id);
}

export function linkIn(mail: Mail, pathPart: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(pathPart));
  expect(link, `a link containing ${pathPart} in "${mail.subject}"`).toBeTruthy();
  return link!.replace(/[)>.,]+$/, '');
}

export function codeIn(mail: Mail): string {
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  expect(code, `a six-digit code in "${mail.subject}"`).toBeTruthy();
  return code!;
}

/**
 * Solves the server's proof-of-work challenge outside the browser (for set-up through the API),
 * with the fast solver of the vitest suites; the browser's own widget is tested by the tests
 * that click it (solveCaptchaWidget).
 */
export async function solveCaptcha(request: APIRequestContext): Promise<string> {
  const response = await request.get('/functions/v1/captcha-challenge');
  expect(response.ok()).toBe(true);
  return solveAltcha((await response.json()) as AltchaChallenge);
}

/** A confirmed account made through the API: sign-up, then the e-mailed confirmation link. */
export async function createConfirmedUser(
  request: APIRequestContext,
  tag: string,
  fullName = 'Test Customer',
): Promise<{ email: string; password: string; fullName: string }> {
  const email = uniqueEmail(tag);
  const password = 'Correct-horse-9';
  const signUp = await request.post('/auth/v1/signup', {
    data: { email, password, data: { full_name: fullName }, gotrue_meta_security: { captcha_token: await solveCaptcha(request) } },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const mail = await waitForMail(request, email, 'Confirm your email address');
  const confirm = await request.get(linkIn(mail, '/auth/v1/verify'), { maxRedirects: 0 });
  expect(confirm.status()).toBe(303);
  expect(confirm.headers()['location']).toContain('confirmed=1');
  return { email, password, fullName };
}

/**
 * Signs in through the API with a solved captcha, which the server asks of every sign-in from
 * an address with a wrong password in the last 15 minutes (see actFromOwnAddress).
 */
export async function apiSignIn(request: APIRequestContext, email: string, password: string): Promise<ApiSession> {
  const response = await passwordSignIn(request, email, password);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as ApiSession;
}

export function bearer(session: { access_token: string }): Record<string, string> {
  return { Authorization: `Bearer ${session.access_token}` };
}

/**
 * Gives the page's requests a client address of their own (in the documentation range
 * 2001:db8::/32), as a trusted proxy forwards it: the browser tests' server believes
 * X-Forwarded-For from its loopback (TRUST_PROXY in playwright.config.ts). A wrong password then
 * makes only this address suspicious, not 127.0.0.1, which every other test signs in from
 * without a captcha; a new address per call, so a retry or a repeat starts unsuspected too.
 */
export async function actFromOwnAddress(page: Page): Promise<void> {
  const groups = randomBytes(8).toString('hex').match(/.{4}/g)!;
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': `2001:db8::${groups.join(':')}` });
}

/** Clicks the ALTCHA checkbox and waits for the proof of work to finish in the browser. */
export async function solveCaptchaWidget(page: Page): Promise<void> {
  const widget = page.locator('altcha-widget');
  await expect(widget.getByText("I'm not a robot")).toBeVisible();
  await widget.getByText("I'm not a robot").click();
  await expect(widget.getByText('Verified')).toBeVisible({ timeout: 20_000 });
}

/** Signs in through the sign-in screen and waits for the dashboard. */
export async function signInWithForm(page: Page, email: string, password: string, opts: { expectDashboard?: boolean } = {}): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  if (opts.expectDashboard === false) return;
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
}

/**
 * A new confirmed customer, signed in and on the overview. The session is made through the
 * API (with a solved captcha, as apiSignIn) and handed to the app the way it keeps one: in
 * localStorage.
 */
export async function signInNewCustomer(
  page: Page,
  request: APIRequestContext,
  tag: string,
  fullName = 'Test Customer',
): Promise<{ email: string; password: string; fullName: string; session: ApiSession }> {
  const user = await createConfirmedUser(request, tag, fullName);
  const response = await request.post('/auth/v1/token?grant_type=password', {
    data: { email: user.email, password: user.password, gotrue_meta_security: { captcha_token: await solveCaptcha(request) } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const session = (await response.json()) as ApiSession;
  await keepSession(page, session);
  await page.goto('/dashboard/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  return { ...user, session };
}

/** Fails when the page is wider than the window (a sideways scroll on a phone). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'page wider than the window').toBeLessThanOrEqual(0);
}

/** The password the demo admin gets once its one-time password is used. */
const ADMIN_OWN_PASSWORD = 'admin-own-pass-1';
const MANAGER_OWN_PASSWORD = 'manager-own-pass-1';

async function passwordSignIn(request: APIRequestContext, email: string, password: string) {
  // With a solved captcha: a wrong password from this address makes the server ask for it.
  return request.post('/auth/v1/token?grant_type=password', {
    data: { email, password, gotrue_meta_security: { captcha_token: await solveCaptcha(request) } },
  });
}

/**
 * Signs in with `given`; when that works, replaces it with `own` (a first sign-in with a
 * one-time password); then signs in with `own`. An earlier test may already have done the trade.
 */
export async function ownSession(request: APIRequestContext, email: string, given: string, own: string): Promise<ApiSession> {
  const first = await passwordSignIn(request, email, given);
  if (first.ok()) {
    const changed = await request.put('/auth/v1/user', { headers: bearer((await first.json()) as ApiSession), data: { password: own } });
    expect(changed.ok(), await changed.text()).toBe(true);
  } else {
    expect(((await first.json()) as { code?: string }).code).toBe('invalid_credentials');
  }
  const again = await passwordSignIn(request, email, own);
  expect(again.ok(), await again.text()).toBe(true);
  return (await again.json()) as ApiSession;
}

/** A demo staff member's e-mail and one-time password, from the server's demo-users.txt. */
export function demoStaff(role: 'WORKER' | 'MANAGER' | 'ADMIN'): { email: string; oneTime: string } {
  const demo = fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, 'demo-users.txt'), 'utf8');
  const [, email, oneTime] = new RegExp(`${role}\\s+(\\S+)\\s+password: (\\S+)`).exec(demo)!;
  return { email: email!, oneTime: oneTime! };
}

/**
 * Gives the demo ADMIN and MANAGER passwords of their own, once per run (global-setup.ts), so
 * that the tests, two at a time, sign them in without racing each other for the one-time
 * password, and without the wrong-password tries that would make every later sign-in from this
 * address need the captcha (the sign-in screen's tests expect none).
 */
export async function tradeDemoStaffPasswords(request: APIRequestContext): Promise<void> {
  await ownSession(request, demoStaff('ADMIN').email, demoStaff('ADMIN').oneTime, ADMIN_OWN_PASSWORD);
  await ownSession(request, demoStaff('MANAGER').email, demoStaff('MANAGER').oneTime, MANAGER_OWN_PASSWORD);
}

/** A demo staff member, signed in through the API with the password of their own. */
async function demoStaffSession(request: APIRequestContext, role: 'ADMIN' | 'MANAGER', own: string): Promise<ApiSession> {
  const answer = await passwordSignIn(request, demoStaff(role).email, own);
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()) as ApiSession;
}

/** The demo ADMIN, signed in through the API. */
export function demoAdminSession(request: APIRequestContext): Promise<ApiSession> {
  return demoStaffSession(request, 'ADMIN', ADMIN_OWN_PASSWORD);
}

/** The demo MANAGER, signed in through the API. */
export function demoManagerSession(request: APIRequestContext): Promise<ApiSession> {
  return demoStaffSession(request, 'MANAGER', MANAGER_OWN_PASSWORD);
}

/**
 * A new worker of the demo manager's, made through the API as the Create Worker tab does. Their
 * first sign-in with the manager's password leads to the forced password change.
 */
export async function createWorker(
  request: APIRequestContext,
  tag: string,
  fullName = 'Test Worker',
): Promise<{ email: string; password: string }> {
  const manager = await demoManagerSession(request);
  const email = uniqueEmail(tag);
  const password = 'Given-by-manager-1';
  const created = await request.post('/functions/v1/create-worker-for-manager', {
    headers: bearer(manager),
    data: { fullName, email, password },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { email, password };
}

/** A password sign-in through the API (the raw answer, for tests that expect a refusal too). */
export function passwordSession(request: APIRequestContext, email: string, password: string) {
  return passwordSignIn(request, email, password);
}

/**
 * Puts a session where the app keeps one (local storage of the site). The storage is reached
 * from the health check, a small page of the same origin: loading the app itself for this
 * cost a second or more of the browser's time in every test that signs in.
 */
export async function keepSession(page: Page, session: ApiSession): Promise<void> {
  await page.goto('/healthz');
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    'wallet-ledger.session',
    JSON.stringify(session),
  ] as const);
}

/** Hands a session to the app the way it keeps one, then opens `url`. */
export async function openAs(page: Page, session: ApiSession, url: string): Promise<void> {
  await keepSession(page, session);
  await page.goto(url);
}

/** Enrols an authenticator through the API and proves it with a code of the current 30 s step. */
export async function enrolAuthenticator(request: APIRequestContext, session: ApiSession) {
  const enrolled = await request.post('/auth/v1/factors', { headers: bearer(session), data: { factor_type: 'totp' } });
  expect(enrolled.ok(), await enrolled.text()).toBe(true);
  const factor = (await enrolled.json()) as { id: string; totp: { secret: string } };
  const challenge = (await (await request.post(`/auth/v1/factors/${factor.id}/challenge`, { headers: bearer(session) })).json()) as {
    id: string;
  };
  const enrolStep = Math.floor(Date.now() / 30_000);
  const proved = await request.post(`/auth/v1/factors/${factor.id}/verify`, {
    headers: bearer(session),
    data: { challenge_id: challenge.id, code: await generate({ secret: factor.totp.secret, epoch: enrolStep * 30 }) },
  });
  expect(proved.ok(), await proved.text()).toBe(true);
  const { recovery_codes: recoveryCodes } = (await proved.json()) as { recovery_codes: string[] };
  return { factor, enrolStep, recoveryCodes };
}

/**
 * On a phone (390 x 844): each element is inside the window's width without any sideways scroll
 * (of the page or of a box around it), and the page is no wider than the window. Then a
 * screenshot, and the window goes back to `restore`.
 */
export async function expectReachableOnPhone(
  page: Page,
  elements: Locator[],
  screenshot: string,
  restore: { width: number; height: number },
): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  // (after a resize the sidebar settles into its drawer first)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  for (const element of elements) {
    await element.scrollIntoViewIfNeeded();
    const scrolledSideways = await element.evaluate((el) => {
      for (let box = el.parentElement; box; box = box.parentElement) if (box.scrollLeft > 0) return true;
      return false;
    });
    expect(scrolledSideways, 'reached by a sideways scroll').toBe(false);
    const box = await element.boundingBox();
    expect(box, 'element shown').not.toBeNull();
    expect(box!.x, 'left edge on screen').toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, 'right edge on screen').toBeLessThanOrEqual(390);
  }
  await page.screenshot({ path: `${screens}/${screenshot}`, fullPage: true });
  await page.setViewportSize(restore);
}

/** The app's realtime socket, as page.routeWebSocket matches it. */
export const REALTIME_URL = /\/realtime\/v1\?token=/;

/** A link of the dashboard's sidebar. */
export function sidebarLink(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name });
}
