import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, solveCaptcha, bearer, ipFor, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from './staff-accounts.js';

/*
 * Sign-up refusals, sign-in answers and captcha, sessions ended by scope, bans, the sign-in
 * record and the per-address limits. Sign-up confirmation, tokens, second factors and
 * password resets: auth.int.spec.ts.
 */
describe('accounts and access (/auth/v1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // The account that a second sign-up for the same address, in another case, must not duplicate.
    await registeredCustomer(t, 'Ada.Lovelace@example.com', 'analytical engine 1');
  });
  afterAll(async () => {
    await t.close();
  });
  const inject = (opts: InjectOptions) => t.app.inject(opts);

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
      payload: payload('ADA.LOVELACE@example.com', 'whatever-pass-12', await solveCaptcha(t.app)),
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
    await registeredCustomer(t, 'grace@example.com', 'compiler-grace-99');
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
      payload: { email: 'grace@example.com', password: 'compiler-grace-99' },
    });
    expect(noCaptcha.json().code).toBe('captcha_required');
    const captcha = await solveCaptcha(t.app);
    const ok = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: ip,
      payload: { email: 'grace@example.com', password: 'compiler-grace-99', gotrue_meta_security: { captcha_token: captcha } },
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
      payload: { email: 'grace@example.com', password: 'compiler-grace-99', gotrue_meta_security: { captcha_token: captcha } },
    });
    expect(replay.json().code).toBe('captcha_failed');
  });

  it('logs out one session, the others, or all', async () => {
    await registeredCustomer(t, 'scopes@example.com', 'scopes-narrow-34');
    const a = await signIn(t, 'scopes@example.com', 'scopes-narrow-34');
    const b = await signIn(t, 'scopes@example.com', 'scopes-narrow-34');
    const c = await signIn(t, 'scopes@example.com', 'scopes-narrow-34');
    const alive = async (s: { access_token: string }) =>
      (await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode === 200;
    expect((await inject({ method: 'POST', url: '/auth/v1/logout?scope=others', headers: bearer(a.access_token) })).statusCode).toBe(204);
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([true, false, false]);
    const d = await signIn(t, 'scopes@example.com', 'scopes-narrow-34');
    await inject({ method: 'POST', url: '/auth/v1/logout?scope=local', headers: bearer(d.access_token) });
    expect([await alive(a), await alive(d)]).toEqual([true, false]);
    await inject({ method: 'POST', url: '/auth/v1/logout?scope=global', headers: bearer(a.access_token) });
    expect(await alive(a)).toBe(false);
  });

  it('a banned user cannot sign in and loses the sessions they had', async () => {
    const s = await registeredCustomer(t, 'banned@example.com', 'banned-pass-34');
    // Signed in and just seen by the guard: the ban must still count from the very next request.
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode).toBe(200);
    await t.app.authServices.accounts.ban(s.user.id, new Date(Date.now() + 100 * 365 * 86400_000), { id: 'admin', role: 'ADMIN' });
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode).toBe(401);
    const refused = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: 'banned@example.com', password: 'banned-pass-34' },
    });
    expect(refused.json()).toEqual({ error: 'User is banned', code: 'user_banned' });
  });

  it('records each sign-in by itself, once, with IP and user agent; log-login-details adds nothing', async () => {
    await registeredCustomer(t, 'history@example.com', 'history-pass-23');
    const res = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: '192.0.2.10',
      headers: { 'user-agent': 'HistoryTest/1.0' },
      payload: { email: 'history@example.com', password: 'history-pass-23' },
    });
    const s = res.json();
    const headers = { ...bearer(s.access_token), 'user-agent': 'Forged/1.0' };
    await inject({ method: 'POST', url: '/functions/v1/log-login-details', headers });
    await inject({ method: 'POST', url: '/functions/v1/log-login-details', headers });
    const rows = await t.database.db
      .selectFrom('login_history')
      .selectAll()
      .where('user_id', '=', s.user.id)
      .orderBy('timestamp', 'desc')
      .execute();
    // The sign-in of registeredCustomer, then this one: nothing from the two calls.
    expect(rows.map((r) => [r.ip_address, r.user_agent])).toEqual([
      ['192.0.2.10', 'HistoryTest/1.0'],
      [ipFor('history@example.com'), 'lightMyRequest'],
    ]);
    const signIns = (await t.app.ledger.store.readStream(`user-${s.user.id}`)).filter((e) => e.type === 'user.signed-in');
    expect(signIns.at(-1)!.metadata).toMatchObject({ actorId: s.user.id, actorRole: 'USER' });
    expect(signIns.at(-1)!.data).toMatchObject({ ipAddress: '192.0.2.10', method: 'password', aal: 'aal1' });

    // A staff member's sign-in names them with their own role, and is a staff action, with no call of the client.
    const { password, userId } = await createStaff(t.app.authServices.accounts, {
      email: 'history.admin@example.com',
      fullName: 'History Admin',
      role: 'ADMIN',
    });
    await signIn(t, 'history.admin@example.com', password);
    const [staffSignIn] = (await t.app.ledger.store.readStream(`user-${userId}`)).filter((e) => e.type === 'user.signed-in');
    expect(staffSignIn!.metadata).toMatchObject({ actorId: userId, actorRole: 'ADMIN' });
    const actions = await t.database.db
      .selectFrom('staff_activity')
      .select(['action', 'customer_id'])
      .where('maker_id', '=', userId)
      .execute();
    expect(actions).toEqual([{ action: 'sign-in', customer_id: null }]);
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
