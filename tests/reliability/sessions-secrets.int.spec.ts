import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { generate } from 'otplib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { bearer, ipFor, mailTo, solveCaptcha, type TestApp } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { OutboxMailer } from '../../server/mail/mailer.js';
import { createStaff } from '../../server/auth/staff-accounts.js';
import { registeredCustomer, signIn } from '../support/test-app.js';

/**
 * Sessions and secrets, the parts the auth suite (server/auth/auth.int.spec.ts) leaves open:
 * codes and links that expire, sign-in limits per address and per account, a ban that ends
 * sessions at once, and a scan of everything the app writes down for every secret it handled.
 * The app logs at debug level into memory here, so the scan reads the real log.
 */
describe('sessions and secrets', () => {
  let t: TestApp;
  let log = '';
  /** Every password, token, code and secret handed out or typed in during this suite. */
  const secrets: string[] = [];
  const inject = (opts: InjectOptions) => t.app.inject(opts);

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-secrets-'));
    const database = await createTestDatabase();
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug', DATA_DIR: dataDir, PUBLIC_URL: 'http://wallet.test' });
    const app: FastifyInstance = await buildApp(config, { database, clientDir: path.join(dataDir, 'no-client'), logStream: stream });
    t = {
      app,
      database,
      dataDir,
      outbox: new OutboxMailer(path.join(dataDir, 'outbox')),
      async close() {
        await app.close();
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const setExpired = (userId: string, kind: string) =>
    sql`update auth_one_time_tokens set expires_at = now() - interval '1 minute' where user_id = ${userId} and kind = ${kind}`.execute(
      t.database.db,
    );

  it('an e-mailed code expires; a reset link expires and works once; a sign-up link works once', async () => {
    const s = await registeredCustomer(t, 'expiry@example.com', 'expiry-pass-1');
    secrets.push('expiry-pass-1', s.access_token, s.refresh_token);
    await inject({ method: 'POST', url: '/auth/v1/otp', payload: { email: 'expiry@example.com' } });
    const mail = await mailTo(t.outbox, 'expiry@example.com', /verification code/);
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    secrets.push(code);
    await setExpired(s.user.id, 'email_otp');
    const late = await inject({
      method: 'POST',
      url: '/auth/v1/verify',
      headers: bearer(s.access_token),
      payload: { type: 'email', email: 'expiry@example.com', token: code },
    });
    expect([late.statusCode, late.json().code]).toEqual([400, 'otp_expired']);

    await inject({ method: 'POST', url: '/auth/v1/recover', payload: { email: 'expiry@example.com' } });
    const reset = await mailTo(t.outbox, 'expiry@example.com', /Reset your password/);
    const token = /token=([\w-]+)/.exec(reset.text)![1]!;
    secrets.push(token);
    await setExpired(s.user.id, 'recovery');
    const expired = await inject({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token } });
    expect(expired.json().code).toBe('otp_expired');

    await inject({ method: 'POST', url: '/auth/v1/recover', payload: { email: 'expiry@example.com' } });
    const fresh = await mailTo(t.outbox, 'expiry@example.com', /Reset your password/, { newerThan: reset });
    const freshToken = /token=([\w-]+)/.exec(fresh.text)![1]!;
    secrets.push(freshToken);
    const used = await inject({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token: freshToken } });
    expect(used.statusCode).toBe(200);
    secrets.push(used.json().access_token, used.json().refresh_token);
    expect((await inject({ method: 'POST', url: '/auth/v1/verify', payload: { type: 'recovery', token: freshToken } })).json().code).toBe(
      'otp_invalid',
    );

    const confirm = await mailTo(t.outbox, 'expiry@example.com', /Confirm/);
    const link = new URL(/https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec(confirm.text)![0]);
    secrets.push(link.searchParams.get('token')!);
    const again = await inject({ method: 'GET', url: link.pathname + link.search });
    expect(again.headers.location).toBe('/login?confirm_error=1');
  });

  it('a TOTP code is accepted once, even by a second session of the same user', async () => {
    const s = await registeredCustomer(t, 'totp-once@example.com', 'totp-once-pass-1');
    secrets.push('totp-once-pass-1');
    const enrol = (
      await inject({ method: 'POST', url: '/auth/v1/factors', headers: bearer(s.access_token), payload: { factor_type: 'totp' } })
    ).json();
    secrets.push(enrol.totp.secret);
    const verify = async (token: string, code: string) => {
      const challenge = (await inject({ method: 'POST', url: `/auth/v1/factors/${enrol.id}/challenge`, headers: bearer(token) })).json().id;
      return inject({
        method: 'POST',
        url: `/auth/v1/factors/${enrol.id}/verify`,
        headers: bearer(token),
        payload: { challenge_id: challenge, code },
      });
    };
    const code = await generate({ secret: enrol.totp.secret });
    expect((await verify(s.access_token, code)).statusCode).toBe(200);
    const other = await signIn(t, 'totp-once@example.com', 'totp-once-pass-1');
    const [a, b] = await Promise.all([verify(other.access_token, code), verify(other.access_token, code)]);
    expect([a.json().code, b.json().code]).toEqual(['mfa_verification_failed', 'mfa_verification_failed']);
  });

  it('sign-in is limited per address (30 a minute); failures for an account from any address need a captcha but lock no one out', async () => {
    await registeredCustomer(t, 'limited@example.com', 'limited-pass-1');
    secrets.push('limited-pass-1');
    // The limit counts every call before it is read, so empty bodies (refused at once) use it up as well.
    let last;
    for (let i = 0; i < 31; i++) {
      last = await inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', remoteAddress: '10.77.0.1', payload: {} });
    }
    expect([last!.statusCode, last!.json().code]).toEqual([429, 'rate_limited']);

    // Ten wrong passwords from ten addresses, each with a solved captcha; the right one with a captcha still gets in (no lock a stranger can set).
    for (let i = 0; i < 10; i++) {
      const wrong = await inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        remoteAddress: `10.78.0.${i + 1}`,
        payload: {
          email: 'limited@example.com',
          password: `wrong-${i}`,
          gotrue_meta_security: { captcha_token: await solveCaptcha(t.app) },
        },
      });
      expect(wrong.json().code).toBe('invalid_credentials');
    }
    const right = await inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress: '10.78.1.1',
      payload: {
        email: 'limited@example.com',
        password: 'limited-pass-1',
        gotrue_meta_security: { captcha_token: await solveCaptcha(t.app) },
      },
    });
    expect(right.statusCode, right.body).toBe(200);
  }, 180_000);

  it('a ban by an admin ends every session of the customer at once, refresh tokens included', async () => {
    const s = await registeredCustomer(t, 'tobebanned@example.com', 'banned-pass-1');
    const second = await signIn(t, 'tobebanned@example.com', 'banned-pass-1');
    secrets.push('banned-pass-1', s.refresh_token, second.refresh_token);
    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'secrets-admin@example.com',
      fullName: 'Admin',
      role: 'ADMIN',
    });
    secrets.push(password);
    const first = await signIn(t, 'secrets-admin@example.com', password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'admin-own-pass-1' } });
    secrets.push('admin-own-pass-1', first.access_token);
    const ban = await inject({
      method: 'POST',
      url: '/functions/v1/ban-user',
      headers: bearer(first.access_token),
      payload: { targetUserId: s.user.id },
    });
    expect(ban.statusCode).toBe(200);
    for (const session of [s, second]) {
      expect((await inject({ method: 'GET', url: '/api/v1/transactions', headers: bearer(session.access_token) })).statusCode).toBe(401);
      const refresh = await inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=refresh_token',
        remoteAddress: ipFor('tobebanned@example.com'),
        payload: { refresh_token: session.refresh_token },
      });
      expect(refresh.statusCode).toBeGreaterThanOrEqual(400);
    }
  });

  it('an access token counts only while it is valid: expired, altered or foreign-signed tokens are refused, even once accepted', async () => {
    const s = await registeredCustomer(t, 'token-check@example.com', 'token-pass-1');
    const list = (authorization?: string) =>
      inject({ method: 'GET', url: '/api/v1/transactions', headers: authorization === undefined ? {} : { authorization } });
    const [head, body, signature] = s.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const { exp: _exp, iat: _iat, ...kept } = claims;
    const altered = `${head}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const foreign = `${head}.${body}.${createHmac('sha256', 'another key of at least thirty-two characters').update(`${head}.${body}`).digest('base64url')}`;
    // `exp` counts whole seconds from the second the token was signed in: two seconds are at
    // least one (the checks below take milliseconds) and at most two (the wait below is longer).
    const shortLived = t.app.jwt.sign(kept, { expiresIn: 2 });
    secrets.push('token-pass-1', s.refresh_token, s.access_token, altered, foreign, shortLived);
    // Accepted first, so that a remembered verification would be what answers next.
    expect((await list(`Bearer ${s.access_token}`)).statusCode).toBe(200);
    expect((await list(`bearer ${s.access_token}`)).statusCode).toBe(200);
    expect((await list(`Bearer ${shortLived}`)).statusCode).toBe(200);
    for (const refused of [
      undefined,
      'Bearer',
      `Bearer ${s.access_token} extra`,
      `Basic ${s.access_token}`,
      `Bearer ${altered}`,
      `Bearer ${foreign}`,
    ]) {
      const answer = await list(refused);
      expect([refused, answer.statusCode, answer.json().error]).toEqual([
        refused,
        401,
        'Session expired or invalid. Please sign in again.',
      ]);
    }
    // `exp` counts whole seconds: past it, the token that was accepted above is refused.
    await new Promise((r) => setTimeout(r, 2100));
    expect((await list(`Bearer ${shortLived}`)).statusCode).toBe(401);
    expect((await list(`Bearer ${s.access_token}`)).statusCode).toBe(200);
  });

  it('a refresh token used twice ends the session family: the newer token dies too', async () => {
    const s = await registeredCustomer(t, 'family@example.com', 'family-pass-1');
    const refresh = (token: string) =>
      inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: token } });
    const [a, b] = await Promise.all([refresh(s.refresh_token), refresh(s.refresh_token)]);
    // Two tabs racing with the same token within the grace: both get the one new pair.
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.json().refresh_token).toBe(a.json().refresh_token);
    const winner = a.json();
    secrets.push('family-pass-1', s.refresh_token, winner.refresh_token, winner.access_token);
    // Used again after the grace (10 s), the spent token was copied: the family ends.
    await sql`update auth_refresh_tokens set spent_at = spent_at - interval '11 seconds' where spent_at is not null`.execute(t.database.db);
    expect((await refresh(s.refresh_token)).statusCode).toBe(400);
    expect((await refresh(winner.refresh_token)).statusCode).toBe(400);
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(winner.access_token) })).statusCode).toBe(401);
  });

  it('no password, code, token or secret is in the event log, the read tables or the log', async () => {
    // The realtime socket and the sign-up link carry tokens in the URL: they must not reach the log.
    await inject({ method: 'GET', url: `/realtime/v1?token=${secrets.find((x) => x.split('.').length === 3)}` });
    const { rows: events } = await sql<{ data: unknown; metadata: unknown }>`select data, metadata from events`.execute(t.database.db);
    // Every read table (the auth_* tables and sealed secrets hold hashes and ciphertext by design).
    const { rows: tables } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'auth\\_%' and table_name <> 'payment_method_secrets'`.execute(
      t.database.db,
    );
    let exported = '';
    for (const { table_name } of tables) {
      const { rows } = await sql`select * from ${sql.table(table_name)}`.execute(t.database.db);
      exported += `${table_name}: ${JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`;
    }
    await new Promise((r) => setTimeout(r, 100)); // the logger writes asynchronously
    expect(secrets.length).toBeGreaterThanOrEqual(15);
    expect(log.length).toBeGreaterThan(1000);
    expect(log).toContain('token=[redacted]');
    const places = { 'event log': JSON.stringify(events), 'read tables': exported, log };
    const leaks: string[] = [];
    for (const [where, text] of Object.entries(places)) {
      for (const secret of secrets) if (text.includes(secret)) leaks.push(`${where} holds ${secret.slice(0, 12)}…`);
      if (/\$argon2/.test(text)) leaks.push(`${where} holds a password hash`);
    }
    expect(leaks).toEqual([]);
  });
});
