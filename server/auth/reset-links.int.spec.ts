import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { InjectOptions } from 'fastify';
import { bearer, createTestApp, ipFor, mailTo, registeredCustomer, solveCaptcha, type TestApp } from '../../tests/support/test-app.js';
import { drainMail, type StoredMail } from '../mail/mailer.js';
import { LINK_MAILS_PER_HOUR } from './accounts.js';

/** Issue 45: one live reset link per account, a reset session that only sets the password, link mails limited per address. */
describe('password reset links and their sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const as = (email: string) => (opts: InjectOptions) => t.app.inject({ remoteAddress: ipFor(email), ...opts });

  /** Asks for a reset link and reads it from the mail that follows. */
  const resetLink = async (email: string, after?: StoredMail) => {
    expect((await as(email)({ method: 'POST', url: '/auth/v1/recover', payload: { email } })).json()).toEqual({});
    const mail = await mailTo(t.outbox, email, /Reset your password/, { newerThan: after });
    return { mail, token: /update-password#type=recovery&token=([\w-]+)/.exec(mail.text)![1]! };
  };
  const openLink = (email: string, token: string) =>
    as(email)({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token } });

  it('a new link retires the older ones, and a password change retires all', async () => {
    const email = 'two.links@example.com';
    const s = await registeredCustomer(t, email, 'two-links-pass-1');
    const first = await resetLink(email);
    const second = await resetLink(email, first.mail);
    expect((await openLink(email, first.token)).json().code).toBe('otp_invalid');
    const session = await openLink(email, second.token);
    expect(session.statusCode, session.body).toBe(200);

    // A link asked for, then the password changed another way: the link is dead.
    const third = await resetLink(email, second.mail);
    const changed = await as(email)({
      method: 'POST',
      url: '/functions/v1/verify-and-update-password',
      headers: bearer(s.access_token),
      payload: { oldPassword: 'two-links-pass-1', newPassword: 'two-links-pass-2' },
    });
    expect(changed.json()).toEqual({ success: true });
    expect((await openLink(email, third.token)).json().code).toBe('otp_invalid');
  });

  it('a reset session sets the password and nothing else, cannot be refreshed, and ends after 15 minutes or the change', async () => {
    const email = 'reset.session@example.com';
    await registeredCustomer(t, email, 'reset-session-pass-1');
    const { token } = await resetLink(email);
    const opened = (await openLink(email, token)).json();
    const rt = opened.access_token as string;
    const call = (opts: InjectOptions) => as(email)({ ...opts, headers: { ...bearer(rt), ...opts.headers } });

    expect((await call({ method: 'GET', url: '/auth/v1/sessions' })).json().code).toBe('password_change_required');
    expect((await call({ method: 'POST', url: '/auth/v1/factors', payload: { factor_type: 'totp' } })).json().code).toBe(
      'password_change_required',
    );
    expect((await call({ method: 'PUT', url: '/auth/v1/user', payload: { data: { active_mfa_method: 'email' } } })).json().code).toBe(
      'recovery_password_only',
    );
    // No refresh: the session cannot outlive its purpose, and the attempt ends it.
    const refreshed = await as(email)({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: opened.refresh_token },
    });
    expect([refreshed.statusCode, refreshed.json().code]).toEqual([400, 'invalid_refresh_token']);
    expect((await call({ method: 'GET', url: '/auth/v1/user' })).statusCode).toBe(401);

    // Another link, used after 15 minutes: refused, even with the token still within its own time.
    const later = await resetLink(email, await mailTo(t.outbox, email, /Reset your password/));
    const late = (await openLink(email, later.token)).json();
    expect((await as(email)({ method: 'GET', url: '/auth/v1/user', headers: bearer(late.access_token) })).statusCode).toBe(200);
    const sessionId = JSON.parse(Buffer.from(late.access_token.split('.')[1], 'base64url').toString()).session_id as string;
    await sql`update auth_sessions set created_at = now() - interval '16 minutes' where id = ${sessionId}::uuid`.execute(t.database.db);
    const put = await as(email)({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(late.access_token),
      payload: { password: 'too-late-pass-9' },
    });
    expect(put.statusCode).toBe(401);

    // A fresh link's session sets the password once and ends with it.
    const last = await resetLink(email, await mailTo(t.outbox, email, /Reset your password/));
    const fresh = (await openLink(email, last.token)).json();
    const set = await as(email)({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(fresh.access_token),
      payload: { password: 'reset-session-pass-2' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await as(email)({ method: 'GET', url: '/auth/v1/user', headers: bearer(fresh.access_token) })).statusCode).toBe(401);
  });

  it(`mails at most ${LINK_MAILS_PER_HOUR} reset links an hour to one address, answering as before`, async () => {
    const email = 'many.resets@example.com';
    await registeredCustomer(t, email, 'many-resets-pass-1');
    for (let i = 0; i < LINK_MAILS_PER_HOUR + 3; i++) {
      const res = await as(email)({ method: 'POST', url: '/auth/v1/recover', payload: { email } });
      expect([res.statusCode, res.json()]).toEqual([200, {}]);
    }
    await drainMail(t.app.authServices.mailer, 5000);
    const resets = (await t.outbox.list({ to: email })).filter((m) => /Reset your password/.test(m.subject));
    expect(resets).toHaveLength(LINK_MAILS_PER_HOUR);
  });

  it(`mails at most ${LINK_MAILS_PER_HOUR} confirmation links an hour to one address`, async () => {
    const email = 'many.confirms@example.com';
    const signup = await as(email)({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: {
        email,
        password: 'many-confirms-pass-1',
        data: { full_name: 'Many Confirms' },
        gotrue_meta_security: { captcha_token: await solveCaptcha(t.app, ipFor(email)) },
      },
    });
    expect(signup.statusCode).toBe(200);
    await mailTo(t.outbox, email, /Confirm/);
    for (let i = 0; i < LINK_MAILS_PER_HOUR + 2; i++) {
      // Past the ten minutes between two confirmation mails, so that only the hourly limit holds them back.
      await sql`update auth_one_time_tokens set created_at = created_at - interval '11 minutes' where kind = 'signup'`.execute(
        t.database.db,
      );
      const res = await as(email)({ method: 'POST', url: '/auth/v1/resend', payload: { type: 'signup', email } });
      expect([res.statusCode, res.json()]).toEqual([200, {}]);
      await drainMail(t.app.authServices.mailer, 5000);
    }
    const confirmations = (await t.outbox.list({ to: email })).filter((m) => /Confirm/.test(m.subject));
    expect(confirmations).toHaveLength(LINK_MAILS_PER_HOUR);
  });
});
