import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { sql } from 'kysely';
import type { InjectOptions } from 'fastify';
import { createTestApp, solveCaptcha, mailTo, bearer, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from './staff-accounts.js';
import { authTestCalls } from './auth-test-calls.js';

/*
 * Sign-up and its confirmation, refresh tokens, second factors and password resets: every
 * password, token, code and secret these tests see is then looked for in the event log (the
 * last test). Sign-in refusals, sessions, bans and limits: sign-up-sign-in.int.spec.ts.
 */
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
  const { asUser, enrolTotp, emailCode, verifyEmailCode } = authTestCalls(() => t, secretsSeen);

  it('registers, refuses sign-in until the e-mailed link confirms the address, then signs in', async () => {
    const email = 'Ada.Lovelace@example.com';
    const captcha = await solveCaptcha(t.app);
    const signup = await inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: {
        email,
        password: 'analytical engine 1',
        data: { full_name: 'Ada Lovelace' },
        gotrue_meta_security: { captcha_token: captcha },
      },
    });
    expect(signup.statusCode).toBe(200);
    expect(signup.json()).toMatchObject({
      email,
      email_confirmed_at: null,
      user_metadata: { full_name: 'Ada Lovelace', role: 'USER', requires_password_change: false },
    });
    secretsSeen.push('analytical engine 1');

    const early = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email, password: 'analytical engine 1' },
    });
    expect(early.json()).toEqual({ error: 'Email not confirmed', code: 'email_not_confirmed' });

    const mail = await mailTo(t.outbox, email, /Confirm your email address/);
    const link = new URL(/https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec(mail.text)![0]);
    secretsSeen.push(link.searchParams.get('token')!);
    const confirm = await inject({ method: 'GET', url: link.pathname + link.search });
    expect([confirm.statusCode, confirm.headers.location]).toEqual([303, '/login?confirmed=1']);
    const again = await inject({ method: 'GET', url: link.pathname + link.search });
    expect(again.headers.location).toBe('/login?confirm_error=1');

    const session = await signIn(t, 'ada.lovelace@EXAMPLE.com', 'analytical engine 1');
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

  it('rotates refresh tokens; reusing a spent one ends the whole session', async () => {
    const first = await registeredCustomer(t, 'rotate@example.com', 'rotate-often-42');
    const refresh = (token: string) =>
      inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: token } });
    const second = await refresh(first.refresh_token);
    expect(second.statusCode).toBe(200);
    expect(second.json().refresh_token).not.toBe(first.refresh_token);
    secretsSeen.push(first.refresh_token, second.json().refresh_token);
    // Past the grace a spent token was copied (server/auth/refresh-grace.int.spec.ts has the grace itself).
    await sql`update auth_refresh_tokens set spent_at = spent_at - interval '11 seconds' where spent_at is not null`.execute(t.database.db);
    const reuse = await refresh(first.refresh_token);
    expect(reuse.json()).toEqual({ error: 'Invalid Refresh Token: Already Used', code: 'refresh_token_already_used' });
    expect((await refresh(second.json().refresh_token)).json().code).toBe('invalid_refresh_token');
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(second.json().access_token) })).statusCode).toBe(401);
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
    expect(totp.qr_code).toMatch(/^<svg /);
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
    const s = await registeredCustomer(t, 'mailcode@example.com', 'mail-code-pass-12');
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

    const next = await signIn(t, 'mailcode@example.com', 'mail-code-pass-12');
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
    expect((await reauth(s.access_token, 'mail-code-pass-12')).statusCode).toBe(200);
    expect((await off(next.access_token)).json().code).toBe('reauthentication_required');
    expect((await reauth(next.access_token, 'mail-code-pass-12')).json()).toEqual({ success: true });
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
    const s = await registeredCustomer(t, 'forgot@example.com', 'forgotten-pass-1');
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
      (await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(rt), payload: { password: 'remembered-pass-2' } })).statusCode,
    ).toBe(200);
    expect((await inject({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token } })).json().code).toBe(
      'otp_invalid',
    );
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode).toBe(401);
    await expect(signIn(t, 'forgot@example.com', 'forgotten-pass-1')).rejects.toThrow(/invalid_credentials/);
    await signIn(t, 'forgot@example.com', 'remembered-pass-2', await solveCaptcha(t.app));
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

  it('never writes a password, token, code or secret into the event log', async () => {
    const { rows } = await sql<{ data: unknown; metadata: unknown }>`select data, metadata from events`.execute(t.database.db);
    const log = JSON.stringify(rows);
    expect(secretsSeen.length).toBeGreaterThanOrEqual(8);
    for (const secret of secretsSeen) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/\$argon2/);
  });
});
