import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthClient } from '@supabase/auth-js';
import { generate } from 'otplib';
import { bearer, createTestApp, mailTo, solveCaptcha, type TestApp } from '../../tests/support/test-app.js';

/**
 * Issue 45: the spec's access calls are GoTrue's, so Supabase's own auth SDK (@supabase/auth-js)
 * works against /auth/v1 unchanged: sign-up with a captcha, confirmation, sign-in, the user,
 * an authenticator's enrolment, challenge and verification, the assurance level and its methods
 * (amr), factors, refresh, a password change, a reset by e-mail and sign-out.
 */
describe("Supabase's auth SDK against /auth/v1", () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}/auth/v1`;
  });
  afterAll(async () => {
    await t.close();
  });

  /** A client as an app would make one, with its session kept in memory. */
  const sdk = () => {
    const stored = new Map<string, string>();
    return new AuthClient({
      url,
      autoRefreshToken: false,
      persistSession: true,
      detectSessionInUrl: false,
      flowType: 'implicit',
      storage: {
        getItem: (key) => stored.get(key) ?? null,
        setItem: (key, value) => void stored.set(key, value),
        removeItem: (key) => void stored.delete(key),
      },
    });
  };
  const claims = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString());
  const userWith = (token: string) => t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) });

  it('signs up, confirms, signs in, enrols and verifies an authenticator, refreshes, changes the password and signs out', async () => {
    const email = 'sdk.user@example.com';
    const client = sdk();
    const signedUp = await client.signUp({
      email,
      password: 'sdk-first-pass-1',
      options: { data: { full_name: 'Sdk User' }, captchaToken: await solveCaptcha(t.app, '127.0.0.1') },
    });
    expect(signedUp.error).toBeNull();
    expect([signedUp.data.user?.email, signedUp.data.session]).toEqual([email, null]);
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec((await mailTo(t.outbox, email, /Confirm/)).text)![0];
    expect((await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search })).statusCode).toBe(303);

    const signedIn = await client.signInWithPassword({ email, password: 'sdk-first-pass-1' });
    expect(signedIn.error).toBeNull();
    expect(claims(signedIn.data.session!.access_token).amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect((await client.getUser()).data.user?.email).toBe(email);

    const enrolled = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'SDK app' });
    expect(enrolled.error).toBeNull();
    expect(enrolled.data!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /);
    const factorId = enrolled.data!.id;
    const challenge = await client.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    const verified = await client.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: await generate({ secret: enrolled.data!.totp.secret }),
    });
    expect(verified.error).toBeNull();
    const level = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(level.data!.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method))).toEqual(['totp', 'password']);
    const factors = await client.mfa.listFactors();
    expect(factors.data!.totp.map((f) => [f.id, f.status])).toEqual([[factorId, 'verified']]);

    const before = (await client.getSession()).data.session!;
    const refreshed = await client.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(before.refresh_token);
    expect(claims(refreshed.data.session!.access_token)).toMatchObject({ aal: 'aal2', amr: [{ method: 'totp' }, { method: 'password' }] });

    const changed = await client.updateUser({ password: 'sdk-second-pass-2' });
    expect(changed.error).toBeNull();

    const token = (await client.getSession()).data.session!.access_token;
    expect((await userWith(token)).statusCode).toBe(200);
    // The SDK posts /logout with Content-Type: application/json and no body.
    const out = await client.signOut();
    expect(out.error).toBeNull();
    expect((await userWith(token)).statusCode).toBe(401);
    expect((await client.getSession()).data.session).toBeNull();
  });

  it('resets a forgotten password by e-mail, signs in with the new one and signs out of this session', async () => {
    const email = 'sdk.reset@example.com';
    const client = sdk();
    await client.signUp({
      email,
      password: 'sdk-reset-pass-1',
      options: { data: { full_name: 'Sdk Reset' }, captchaToken: await solveCaptcha(t.app, '127.0.0.1') },
    });
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec((await mailTo(t.outbox, email, /Confirm/)).text)![0];
    await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });

    expect((await client.resetPasswordForEmail(email)).error).toBeNull();
    const token = /update-password#type=recovery&token=([\w-]+)/.exec((await mailTo(t.outbox, email, /Reset your password/)).text)![1]!;
    const opened = await client.verifyOtp({ email, token, type: 'recovery' });
    expect(opened.error).toBeNull();
    expect(claims(opened.data.session!.access_token).amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);
    expect((await client.updateUser({ password: 'sdk-reset-pass-2' })).error).toBeNull();

    const again = await client.signInWithPassword({ email, password: 'sdk-reset-pass-2' });
    expect(again.error).toBeNull();
    const level = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    expect(level.data!.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method))).toEqual(['password']);
    const access = again.data.session!.access_token;
    expect((await client.signOut({ scope: 'local' })).error).toBeNull();
    expect((await userWith(access)).statusCode).toBe(401);
  });

  it('accepts a bodyless POST whatever its content type', async () => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded']) {
      const client = sdk();
      const email = `bodyless.${contentType.replace(/\W+/g, '-')}@example.com`;
      await client.signUp({
        email,
        password: 'bodyless-pass-1',
        options: { data: { full_name: 'Bodyless' }, captchaToken: await solveCaptcha(t.app, '127.0.0.1') },
      });
      const link = /https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec((await mailTo(t.outbox, email, /Confirm/)).text)![0];
      await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
      const session = (await client.signInWithPassword({ email, password: 'bodyless-pass-1' })).data.session!;
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/logout',
        headers: { ...bearer(session.access_token), 'content-type': contentType },
      });
      expect([contentType, res.statusCode, res.body]).toEqual([contentType, 204, '']);
    }
    // A body a route needs is still refused with a clear 400, and a body of an unknown type with 415.
    const noBody = await t.app.inject({ method: 'POST', url: '/auth/v1/recover', headers: { 'content-type': 'application/json' } });
    expect(noBody.statusCode).toBe(400);
    const odd = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/recover',
      headers: { 'content-type': 'application/x-odd' },
      payload: 'something',
    });
    expect(odd.statusCode).toBe(415);
  });
});
