import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, ipFor, mailTo, registeredCustomer, signIn, solveCaptcha, type TestApp } from '../../tests/support/test-app.js';

const LINK = /https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/;

describe('a confirmation link that expired or went astray', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const signUp = async (email: string, password: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      remoteAddress: ipFor(email),
      payload: { email, password, data: { full_name: 'Late Reader' }, gotrue_meta_security: { captcha_token: await solveCaptcha(t.app) } },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string };
  };
  /** With a solved captcha: after a wrong password the next sign-ins need one. */
  const trySignIn = async (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: ipFor(email),
      payload: { email, password, gotrue_meta_security: { captcha_token: await solveCaptcha(t.app) } },
    });
  const follow = (mailText: string) => {
    const link = new URL(LINK.exec(mailText)![0]);
    return t.app.inject({ method: 'GET', url: link.pathname + link.search });
  };
  /** Makes every confirmation link of the user a day old: expired, and sent long ago. */
  const ageLinks = (userId: string) =>
    sql`update auth_one_time_tokens set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
      where user_id = ${userId}::uuid and kind = 'signup'`.execute(t.database.db);
  const mailsTo = async (email: string) => (await t.outbox.list()).filter((m) => m.to === email && /Confirm/.test(m.subject)).length;

  it('signing in with the right password mails a new link (once in ten minutes), which confirms the address', async () => {
    const email = 'late.reader@example.com';
    const user = await signUp(email, 'patient-pass-1');
    const first = await mailTo(t.outbox, email, /Confirm/);
    await ageLinks(user.id);
    expect((await follow(first.text)).headers.location).toBe('/login?confirm_error=1');

    // A wrong password earns no mail.
    expect((await trySignIn(email, 'wrong-pass-1')).json().code).toBe('invalid_credentials');
    expect(await mailsTo(email)).toBe(1);

    const refused = await trySignIn(email, 'patient-pass-1');
    expect(refused.json()).toEqual({ error: 'Email not confirmed', code: 'email_not_confirmed' });
    const second = await mailTo(t.outbox, email, /Confirm/, { newerThan: first });
    // A second try at once sends no third mail: the second may still be on its way.
    expect((await trySignIn(email, 'patient-pass-1')).json().code).toBe('email_not_confirmed');
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(email)).toBe(2);

    expect((await follow(second.text)).headers.location).toBe('/login?confirmed=1');
    expect((await signIn(t, email, 'patient-pass-1', await solveCaptcha(t.app))).user.id).toBe(user.id);
  });

  it('POST /auth/v1/resend mails a new link to an unconfirmed address and answers alike for any other', async () => {
    const email = 'resend.me@example.com';
    const user = await signUp(email, 'patient-pass-2');
    await mailTo(t.outbox, email, /Confirm/);
    const resend = (address: string) =>
      t.app.inject({ method: 'POST', url: '/auth/v1/resend', payload: { type: 'signup', email: address } });

    const soon = await resend(email);
    expect([soon.statusCode, soon.json()]).toEqual([200, {}]);
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(email)).toBe(1); // the first one went out a moment ago

    await ageLinks(user.id);
    expect((await resend(email)).json()).toEqual({});
    const fresh = await mailTo(t.outbox, email, /Confirm/, { newerThan: (await t.outbox.list()).find((m) => m.to === email) });
    expect((await follow(fresh.text)).headers.location).toBe('/login?confirmed=1');

    // A confirmed address and an unknown one: the same answer, no mail.
    const confirmed = 'already.here@example.com';
    await registeredCustomer(t, confirmed);
    for (const address of [confirmed, 'nobody@example.com']) {
      const res = await resend(address);
      expect([address, res.statusCode, res.json()]).toEqual([address, 200, {}]);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect([await mailsTo(confirmed), await mailsTo('nobody@example.com')]).toEqual([1, 0]);

    const bad = await t.app.inject({ method: 'POST', url: '/auth/v1/resend', payload: { type: 'sms', email } });
    expect(bad.statusCode).toBe(400);
  });
});
