import { expect } from 'vitest';
import { generate } from 'otplib';
import type { InjectOptions } from 'fastify';
import { bearer, ipFor, mailTo, type TestApp } from '../../tests/support/test-app.js';

/**
 * The calls the accounts-and-access tests (auth.int.spec.ts) share: an account's calls from an
 * address of its own, enrolling an authenticator, and e-mailed codes. `app` gives the suite's
 * app once it is open; every TOTP secret handed out goes into `secretsSeen`, which the suite
 * then looks for in the event log.
 */
export function authTestCalls(app: () => TestApp, secretsSeen: string[]) {
  /** Calls made for one account, from an address of its own (the per-IP limits stay with it). */
  const asUser = (email: string) => (opts: InjectOptions) => app().app.inject({ remoteAddress: ipFor(email), ...opts });

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
    const mail = await mailTo(app().outbox, email, /verification code/, { newerThan: codeMails.get(email) });
    codeMails.set(email, mail);
    return /\b(\d{6})\b/.exec(mail.text)![1]!;
  };
  const verifyEmailCode = (email: string, token: string, code: string) =>
    asUser(email)({ method: 'POST', url: '/auth/v1/verify', headers: bearer(token), payload: { type: 'email', email, token: code } });

  return { asUser, enrolTotp, emailCode, verifyEmailCode };
}
