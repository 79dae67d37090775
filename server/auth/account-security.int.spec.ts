import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { sql } from 'kysely';
import type { InjectOptions } from 'fastify';
import {
  bearer,
  createTestApp,
  ipFor,
  mailTo,
  registeredCustomer,
  signIn,
  solveCaptcha,
  type TestApp,
} from '../../tests/support/test-app.js';
import { createStaff } from './staff-accounts.js';
import { NOT_YOU } from '../mail/templates.js';
import { PASSWORD_RULE_TEXT } from './password-policy.js';

/** Issue 29: what a stolen access token can no longer do, the password rule, security mail, recovery codes. */
describe('account security (issue 29)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const as = (email: string) => (opts: InjectOptions) => t.app.inject({ remoteAddress: ipFor(email), ...opts });
  /** The session signed in longer ago than the 5 minutes a sign-in counts as recent authentication. */
  const age = async (accessToken: string) => {
    const sessionId = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).session_id as string;
    await sql`update auth_sessions set created_at = now() - interval '10 minutes' where id = ${sessionId}::uuid`.execute(t.database.db);
  };
  const reauth = (email: string, token: string, password: string) =>
    as(email)({
      method: 'POST',
      url: '/functions/v1/verify-and-update-password',
      headers: bearer(token),
      payload: { oldPassword: password, newPassword: password, verifyOnly: true },
    });
  const enrol = async (email: string, token: string) => {
    const call = as(email);
    const res = await call({ method: 'POST', url: '/auth/v1/factors', headers: bearer(token), payload: { factor_type: 'totp' } });
    expect(res.statusCode, res.body).toBe(200);
    const { id, totp } = res.json() as { id: string; totp: { secret: string } };
    const challenge = (await call({ method: 'POST', url: `/auth/v1/factors/${id}/challenge`, headers: bearer(token) })).json().id;
    const verified = await call({
      method: 'POST',
      url: `/auth/v1/factors/${id}/verify`,
      headers: bearer(token),
      payload: { challenge_id: challenge, code: await generate({ secret: totp.secret }) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const body = verified.json() as { access_token: string; recovery_codes: string[] };
    const method = await call({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(body.access_token),
      payload: { data: { active_mfa_method: 'totp' } },
    });
    expect(method.statusCode, method.body).toBe(200);
    return { id, secret: totp.secret, token: body.access_token, codes: body.recovery_codes };
  };
  const secondStep = async (email: string, token: string, factorId: string, code: string) => {
    const challenge = (await as(email)({ method: 'POST', url: `/auth/v1/factors/${factorId}/challenge`, headers: bearer(token) })).json()
      .id;
    return as(email)({
      method: 'POST',
      url: `/auth/v1/factors/${factorId}/verify`,
      headers: bearer(token),
      payload: { challenge_id: challenge, code },
    });
  };
  const staffSession = async (role: 'WORKER' | 'MANAGER' | 'ADMIN', email: string) => {
    const { password, userId } = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} ${email}`, role });
    const first = await signIn(t, email, password);
    const set = await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'staff-own-pass-1' },
    });
    expect(set.statusCode, set.body).toBe(200);
    return { ...(await signIn(t, email, 'staff-own-pass-1')), userId };
  };

  it('a stolen access token alone changes no password: PUT /auth/v1/user needs the current one or a recent sign-in', async () => {
    const email = 'victim.pw@example.com';
    const s = await registeredCustomer(t, email, 'victim-pass-1');
    await age(s.access_token);
    const put = (payload: Record<string, unknown>) =>
      as(email)({ method: 'PUT', url: '/auth/v1/user', headers: bearer(s.access_token), payload });
    const bare = await put({ password: 'attacker-pass-9' });
    expect([bare.statusCode, bare.json()]).toEqual([
      403,
      { error: 'Please enter your password to continue.', code: 'reauthentication_required' },
    ]);
    const wrong = await put({ password: 'attacker-pass-9', current_password: 'guess-1234' });
    expect(wrong.json().code).toBe('reauthentication_required');
    await expect(signIn(t, email, 'victim-pass-1')).resolves.toBeTruthy();
    // The owner, who knows the password, still changes it.
    const right = await put({ password: 'victim-pass-2', current_password: 'victim-pass-1' });
    expect(right.statusCode, right.body).toBe(200);
    await expect(signIn(t, email, 'victim-pass-2')).resolves.toBeTruthy();
  });

  it('the reset link stays the way to a new password without the old one', async () => {
    const email = 'forgot.pw@example.com';
    await registeredCustomer(t, email, 'forgot-pass-1');
    expect((await as(email)({ method: 'POST', url: '/auth/v1/recover', payload: { email } })).statusCode).toBe(200);
    const token = /token=([\w-]+)/.exec((await mailTo(t.outbox, email, /Reset your password/)).text)![1]!;
    const recovery = (await as(email)({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token } })).json();
    const set = await as(email)({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(recovery.access_token),
      payload: { password: 'forgot-pass-2' },
    });
    expect(set.statusCode, set.body).toBe(200);
    await expect(signIn(t, email, 'forgot-pass-2')).resolves.toBeTruthy();
  });

  it('a stolen access token older than 5 minutes cannot enrol an authenticator until the password is confirmed', async () => {
    const email = 'victim.mfa@example.com';
    const s = await registeredCustomer(t, email, 'victim-mfa-1');
    await age(s.access_token);
    const refused = await as(email)({
      method: 'POST',
      url: '/auth/v1/factors',
      headers: bearer(s.access_token),
      payload: { factor_type: 'totp' },
    });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'reauthentication_required']);
    expect(await t.database.db.selectFrom('auth_mfa_factors').select('id').where('user_id', '=', s.user.id).execute()).toEqual([]);
    expect((await reauth(email, s.access_token, 'victim-mfa-1')).json()).toEqual({ success: true });
    await enrol(email, s.access_token);
  });

  it('refuses common passwords with a clear text on every path', async () => {
    const common = PASSWORD_RULE_TEXT.common;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: {
        email: 'common@example.com',
        password: '12345678',
        data: { full_name: 'C' },
        gotrue_meta_security: { captcha_token: await solveCaptcha(t.app) },
      },
    });
    expect([signup.statusCode, signup.json()]).toEqual([400, { error: common, code: 'weak_password' }]);
    const noDigit = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: {
        email: 'common@example.com',
        password: 'password',
        data: { full_name: 'C' },
        gotrue_meta_security: { captcha_token: await solveCaptcha(t.app) },
      },
    });
    expect(noDigit.json().error).toBe('Password must contain at least one number.');

    const email = 'common.user@example.com';
    const s = await registeredCustomer(t, email, 'uncommon-pass-7');
    const put = await as(email)({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(s.access_token),
      payload: { password: 'Password1' },
    });
    expect([put.statusCode, put.json().error]).toEqual([400, common]);
    const fn = await as(email)({
      method: 'POST',
      url: '/functions/v1/verify-and-update-password',
      headers: bearer(s.access_token),
      payload: { oldPassword: 'uncommon-pass-7', newPassword: 'qwerty123' },
    });
    expect([fn.statusCode, fn.json()]).toEqual([400, { success: false, error: common }]);

    const admin = await staffSession('ADMIN', 'admin.common@example.com');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/reset-user-password',
      headers: bearer(admin.access_token),
      payload: { targetUserId: s.user.id, newPassword: 'abc123456' },
    });
    expect([reset.statusCode, reset.json()]).toEqual([400, { error: common }]);
    const manager = await staffSession('MANAGER', 'manager.common@example.com');
    const worker = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/create-worker-for-manager',
      headers: bearer(manager.access_token),
      payload: { fullName: 'W', email: 'new.worker@example.com', password: 'iloveyou1' },
    });
    expect([worker.statusCode, worker.json()]).toEqual([400, { error: common }]);
    await expect(signIn(t, email, 'uncommon-pass-7')).resolves.toBeTruthy();
  });

  it('mails the owner when the password changes, a factor is added, the method switches, and on a sign-in from a new device', async () => {
    const email = 'mailed@example.com';
    const s = await registeredCustomer(t, email, 'mailed-pass-1');
    const changed = await as(email)({
      method: 'POST',
      url: '/functions/v1/verify-and-update-password',
      headers: bearer(s.access_token),
      payload: { oldPassword: 'mailed-pass-1', newPassword: 'mailed-pass-2' },
    });
    expect(changed.json()).toEqual({ success: true });
    const pwMail = await mailTo(t.outbox, email, /^Your password was changed$/);
    expect(pwMail.text).toContain('The password of your wallet account was changed.');
    expect(pwMail.text).toContain(NOT_YOU);

    const fresh = await signIn(t, email, 'mailed-pass-2');
    await enrol(email, fresh.access_token);
    expect((await mailTo(t.outbox, email, /^A second factor was added to your account$/)).text).toContain(NOT_YOU);
    await new Promise((r) => setTimeout(r, 200));
    // One mail for setting up the app, not a second for making it the method.
    expect((await t.outbox.list({ to: email })).filter((m) => m.subject === 'Your two-factor method was changed')).toHaveLength(0);
  });

  it('the server records each sign-in and mails one from a new device; log-login-details adds nothing', async () => {
    const email = 'devices@example.com';
    // The first recorded sign-in (registeredCustomer's, from ipFor(email)) sets what is known.
    await registeredCustomer(t, email, 'devices-pass-1');
    const signInFrom = async (ip: string, ua: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        remoteAddress: ip,
        headers: { 'user-agent': ua },
        payload: { email, password: 'devices-pass-1' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const logged = await t.app.inject({
        method: 'POST',
        url: '/functions/v1/log-login-details',
        remoteAddress: ip,
        headers: { ...bearer(res.json().access_token), 'user-agent': ua },
      });
      expect(logged.json()).toEqual({ success: true });
    };
    // The same browser on the same network (another address of its /24) is no new device.
    await signInFrom(ipFor(email).replace(/\.\d+$/, '.250'), 'lightMyRequest');
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.outbox.list({ to: email })).filter((m) => m.subject === 'New sign-in to your account')).toHaveLength(0);
    await signInFrom('203.0.113.45', 'EvilBrowser/1.0');
    const device = await mailTo(t.outbox, email, /^New sign-in to your account$/);
    expect(device.text).toMatch(/Time: \d\d [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC/);
    expect(device.text).toContain('Place (IP range): 203.0.113.0/24 (IP 203.0.113.45)');
    expect(device.text).toContain('Device: EvilBrowser/1.0');
    expect(device.text).toContain(NOT_YOU);
    const user = await t.app.authServices.accounts.findByEmail(email);
    const rows = await t.database.db.selectFrom('login_history').select('user_agent').where('user_id', '=', user!.id).execute();
    expect(rows.map((r) => r.user_agent).sort()).toEqual(['EvilBrowser/1.0', 'lightMyRequest', 'lightMyRequest']);
  });

  it('mails when e-mail codes are turned on and off', async () => {
    const email = 'codes.mail@example.com';
    const s = await registeredCustomer(t, email, 'codes-mail-1');
    expect((await as(email)({ method: 'POST', url: '/auth/v1/otp', payload: { email, create_user: false } })).statusCode).toBe(200);
    const code = /\b(\d{6})\b/.exec((await mailTo(t.outbox, email, /verification code/)).text)![1]!;
    const v = await as(email)({
      method: 'POST',
      url: '/auth/v1/verify',
      headers: bearer(s.access_token),
      payload: { type: 'email', email, token: code },
    });
    expect(v.statusCode, v.body).toBe(200);
    const token = v.json().access_token as string;
    const on = await as(email)({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(token),
      payload: { data: { active_mfa_method: 'email' } },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect((await mailTo(t.outbox, email, /^E-mail codes were turned on$/)).text).toContain(NOT_YOU);
    expect((await reauth(email, token, 'codes-mail-1')).json()).toEqual({ success: true });
    const off = await as(email)({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(token),
      payload: { data: { active_mfa_method: null } },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await mailTo(t.outbox, email, /^E-mail codes were turned off$/)).text).toContain('turned off');
  });

  it('ten recovery codes at enrolment, stored hashed, each good once at the second step', async () => {
    const email = 'recovery.codes@example.com';
    const s = await registeredCustomer(t, email, 'recovery-codes-1');
    const { id, codes } = await enrol(email, s.access_token);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = JSON.stringify(
      await t.database.db.selectFrom('auth_mfa_recovery_codes').selectAll().where('user_id', '=', s.user.id).execute(),
    );
    for (const c of codes) expect(stored).not.toContain(c.replace('-', ''));
    // Shown once: the account's view never lists them again.
    expect(
      JSON.stringify((await as(email)({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).json()),
    ).not.toContain(codes[0]);

    const next = await signIn(t, email, 'recovery-codes-1');
    const used = await secondStep(email, next.access_token, id, codes[3]!.toUpperCase());
    expect(used.statusCode, used.body).toBe(200);
    const upgraded = used.json().access_token as string;
    expect((await as(email)({ method: 'GET', url: '/functions/v1/get-login-history', headers: bearer(upgraded) })).statusCode).toBe(200);
    expect((await mailTo(t.outbox, email, /^A recovery code was used$/)).text).toContain('Recovery codes left: 9');

    const again = await signIn(t, email, 'recovery-codes-1');
    // A spent code says so (it was mailed when used); a code the account never had is invalid.
    const reused = await secondStep(email, again.access_token, id, codes[3]!);
    expect([reused.statusCode, reused.json().code, reused.json().error]).toEqual([
      400,
      'recovery_code_used',
      'This recovery code has already been used. Each code works once: please use another one.',
    ]);
    const wrong = await secondStep(email, again.access_token, id, 'aaaaa-aaaaa');
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'mfa_verification_failed']);
    expect(
      (await as(email)({ method: 'GET', url: '/functions/v1/get-login-history', headers: bearer(again.access_token) })).json().code,
    ).toBe('mfa_required');
    const events = (await t.app.ledger.store.readStream(`user-${s.user.id}`)).map((e) => e.type);
    expect(events).toContain('user.mfa-recovery-codes-issued');
    expect(events).toContain('user.mfa-recovery-code-used');
  });

  it("a manager (own team only) or an admin removes a customer's factor with a reason; recorded and mailed", async () => {
    const worker = await staffSession('WORKER', 'team.worker@example.com');
    const manager = await staffSession('MANAGER', 'team.manager@example.com');
    const otherManager = await staffSession('MANAGER', 'other.manager@example.com');
    const admin = await staffSession('ADMIN', 'mfa.admin@example.com');
    const accounts = t.app.authServices.accounts;
    await accounts.record(worker.userId, { type: 'AssignToManager', managerId: manager.userId }, { id: manager.userId, role: 'MANAGER' });
    const email = 'lost.phone@example.com';
    const s = await registeredCustomer(t, email, 'lost-phone-1');
    await accounts.record(s.user.id, { type: 'Claim', workerId: worker.userId }, { id: worker.userId, role: 'WORKER' });
    await enrol(email, s.access_token);

    const remove = (token: string, reason = 'Lost phone; identity checked by video call') =>
      t.app.inject({
        method: 'POST',
        url: '/functions/v1/remove-user-mfa',
        headers: bearer(token),
        payload: { targetUserId: s.user.id, reason },
      });
    expect((await remove(worker.access_token)).json()).toEqual({
      error: 'Access Denied: Only managers and admins can remove two-factor authentication.',
    });
    expect((await remove(otherManager.access_token)).json()).toEqual({
      error: 'Access Denied: You do not have permission to view this profile.',
    });
    expect((await remove(s.access_token)).statusCode).toBe(403);
    expect((await remove(manager.access_token, '  ')).json()).toEqual({
      error: 'Please give a reason for removing two-factor authentication.',
    });
    const mfaRows = () => t.database.db.selectFrom('auth_mfa_factors').select('id').where('user_id', '=', s.user.id).execute();
    expect(await mfaRows()).toHaveLength(1);

    const done = await remove(manager.access_token);
    expect([done.statusCode, done.json()]).toEqual([200, { success: true }]);
    expect(await mfaRows()).toHaveLength(0);
    const last = (await t.app.ledger.store.readStream(`user-${s.user.id}`)).at(-1)!;
    expect([last.type, last.data, last.metadata.actorId]).toEqual([
      'user.mfa-removed-by-staff',
      { reason: 'Lost phone; identity checked by video call', previousMethod: 'totp' },
      manager.userId,
    ]);
    const mail = await mailTo(t.outbox, email, /^Your two-factor authentication was removed by our staff$/);
    expect(mail.text).toContain('Reason given: Lost phone; identity checked by video call');
    expect(mail.text).toContain(NOT_YOU);
    // The customer signs in with the password alone.
    const back = await signIn(t, email, 'lost-phone-1');
    expect(
      (await t.app.inject({ method: 'GET', url: '/functions/v1/get-login-history', headers: bearer(back.access_token) })).statusCode,
    ).toBe(200);
    // Nothing left to remove; an admin reaches every customer.
    expect((await remove(admin.access_token)).json()).toEqual({ error: 'This customer has no two-factor authentication to remove.' });
  });
});
