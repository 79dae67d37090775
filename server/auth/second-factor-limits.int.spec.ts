import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { sql } from 'kysely';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import {
  createTestApp,
  mailTo,
  bearer,
  ipFor,
  registeredCustomer,
  signIn,
  solveCaptcha,
  type TestApp,
} from '../../tests/support/test-app.js';

/**
 * Authenticator codes, e-mailed codes and the password re-check count their failures per user
 * in the database (auth_failures): 10 in 15 minutes refuse further attempts of that kind with
 * 429, also at another app instance (or after a restart), whose per-process request limits
 * start from zero. A success clears the count.
 */
describe('persisted limits on second factors and the password re-check', () => {
  let t: TestApp;
  const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://wallet.test', RATE_LIMIT_FACTOR: '10' };
  const secretsSeen: string[] = [];
  beforeAll(async () => {
    // The per-route request limits (in memory, per process) raised far above the persisted
    // ones, so that every 429 below comes from the database.
    t = await createTestApp({ RATE_LIMIT_FACTOR: env.RATE_LIMIT_FACTOR });
  });
  afterAll(async () => {
    await t?.close();
  });

  const lockedOut = { error: 'Too many attempts. Please wait a few minutes and try again.', code: 'rate_limited' };
  const as = (app: FastifyInstance, email: string) => (opts: InjectOptions) => app.inject({ remoteAddress: ipFor(email), ...opts });

  /** Runs `check` against a second app instance on the same database and data folder. */
  const atAnotherInstance = async (check: (app: FastifyInstance) => Promise<void>) => {
    const config = loadConfig({ ...env, DATA_DIR: t.dataDir });
    const other = await buildApp(config, { database: t.database, clientDir: path.join(t.dataDir, 'no-client') });
    try {
      await check(other);
    } finally {
      await other.close();
    }
  };

  describe('authenticator codes', () => {
    /** A user with a verified authenticator, signed in again with the password (aal1). */
    const withAuthenticator = async (email: string) => {
      const s = await registeredCustomer(t, email, 'totp-limit-1');
      const call = as(t.app, email);
      const { id, totp } = (
        await call({ method: 'POST', url: '/auth/v1/factors', headers: bearer(s.access_token), payload: { factor_type: 'totp' } })
      ).json();
      secretsSeen.push(totp.secret);
      const challenge = (await call({ method: 'POST', url: `/auth/v1/factors/${id}/challenge`, headers: bearer(s.access_token) })).json()
        .id;
      const enrolled = await call({
        method: 'POST',
        url: `/auth/v1/factors/${id}/verify`,
        headers: bearer(s.access_token),
        payload: { challenge_id: challenge, code: await generate({ secret: totp.secret }) },
      });
      expect(enrolled.statusCode, enrolled.body).toBe(200);
      const session = await signIn(t, email, 'totp-limit-1');
      // A failed code leaves the challenge usable; a right one spends it.
      let challengeId = '';
      const rechallenge = async () => {
        challengeId = (
          await call({ method: 'POST', url: `/auth/v1/factors/${id}/challenge`, headers: bearer(session.access_token) })
        ).json().id;
      };
      await rechallenge();
      // A code valid at no step near now.
      const now = Math.floor(Date.now() / 1000);
      const near = await Promise.all([-3, -2, -1, 0, 1, 2, 3].map((k) => generate({ secret: totp.secret, epoch: now + 30 * k })));
      const wrong = ['000000', '111111', '222222', '333333', '444444', '555555', '666666', '777777', '888888'].find(
        (c) => !near.includes(c),
      )!;
      const verify = (app: FastifyInstance, code: string) =>
        as(
          app,
          email,
        )({
          method: 'POST',
          url: `/auth/v1/factors/${id}/verify`,
          headers: bearer(session.access_token),
          payload: { challenge_id: challengeId, code },
        });
      // The next step's code: newer than the one spent on enrolment, accepted within the tolerance.
      const right = () => generate({ secret: totp.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
      return { verify, wrong, right, rechallenge };
    };

    it('10 wrong codes refuse the 11th, even the right one, also at another instance', async () => {
      const { verify, wrong, right } = await withAuthenticator('totp-lock@example.com');
      for (let i = 0; i < 10; i++) {
        const res = await verify(t.app, wrong);
        expect([res.statusCode, res.json().code]).toEqual([400, 'mfa_verification_failed']);
      }
      const refused = await verify(t.app, await right());
      expect([refused.statusCode, refused.json()]).toEqual([429, lockedOut]);
      await atAnotherInstance(async (other) => {
        const again = await verify(other, await right());
        expect([again.statusCode, again.json()]).toEqual([429, lockedOut]);
      });
    });

    it('a right code before the limit clears the count', async () => {
      const { verify, wrong, right, rechallenge } = await withAuthenticator('totp-clear@example.com');
      for (let i = 0; i < 9; i++) expect((await verify(t.app, wrong)).statusCode).toBe(400);
      const ok = await verify(t.app, await right());
      expect(ok.statusCode, ok.body).toBe(200);
      await rechallenge();
      for (let i = 0; i < 10; i++) expect((await verify(t.app, wrong)).json().code).toBe('mfa_verification_failed');
      expect((await verify(t.app, wrong)).statusCode).toBe(429);
    });
  });

  describe('e-mailed codes', () => {
    const mailsTo = async (email: string) => (await t.outbox.list()).filter((m) => m.to === email && /verification code/.test(m.subject));
    /** A signed-in user without a second factor, who may prove an e-mailed code. */
    const withEmailCodes = async (email: string) => {
      const s = await registeredCustomer(t, email, 'mail-limit-1');
      let last: Awaited<ReturnType<typeof mailTo>> | undefined;
      const requestCode = (app: FastifyInstance = t.app) =>
        as(app, email)({ method: 'POST', url: '/auth/v1/otp', payload: { email, create_user: false } });
      const newCode = async () => {
        const res = await requestCode();
        expect([res.statusCode, res.json()]).toEqual([200, {}]);
        last = await mailTo(t.outbox, email, /verification code/, { newerThan: last });
        const code = /\b(\d{6})\b/.exec(last.text)![1]!;
        return { code, wrong: code === '000000' ? '000001' : '000000' };
      };
      const verify = (code: string, app: FastifyInstance = t.app) =>
        as(
          app,
          email,
        )({ method: 'POST', url: '/auth/v1/verify', headers: bearer(s.access_token), payload: { type: 'email', email, token: code } });
      return { newCode, requestCode, verify };
    };

    it('10 wrong codes (over two mailed codes) refuse the 11th, even a right one, also at another instance', async () => {
      const { newCode, verify } = await withEmailCodes('mail-lock@example.com');
      for (let round = 0; round < 2; round++) {
        const { wrong } = await newCode();
        for (let i = 0; i < 5; i++) expect((await verify(wrong)).json().code).toBe('otp_invalid');
      }
      const { code } = await newCode();
      const refused = await verify(code);
      expect([refused.statusCode, refused.json()]).toEqual([429, lockedOut]);
      await atAnotherInstance(async (other) => {
        const again = await verify(code, other);
        expect([again.statusCode, again.json()]).toEqual([429, lockedOut]);
      });
    });

    it('a right code before the limit clears the count', async () => {
      const { newCode, verify } = await withEmailCodes('mail-clear@example.com');
      const first = await newCode();
      for (let i = 0; i < 5; i++) expect((await verify(first.wrong)).json().code).toBe('otp_invalid');
      const second = await newCode();
      for (let i = 0; i < 4; i++) expect((await verify(second.wrong)).json().code).toBe('otp_invalid');
      expect((await verify(second.code)).statusCode).toBe(200);
      for (let round = 0; round < 2; round++) {
        const { wrong } = await newCode();
        for (let i = 0; i < 5; i++) expect((await verify(wrong)).json().code).toBe('otp_invalid');
      }
      const { code } = await newCode();
      expect((await verify(code)).statusCode).toBe(429);
    });

    it('mails at most 5 codes per account in 15 minutes, answering the same; the last one still works', async () => {
      const email = 'mail-cap@example.com';
      const { newCode, requestCode, verify } = await withEmailCodes(email);
      let fifth = '';
      for (let i = 0; i < 5; i++) fifth = (await newCode()).code;
      const refused = await requestCode();
      expect([refused.statusCode, refused.json()]).toEqual([200, {}]);
      await atAnotherInstance(async (other) => {
        const again = await requestCode(other);
        expect([again.statusCode, again.json()]).toEqual([200, {}]);
      });
      await new Promise((r) => setTimeout(r, 500)); // mail goes out after the answer
      expect(await mailsTo(email)).toHaveLength(5);
      expect((await verify(fifth)).statusCode).toBe(200);
    });
  });

  // Each re-check hashes a password (argon2): twenty of them on a loaded two-core machine may take minutes.
  describe('the password re-check (verify-and-update-password)', { timeout: 180_000 }, () => {
    const withSession = async (email: string, password: string) => {
      const s = await registeredCustomer(t, email, password);
      return (oldPassword: string, app: FastifyInstance = t.app) =>
        as(
          app,
          email,
        )({
          method: 'POST',
          url: '/functions/v1/verify-and-update-password',
          headers: bearer(s.access_token),
          payload: { oldPassword, newPassword: 'a-new-pass-9', verifyOnly: true },
        });
    };
    const wrongAnswer = { success: false, error: 'Password verification failed. Please check your password and try again.' };

    it('10 wrong passwords refuse the 11th, even the right one, also at another instance', async () => {
      const recheck = await withSession('reauth-lock@example.com', 'reauth-lock-1');
      for (let i = 0; i < 10; i++) {
        const res = await recheck(`wrong-password-${i}`);
        secretsSeen.push(`wrong-password-${i}`);
        expect([res.statusCode, res.json()]).toEqual([400, wrongAnswer]);
      }
      const refused = await recheck('reauth-lock-1');
      expect([refused.statusCode, refused.json()]).toEqual([429, lockedOut]);
      await atAnotherInstance(async (other) => {
        const again = await recheck('reauth-lock-1', other);
        expect([again.statusCode, again.json()]).toEqual([429, lockedOut]);
      });
    });

    it('the right password before the limit clears the count', async () => {
      const recheck = await withSession('reauth-clear@example.com', 'reauth-clear-1');
      for (let i = 0; i < 9; i++) expect((await recheck('not-it')).statusCode).toBe(400);
      expect((await recheck('reauth-clear-1')).json()).toEqual({ success: true });
      for (let i = 0; i < 10; i++) expect((await recheck('not-it')).json()).toEqual(wrongAnswer);
      expect((await recheck('reauth-clear-1')).statusCode).toBe(429);
    });
  });

  it('password sign-in: a burst of wrong passwords from a suspicious client gets no try on cheap captchas, and the owner still gets in', async () => {
    const email = 'burst@example.com';
    await registeredCustomer(t, email, 'burst-right-1');
    secretsSeen.push('burst-right-1');
    const attacker = '10.55.0.1';
    const attempt = (remoteAddress: string, password: string, captcha_token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        remoteAddress,
        payload: { email, password, gotrue_meta_security: { captcha_token } },
      });
    // Three failures (times RATE_LIMIT_FACTOR, which scales the throttle as it does the route limits) make the client suspicious.
    for (let i = 0; i < 3 * Number(env.RATE_LIMIT_FACTOR); i++) {
      expect((await attempt(attacker, `wrong-${i}-pass`, await solveCaptcha(t.app, attacker))).json().code).toBe('invalid_credentials');
    }
    // Captchas solved at a clean client's cost do not pass for the suspicious one, in parallel or not.
    const captchas = await Promise.all(Array.from({ length: 6 }, () => solveCaptcha(t.app, '10.55.0.2')));
    const burst = await Promise.all(captchas.map((captcha, i) => attempt(attacker, `burst-${i}-pass`, captcha)));
    expect(burst.map((r) => r.json().code)).toEqual(Array(6).fill('captcha_failed'));
    expect((await attempt(ipFor(email), 'burst-right-1', await solveCaptcha(t.app, ipFor(email)))).statusCode).toBe(200);
  });

  it('writes no password or authenticator secret into the event log', async () => {
    const { rows } = await sql<{ data: unknown; metadata: unknown }>`select data, metadata from events`.execute(t.database.db);
    const log = JSON.stringify(rows);
    expect(secretsSeen.length).toBeGreaterThan(10);
    for (const secret of secretsSeen) expect(log).not.toContain(secret);
  });
});
