import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { bearer, createTestApp, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { authTestCalls } from './auth-test-calls.js';

/** Issue 45: a second-step challenge is spent once; of two parallel verifications exactly one passes. */
describe('parallel verifications of one second step', () => {
  let t: TestApp;
  const secretsSeen: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const { asUser, emailCode, verifyEmailCode } = authTestCalls(() => t, secretsSeen);

  /** Enrols an authenticator and makes it the method; answers its id, secret and recovery codes. */
  const enrol = async (email: string, token: string) => {
    const call = asUser(email);
    const { id, totp } = (
      await call({ method: 'POST', url: '/auth/v1/factors', headers: bearer(token), payload: { factor_type: 'totp' } })
    ).json();
    const challenge = (await call({ method: 'POST', url: `/auth/v1/factors/${id}/challenge`, headers: bearer(token) })).json().id;
    const verified = await call({
      method: 'POST',
      url: `/auth/v1/factors/${id}/verify`,
      headers: bearer(token),
      payload: { challenge_id: challenge, code: await generate({ secret: totp.secret }) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const upgraded = verified.json();
    await call({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(upgraded.access_token),
      payload: { data: { active_mfa_method: 'totp' } },
    });
    // The enrolment spent this time step; forgotten here so that the race below may use it and the one before.
    await t.database.db.updateTable('auth_mfa_factors').set({ last_used_step: null }).where('id', '=', id).execute();
    return { id: id as string, secret: totp.secret as string, codes: upgraded.recovery_codes as string[] };
  };

  /** Two verifications of one fresh challenge at once; answers their status codes, sorted. */
  const raceOnChallenge = async (email: string, password: string, factorId: string, codes: [string, string]) => {
    const call = asUser(email);
    const session = await signIn(t, email, password);
    expect(JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString()).aal).toBe('aal1');
    const challenge = (
      await call({ method: 'POST', url: `/auth/v1/factors/${factorId}/challenge`, headers: bearer(session.access_token) })
    ).json().id as string;
    const answers = await Promise.all(
      codes.map((code) =>
        call({
          method: 'POST',
          url: `/auth/v1/factors/${factorId}/verify`,
          headers: bearer(session.access_token),
          payload: { challenge_id: challenge, code },
        }),
      ),
    );
    return answers.map((a) => a.statusCode).sort();
  };

  it('two valid authenticator codes (this time step and the one before) on one challenge: one passes', async () => {
    const email = 'race.totp@example.com';
    const s = await registeredCustomer(t, email, 'race-totp-pass-1');
    const { id, secret } = await enrol(email, s.access_token);
    // Several races, each with both steps unspent: whichever order the two are served in, one passes.
    for (let round = 0; round < 4; round++) {
      await t.database.db.updateTable('auth_mfa_factors').set({ last_used_step: null }).where('id', '=', id).execute();
      const now = Math.floor(Date.now() / 1000);
      // Step N-1 then N: unguarded, N-1 passed and then N too (it is newer than the step just spent).
      const codes: [string, string] = [await generate({ secret, epoch: now - 30 }), await generate({ secret, epoch: now })];
      expect(codes[0]).not.toBe(codes[1]);
      expect(await raceOnChallenge(email, 'race-totp-pass-1', id, codes)).toEqual([200, 400]);
    }
  });

  it('two valid recovery codes on one challenge: one passes, and the other stays unspent', async () => {
    const email = 'race.recovery@example.com';
    const s = await registeredCustomer(t, email, 'race-recovery-pass-1');
    const { id, codes } = await enrol(email, s.access_token);
    const statuses = await raceOnChallenge(email, 'race-recovery-pass-1', id, [codes[0]!, codes[1]!]);
    expect(statuses).toEqual([200, 400]);
    const unspent = await t.database.db
      .selectFrom('auth_mfa_recovery_codes')
      .select('code_digest')
      .where('user_id', '=', s.user.id)
      .where('used_at', 'is', null)
      .execute();
    expect(unspent).toHaveLength(codes.length - 1);
  });

  it('one e-mailed code sent twice at once: one passes', async () => {
    const email = 'race.mail@example.com';
    const s = await registeredCustomer(t, email, 'race-mail-pass-1');
    const code = await emailCode(email);
    const both = await Promise.all([verifyEmailCode(email, s.access_token, code), verifyEmailCode(email, s.access_token, code)]);
    expect(both.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });
});
