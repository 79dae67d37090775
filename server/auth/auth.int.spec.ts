import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { sql } from 'kysely';
import type { InjectOptions } from 'fastify';
import {
  createTestApp,
  solveCaptcha,
  mailTo,
  bearer,
  ipFor,
  registeredCustomer,
  signIn,
  type TestApp,
} from '../../tests/support/test-app.js';
import { createStaff } from './staff-accounts.js';

describe('accounts and access (/auth/v1)', () => {
  let t: TestApp;
  const secretsSeen: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  /** Calls made for one account, from an address of its own (the per-IP limits stay with it). */
  const asUser = (email: string) => (opts: InjectOptions) => t.app.inject({ remoteAddress: ipFor(email), ...opts });

  /** Enrols an authenticator with `token`, proves it with a code and makes it the active method. */
  const enrolTotp = async (email: string, token: string) => {
    const call = asUser(email);
    const enrol = await call({ method: 'POST', url: '/auth/v1/factors', headers: bearer(token), payload: { factor_type: 'totp' } });
    expect(enrol.statusCode, enrol.body).toBe(200);
    const { id, totp } = enrol.json() as { id: string; totp: { secret: string } };
    secretsSeen.push(totp.secret);
    const challenge = (await call({ method: 'POST', url: `/auth/v1/factors/${id}/challenge`, headers: bearer(token) })).json().id;
    const verified = await call({
      method: 'POST',
      url: `/auth/v1/factors/${id}/verify`,
      headers: bearer(token),
      payload: { challenge_id: challenge, code: await generate({ secret: totp.secret }) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const upgraded = verified.json().access_token as string;
    const method = await call({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(upgraded),
      payload: { data: { active_mfa_method: 'totp' } },
    });
    expect(method.statusCode, method.body).toBe(200);
    return { id, secret: totp.secret, token: upgraded };
  };

  const codeMails = new Map<string, Awaited<ReturnType<typeof mailTo>>>();
  /** Asks for an e-mailed code and reads it from the mail that follows. */
  const emailCode = async (email: string) => {
    expect((await asUser(email)({ method: 'POST', url: '/auth/v1/otp', payload: { email, create_user: false } })).statusCode).toBe(200);
    const mail = await mailTo(t.outbox, email, /verification code/, { newerThan: codeMails.get(email) });
    codeMails.set(email, mail);
    return /\b(\d{6})\b/.exec(mail.text)![1]!;
  };
  const verifyEmailCode = (email: string, token: string, code: string) =>
    asUser(email)({ method: 'POST', url: '/auth/v1/verify', headers: bearer(token), payload: { type: 'email', email, token: code } });

  it('registers, refuses sign-in until the e-mailed link confirms the address, then signs in', async () => {
    const email = 'Ada.Lovelace@example.com';
    const captcha = await solveCaptcha(t.app);
    const signup = await inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: { email, password: 'analytical1', data: { full_name: 'Ada Lovelace' }, gotrue_meta_security: { captcha_token: captcha } },
    });
    expect(signup.statusCode).toBe(200);
    expect(signup.json()).toMatchObject({
      email,
      email_confirmed_at: null,
      user_metadata: { full_name: 'Ada Lovelace', role: 'USER', requires_password_change: false },
    });
    secretsSeen.push('analytical1');

    const early = await inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: { email, password: 'analytical1' } });
    expect(early.json()).toEqual({ error: 'Email not confirmed', code: 'email_not_confirmed' });

    const mail = await mailTo(t.outbox, email, /Confirm your email address/);
    const link = new URL(/https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec(mail.text)![0]);
    secretsSeen.push(link.searchParams.get('token')!);
    const confirm = await inject({ method: 'GET', url: link.pathname + link.search });
    expect([confirm.statusCode, confirm.headers.location]).toEqual([303, '/login?confirmed=1']);
    const again = await inject({ method: 'GET', url: link.pathname + link.search });
    expect(again.headers.location).toBe('/login?confirm_error=1');

    const session = await signIn(t, 'ada.lovelace@EXAMPLE.com', 'analytical1');
    expect(Object.keys(session).sort()).toEqual(['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type', 'user']);
    expect(session.user.email).toBe(email);
    const me = await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(session.access_token) });
    expect(me.json()).toMatchObject({ id: session.user.id, user_metadata: { active_mfa_method: null }, factors: [] });
    const profile = await t.database.db
      .selectFrom('user_profiles')
      .selectAll()
      .where('user_id', '=', session.user.id)
      .executeTakeFirstOrThrow();
    expect([profile.can_buy, profile.can_sell]).toEqual([true, true]);
  });

  it('makes no second account for the same address in any case, and refuses a short password and a sign-up without the captcha', async () => {
    const payload = (email: string, password: string, captcha?: string) => ({
      email,
      password,
      data: { full_name: 'X' },
      ...(captcha ? { gotrue_meta_security: { captcha_token: captcha } } : {}),
    });
    const dup = await inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: payload('ADA.LOVELACE@example.com', 'whatever12', await solveCaptcha(t.app)),
    });
    // Answered as for a new address (server/auth/enumeration.int.spec.ts); no second account is made.
    expect([dup.statusCode, dup.json().email_confirmed_at]).toEqual([200, null]);
    expect(
      await t.database.db.selectFrom('auth_email_index').select('user_id').where('email_lower', '=', 'ada.lovelace@example.com').execute(),
    ).toHaveLength(1);
    const weak = await inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: payload('short@example.com', 'short', await solveCaptcha(t.app)),
    });
    expect(weak.json()).toEqual({ error: 'Password must be at least 8 characters long.', code: 'weak_password' });
    const bot = await inject({ method: 'POST', url: '/auth/v1/signup', payload: payload('bot@example.com', 'longenough1') });
    expect(bot.json().code).toBe('captcha_required');
    const users = await t.database.db
      .selectFrom('users')
      .select('email')
      .where('email', 'in', ['short@example.com', 'bot@example.com'])
      .execute();
    expect(users).toEqual([]);
  });

  it('answers a wrong password and an unknown e-mail alike, then wants the captcha, which works once', async () => {
    await registeredCustomer(t, 'grace@example.com', 'compiler99');
    const ip = '10.0.0.7';
    const wrong = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: ip,
      payload: { email: 'grace@example.com', password: 'nope-nope' },
    });
    const unknown = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: '10.0.0.8',
      payload: { email: 'nobody@example.com', password: 'nope-nope' },
    });
    expect(wrong.json()).toEqual({ error: 'Invalid login credentials', code: 'invalid_credentials' });
    expect(unknown.json()).toEqual(wrong.json());
    const noCaptcha = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: ip,
      payload: { email: 'grace@example.com', password: 'compiler99' },
    });
    expect(noCaptcha.json().code).toBe('captcha_required');
    const captcha = await solveCaptcha(t.app);
    const ok = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: ip,
      payload: { email: 'grace@example.com', password: 'compiler99', gotrue_meta_security: { captcha_token: captcha } },
    });
    expect(ok.statusCode).toBe(200);
    await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: ip,
      payload: { email: 'grace@example.com', password: 'wrong-again' },
    });
    const replay = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: ip,
      payload: { email: 'grace@example.com', password: 'compiler99', gotrue_meta_security: { captcha_token: captcha } },
    });
    expect(replay.json().code).toBe('captcha_failed');
  });

  it('rotates refresh tokens; reusing a spent one ends the whole session', async () => {
    const first = await registeredCustomer(t, 'rotate@example.com', 'rotation123');
    const refresh = (token: string) =>
      inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: token } });
    const second = await refresh(first.refresh_token);
    expect(second.statusCode).toBe(200);
    expect(second.json().refresh_token).not.toBe(first.refresh_token);
    secretsSeen.push(first.refresh_token, second.json().refresh_token);
    const reuse = await refresh(first.refresh_token);
    expect(reuse.json()).toEqual({ error: 'Invalid Refresh Token: Already Used', code: 'refresh_token_already_used' });
    expect((await refresh(second.json().refresh_token)).json().code).toBe('invalid_refresh_token');
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(second.json().access_token) })).statusCode).toBe(401);
  });

  it('logs out one session, the others, or all', async () => {
    await registeredCustomer(t, 'scopes@example.com', 'scopes1234');
    const a = await signIn(t, 'scopes@example.com', 'scopes1234');
    const b = await signIn(t, 'scopes@example.com', 'scopes1234');
    const c = await signIn(t, 'scopes@example.com', 'scopes1234');
    const alive = async (s: { access_token: string }) =>
      (await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode === 200;
    expect((await inject({ method: 'POST', url: '/auth/v1/logout?scope=others', headers: bearer(a.access_token) })).statusCode).toBe(204);
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([true, false, false]);
    const d = await signIn(t, 'scopes@example.com', 'scopes1234');
    await inject({ method: 'POST', url: '/auth/v1/logout?scope=local', headers: bearer(d.access_token) });
    expect([await alive(a), await alive(d)]).toEqual([true, false]);
    await inject({ method: 'POST', url: '/auth/v1/logout?scope=global', headers: bearer(a.access_token) });
    expect(await alive(a)).toBe(false);
  });

  it('enrols an authenticator; then sign-in is aal1 until a code, and a code is accepted once', async () => {
    const s = await registeredCustomer(t, 'totp@example.com', 'totp-pass-1');
    const enrol = await inject({
      method: 'POST',
      url: '/auth/v1/factors',
      headers: bearer(s.access_token),
      payload: { factor_type: 'totp' },
    });
    const { id, totp } = enrol.json();
    expect(totp.qr_code).toMatch(/^data:image\/svg\+xml/);
    secretsSeen.push(totp.secret);
    const challenge = async (token: string) =>
      (await inject({ method: 'POST', url: `/auth/v1/factors/${id}/challenge`, headers: bearer(token) })).json().id;
    const verify = (token: string, challengeId: string, code: string) =>
      inject({
        method: 'POST',
        url: `/auth/v1/factors/${id}/verify`,
        headers: bearer(token),
        payload: { challenge_id: challengeId, code },
      });
    const code = await generate({ secret: totp.secret });
    const verified = await verify(s.access_token, await challenge(s.access_token), code);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.factors).toEqual([expect.objectContaining({ id, status: 'verified' })]);

    const again = await signIn(t, 'totp@example.com', 'totp-pass-1');
    const blocked = await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(again.access_token), payload: {} });
    expect([blocked.statusCode, blocked.json().code]).toEqual([403, 'mfa_required']);
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(again.access_token) })).statusCode).toBe(200);
    const reused = await verify(again.access_token, await challenge(again.access_token), code);
    expect(reused.json().code).toBe('mfa_verification_failed');
    // The next 30-second step's code (accepted within the clock tolerance) is new, so it works.
    const next = await generate({ secret: totp.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const upgraded = await verify(again.access_token, await challenge(again.access_token), next);
    expect(upgraded.statusCode).toBe(200);
    const claims = JSON.parse(Buffer.from(upgraded.json().access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ aal: 'aal2', role: 'USER', sub: s.user.id });
    expect(
      (await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(upgraded.json().access_token), payload: {} })).statusCode,
    ).toBe(200);

    // Removing it needs the password confirmed first.
    const token = upgraded.json().access_token;
    const refused = await inject({ method: 'DELETE', url: `/auth/v1/factors/${id}`, headers: bearer(token) });
    expect(refused.json().code).toBe('reauthentication_required');
    const reauth = await inject({
      method: 'POST',
      url: '/functions/v1/verify-and-update-password',
      headers: bearer(token),
      payload: { oldPassword: 'totp-pass-1', newPassword: 'totp-pass-1', verifyOnly: true },
    });
    expect(reauth.json()).toEqual({ success: true });
    expect((await inject({ method: 'DELETE', url: `/auth/v1/factors/${id}`, headers: bearer(token) })).statusCode).toBe(200);
  });

  it('e-mail codes: a second step after the password, five wrong tries spend the code', async () => {
    const s = await registeredCustomer(t, 'mailcode@example.com', 'mailcode12');
    let lastMail: Awaited<ReturnType<typeof mailTo>> | undefined;
    /** Asks for a code and reads it from the mail that follows. */
    const sendCode = async () => {
      expect(
        (await inject({ method: 'POST', url: '/auth/v1/otp', payload: { email: 'mailcode@example.com', create_user: false } })).json(),
      ).toEqual({});
      lastMail = await mailTo(t.outbox, 'mailcode@example.com', /verification code/, { newerThan: lastMail });
      return /\b(\d{6})\b/.exec(lastMail.text)![1]!;
    };
    const verify = (token: string, code: string) =>
      inject({
        method: 'POST',
        url: '/auth/v1/verify',
        headers: bearer(token),
        payload: { type: 'email', email: 'mailcode@example.com', token: code },
      });

    const code = await sendCode();
    secretsSeen.push(code);
    const first = await verify(s.access_token, code);
    expect(first.statusCode, first.body).toBe(200);
    const enable = await inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(s.access_token),
      payload: { data: { active_mfa_method: 'email' } },
    });
    expect(enable.json().user_metadata.active_mfa_method).toBe('email');

    const next = await signIn(t, 'mailcode@example.com', 'mailcode12');
    expect((await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(next.access_token), payload: {} })).json().code).toBe(
      'mfa_required',
    );
    const fresh = await sendCode();
    const wrong = fresh === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await verify(next.access_token, wrong)).json().code).toBe('otp_invalid');
    expect((await verify(next.access_token, fresh)).json().code).toBe('otp_invalid'); // spent by the five failures
    const last = await sendCode();
    expect((await verify(next.access_token, last)).statusCode).toBe(200);

    // Turning e-mail codes off needs the password again, in this very session, checked by the server.
    const off = (token: string) =>
      inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(token), payload: { data: { active_mfa_method: null } } });
    const reauth = (token: string, password: string) =>
      inject({
        method: 'POST',
        url: '/functions/v1/verify-and-update-password',
        headers: bearer(token),
        payload: { oldPassword: password, newPassword: password, verifyOnly: true },
      });
    expect((await off(next.access_token)).json().code).toBe('reauthentication_required');
    expect((await reauth(next.access_token, 'not-the-password')).json()).toEqual({
      success: false,
      error: 'Password verification failed. Please check your password and try again.',
    });
    expect((await off(next.access_token)).json().code).toBe('reauthentication_required');
    expect((await reauth(s.access_token, 'mailcode12')).statusCode).toBe(200);
    expect((await off(next.access_token)).json().code).toBe('reauthentication_required');
    expect((await reauth(next.access_token, 'mailcode12')).json()).toEqual({ success: true });
    expect((await off(next.access_token)).json().user_metadata.active_mfa_method).toBeNull();
    expect((await inject({ method: 'POST', url: '/auth/v1/otp', payload: { email: 'nobody-here@example.com' } })).json()).toEqual({});
  });

  it('an e-mailed code is no second step for a user whose second step is the authenticator', async () => {
    const email = 'totp-not-mail@example.com';
    const s = await registeredCustomer(t, email, 'totp-not-mail1');
    await enrolTotp(email, s.access_token);

    const next = await signIn(t, email, 'totp-not-mail1');
    // Asking for a code answers as for anyone, and mails none: it could not be used.
    const asked = await asUser(email)({ method: 'POST', url: '/auth/v1/otp', payload: { email, create_user: false } });
    expect([asked.statusCode, asked.json()]).toEqual([200, {}]);
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.outbox.list({ to: email })).filter((m) => /verification code/.test(m.subject))).toHaveLength(0);
    const refused = await verifyEmailCode(email, next.access_token, '123456');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'email_otp_not_allowed']);
    // The session is still at the first level: only the authenticator's code opens the rest.
    expect(
      (await asUser(email)({ method: 'PUT', url: '/auth/v1/user', headers: bearer(next.access_token), payload: {} })).json().code,
    ).toBe('mfa_required');
  });

  it('keeps one second factor at a time: no authenticator while e-mail codes are on, and the reverse', async () => {
    const putUser = (email: string, token: string, payload: object) =>
      asUser(email)({ method: 'PUT', url: '/auth/v1/user', headers: bearer(token), payload });
    const conflict = (res: { statusCode: number; json: () => { code?: string } }) => [res.statusCode, res.json().code];

    // E-mail codes on: an authenticator cannot be set up, nor one begun earlier be finished.
    const mailUser = 'one-method-mail@example.com';
    const m = await registeredCustomer(t, mailUser, 'one-method-1');
    const early = await asUser(mailUser)({
      method: 'POST',
      url: '/auth/v1/factors',
      headers: bearer(m.access_token),
      payload: { factor_type: 'totp' },
    });
    const pending = early.json() as { id: string; totp: { secret: string } };
    secretsSeen.push(pending.totp.secret);
    expect((await verifyEmailCode(mailUser, m.access_token, await emailCode(mailUser))).statusCode).toBe(200);
    expect((await putUser(mailUser, m.access_token, { data: { active_mfa_method: 'email' } })).json().user_metadata.active_mfa_method).toBe(
      'email',
    );
    const enrol = await asUser(mailUser)({
      method: 'POST',
      url: '/auth/v1/factors',
      headers: bearer(m.access_token),
      payload: { factor_type: 'totp' },
    });
    expect(conflict(enrol)).toEqual([409, 'mfa_method_conflict']);
    const challenge = (
      await asUser(mailUser)({ method: 'POST', url: `/auth/v1/factors/${pending.id}/challenge`, headers: bearer(m.access_token) })
    ).json().id;
    const finish = await asUser(mailUser)({
      method: 'POST',
      url: `/auth/v1/factors/${pending.id}/verify`,
      headers: bearer(m.access_token),
      payload: { challenge_id: challenge, code: await generate({ secret: pending.totp.secret }) },
    });
    expect(conflict(finish)).toEqual([409, 'mfa_method_conflict']);
    const me = (await asUser(mailUser)({ method: 'GET', url: '/auth/v1/user', headers: bearer(m.access_token) })).json();
    expect([me.user_metadata.active_mfa_method, me.factors.map((f: { status: string }) => f.status)]).toEqual(['email', ['unverified']]);

    // A verified authenticator: e-mail codes cannot be turned on, even with a fresh code in the session.
    const appUser = 'one-method-app@example.com';
    const a = await registeredCustomer(t, appUser, 'one-method-2');
    expect((await verifyEmailCode(appUser, a.access_token, await emailCode(appUser))).statusCode).toBe(200);
    const { token } = await enrolTotp(appUser, a.access_token);
    expect(conflict(await putUser(appUser, token, { data: { active_mfa_method: 'email' } }))).toEqual([409, 'mfa_method_conflict']);
    const after = (await asUser(appUser)({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) })).json();
    expect(after.user_metadata.active_mfa_method).toBe('totp');
  });

  it('resets a password through a single-use e-mailed link and ends every session', async () => {
    const s = await registeredCustomer(t, 'forgot@example.com', 'forgotten1');
    expect((await inject({ method: 'POST', url: '/auth/v1/recover', payload: { email: 'nobody@example.com' } })).json()).toEqual({});
    expect((await inject({ method: 'POST', url: '/auth/v1/recover', payload: { email: 'forgot@example.com' } })).json()).toEqual({});
    const mail = await mailTo(t.outbox, 'forgot@example.com', /Reset your password/);
    const token = /update-password#type=recovery&token=([\w-]+)/.exec(mail.text)![1]!;
    secretsSeen.push(token);
    const recovery = await inject({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token } });
    expect(recovery.statusCode).toBe(200);
    const rt = recovery.json().access_token;
    expect((await inject({ method: 'POST', url: '/functions/v1/log-login-details', headers: bearer(rt) })).json().code).toBe(
      'password_change_required',
    );
    expect(
      (await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(rt), payload: { password: 'remembered2' } })).statusCode,
    ).toBe(200);
    expect((await inject({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token } })).json().code).toBe(
      'otp_invalid',
    );
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode).toBe(401);
    await expect(signIn(t, 'forgot@example.com', 'forgotten1')).rejects.toThrow(/invalid_credentials/);
    await signIn(t, 'forgot@example.com', 'remembered2', await solveCaptcha(t.app));
  });

  it('a reset link sets a new password for a user with an authenticator, and only that; the code still guards sign-in', async () => {
    const email = 'forgot-totp@example.com';
    const call = asUser(email);
    const s = await registeredCustomer(t, email, 'forgot-totp-1');
    const { secret } = await enrolTotp(email, s.access_token);
    expect((await call({ method: 'POST', url: '/auth/v1/recover', payload: { email } })).json()).toEqual({});
    const mail = await mailTo(t.outbox, email, /Reset your password/);
    const token = /update-password#type=recovery&token=([\w-]+)/.exec(mail.text)![1]!;
    secretsSeen.push(token);
    const rt = (await call({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token } })).json().access_token;
    const put = (payload: object) => call({ method: 'PUT', url: '/auth/v1/user', headers: bearer(rt), payload });

    // Nothing but the password: not the MFA method, not another call.
    expect((await put({ password: 'forgot-totp-2', data: { active_mfa_method: null } })).json().code).toBe('recovery_password_only');
    expect((await put({ data: { active_mfa_method: 'totp' } })).json().code).toBe('recovery_password_only');
    expect((await put({})).json().code).toBe('password_change_required');
    expect((await call({ method: 'POST', url: '/functions/v1/log-login-details', headers: bearer(rt) })).json().code).toBe(
      'password_change_required',
    );
    const changed = await put({ password: 'forgot-totp-2' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().factors).toEqual([expect.objectContaining({ status: 'verified' })]);
    expect((await put({ password: 'forgot-totp-3' })).statusCode).toBe(401); // the change ended every session

    // The next sign-in with the new password still owes the authenticator's code.
    const next = await signIn(t, email, 'forgot-totp-2');
    expect(
      (
        await call({ method: 'PUT', url: '/auth/v1/user', headers: bearer(next.access_token), payload: { password: 'forgot-totp-4' } })
      ).json().code,
    ).toBe('mfa_required');
    const factorId = next.user.factors[0]!.id;
    const challenge = (
      await call({ method: 'POST', url: `/auth/v1/factors/${factorId}/challenge`, headers: bearer(next.access_token) })
    ).json().id;
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const upgraded = await call({
      method: 'POST',
      url: `/auth/v1/factors/${factorId}/verify`,
      headers: bearer(next.access_token),
      payload: { challenge_id: challenge, code },
    });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
  });

  it('a staff account made by an operator must change its one-time password first', async () => {
    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'worker1@example.com',
      fullName: 'Will Worker',
      role: 'WORKER',
    });
    secretsSeen.push(password);
    const s = await signIn(t, 'worker1@example.com', password);
    expect(s.user.user_metadata).toMatchObject({ role: 'WORKER', requires_password_change: true });
    expect((await inject({ method: 'POST', url: '/functions/v1/log-login-details', headers: bearer(s.access_token) })).statusCode).toBe(
      200,
    );
    expect(
      (await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(s.access_token), payload: { data: {} } })).json().code,
    ).toBe('password_change_required');
    const changed = await inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(s.access_token),
      payload: { password: 'my-own-password-1' },
    });
    expect(changed.json().user_metadata.requires_password_change).toBe(false);
    expect((await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(s.access_token), payload: {} })).statusCode).toBe(200);
  });

  it('a user with an authenticator whose password staff reset gives the code first, then sets a new password', async () => {
    const email = 'staff-reset-totp@example.com';
    const call = asUser(email);
    const s = await registeredCustomer(t, email, 'staff-reset-1');
    const { id, secret } = await enrolTotp(email, s.access_token);
    const { accounts } = t.app.authServices;
    const admin = { id: 'admin', role: 'ADMIN' } as const;
    await accounts.record(s.user.id, { type: 'RequirePasswordChange' }, admin);
    await accounts.changePassword(s.user.id, 'staff-set-1', { sessionId: null, method: 'staff-reset', actor: admin });

    const next = await signIn(t, email, 'staff-set-1');
    const put = (token: string, payload: object) => call({ method: 'PUT', url: '/auth/v1/user', headers: bearer(token), payload });
    expect((await put(next.access_token, { password: 'my-own-pass-1' })).json().code).toBe('mfa_required');
    const challenge = await call({ method: 'POST', url: `/auth/v1/factors/${id}/challenge`, headers: bearer(next.access_token) });
    expect(challenge.statusCode, challenge.body).toBe(200);
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const verified = await call({
      method: 'POST',
      url: `/auth/v1/factors/${id}/verify`,
      headers: bearer(next.access_token),
      payload: { challenge_id: challenge.json().id, code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const token = verified.json().access_token as string;
    expect((await put(token, {})).json().code).toBe('password_change_required');
    const changed = await put(token, { password: 'my-own-pass-1' });
    expect(changed.json().user_metadata.requires_password_change).toBe(false);
  });

  it('a banned user cannot sign in and loses the sessions they had', async () => {
    const s = await registeredCustomer(t, 'banned@example.com', 'banned1234');
    // Signed in and just seen by the guard: the ban must still count from the very next request.
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode).toBe(200);
    await t.app.authServices.accounts.ban(s.user.id, new Date(Date.now() + 100 * 365 * 86400_000), { id: 'admin', role: 'ADMIN' });
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode).toBe(401);
    const refused = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: 'banned@example.com', password: 'banned1234' },
    });
    expect(refused.json()).toEqual({ error: 'User is banned', code: 'user_banned' });
  });

  it('records each sign-in once, with IP and user agent', async () => {
    const s = await registeredCustomer(t, 'history@example.com', 'history123');
    const headers = { ...bearer(s.access_token), 'user-agent': 'HistoryTest/1.0' };
    await inject({ method: 'POST', url: '/functions/v1/log-login-details', headers });
    await inject({ method: 'POST', url: '/functions/v1/log-login-details', headers });
    const rows = await t.database.db.selectFrom('login_history').selectAll().where('user_id', '=', s.user.id).execute();
    expect(rows.map((r) => [r.ip_address, r.user_agent])).toEqual([['127.0.0.1', 'HistoryTest/1.0']]);
    const [customerSignIn] = (await t.app.ledger.store.readStream(`user-${s.user.id}`)).filter((e) => e.type === 'user.signed-in');
    expect(customerSignIn!.metadata).toMatchObject({ actorId: s.user.id, actorRole: 'USER' });

    // A staff member's sign-in names them with their own role.
    const { password, userId } = await createStaff(t.app.authServices.accounts, {
      email: 'history.admin@example.com',
      fullName: 'History Admin',
      role: 'ADMIN',
    });
    const admin = await signIn(t, 'history.admin@example.com', password);
    await inject({ method: 'POST', url: '/functions/v1/log-login-details', headers: bearer(admin.access_token) });
    const [staffSignIn] = (await t.app.ledger.store.readStream(`user-${userId}`)).filter((e) => e.type === 'user.signed-in');
    expect(staffSignIn!.metadata).toMatchObject({ actorId: userId, actorRole: 'ADMIN' });
  });

  it('limits sign-ups per address and says so', async () => {
    let last;
    for (let i = 0; i < 11; i++) {
      last = await inject({
        method: 'POST',
        url: '/auth/v1/signup',
        remoteAddress: '10.9.9.9',
        payload: { email: `flood${i}@example.com`, password: 'x', data: { full_name: 'F' } },
      });
    }
    expect(last!.statusCode).toBe(429);
    expect(last!.json()).toEqual({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' });
  });

  it('never writes a password, token, code or secret into the event log', async () => {
    const { rows } = await sql<{ data: unknown; metadata: unknown }>`select data, metadata from events`.execute(t.database.db);
    const log = JSON.stringify(rows);
    expect(secretsSeen.length).toBeGreaterThanOrEqual(8);
    for (const secret of secretsSeen) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/\$argon2/);
  });
});

describe('rate limit factor', () => {
  it('raises every per-route limit by the configured factor', async () => {
    const t = await createTestApp({ RATE_LIMIT_FACTOR: '2' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/auth/v1/signup',
          remoteAddress: '10.8.8.8',
          payload: { email: `f${i}@example.com`, password: 'x', data: { full_name: 'F' } },
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 20).every((c) => c !== 429)).toBe(true);
      expect(codes[20]).toBe(429);
    } finally {
      await t.close();
    }
  });
});
