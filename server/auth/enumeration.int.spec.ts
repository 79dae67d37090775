import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainMail } from '../mail/mailer.js';
import { createTestApp, mailTo, registeredCustomer, solveCaptcha, type TestApp } from '../../tests/support/test-app.js';

/**
 * The lower quartile of the timings: other work on the machine only ever adds time to a call, so
 * the faster calls show what the call itself costs (a lookup or a hash before the answer would
 * lift every call of that kind, the fast ones too), where a median moves with the load.
 */
const lowerQuartile = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 4)]!;
};

describe('no account enumeration', () => {
  let t: TestApp;
  let ipCounter = 0;
  /** Each call from an address of its own, so that the per-address limits of these routes stay out of the timing. */
  const nextIp = () => `10.99.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const signUp = async (email: string, password: string, fullName: string) => {
    const ip = nextIp();
    return t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      remoteAddress: ip,
      payload: { email, password, data: { full_name: fullName }, gotrue_meta_security: { captcha_token: await solveCaptcha(t.app, ip) } },
    });
  };

  it('answers a sign-up for a known address as for a new one, creates nothing and mails the owner', async () => {
    const owner = await registeredCustomer(t, 'taken@example.com', 'taken pass 12', 'Taken Owner');
    const known = await signUp('Taken@Example.com', 'other pass 34', 'Someone Else');
    const fresh = await signUp('fresh@example.com', 'fresh pass 56', 'Someone Else');
    expect(known.statusCode).toBe(fresh.statusCode);
    expect(known.statusCode).toBe(200);
    const shape = (body: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === null ? null : Array.isArray(v) ? v : typeof v]));
    expect(shape(known.json())).toEqual(shape(fresh.json()));
    expect(known.json()).toMatchObject({ email: 'Taken@Example.com', email_confirmed_at: null, user_metadata: fresh.json().user_metadata });
    expect(known.json().id).not.toBe(owner.user.id);

    const mail = await mailTo(t.outbox, 'taken@example.com', /Someone tried to sign up/);
    expect(mail.text).toContain('No new account was created');
    expect(mail.text).toContain('http://wallet.test/login');
    const accounts = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', 'in', ['taken@example.com', 'Taken@Example.com'])
      .execute();
    expect(accounts.map((a) => a.id)).toEqual([owner.user.id]);
    // The owner's password is unchanged.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/auth/v1/token?grant_type=password',
          payload: { email: 'taken@example.com', password: 'taken pass 12' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('takes the same time for a known and an unknown address on recover, resend and otp, and mails after the answer', async () => {
    await registeredCustomer(t, 'timed@example.com', 'timed pass 12');
    expect((await signUp('pending@example.com', 'pending pass 1', 'Pending')).statusCode).toBe(200);
    const cases = [
      { url: '/auth/v1/recover', known: 'timed@example.com', payload: (email: string) => ({ email }) },
      { url: '/auth/v1/resend', known: 'pending@example.com', payload: (email: string) => ({ type: 'signup', email }) },
      { url: '/auth/v1/otp', known: 'timed@example.com', payload: (email: string) => ({ email, create_user: false }) },
    ];
    const call = async (url: string, payload: unknown) => {
      const started = process.hrtime.bigint();
      const res = await t.app.inject({ method: 'POST', url, remoteAddress: nextIp(), payload: payload as Record<string, unknown> });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      expect([res.statusCode, res.json()]).toEqual([200, {}]);
      // Whatever the call does after its answer (the lookup, the mail) is over before the next
      // call is timed: on a loaded machine, or with a pooler's extra hop, it can outlast a fixed pause.
      expect(await drainMail(t.app.authServices.mailer, 10_000)).toBe(0);
      return ms;
    };
    for (const c of cases) {
      // A machine shared with other work is noisy: up to five rounds; one with steady quartiles passes.
      let verdict = '';
      for (let round = 0; round < 5; round++) {
        const known: number[] = [];
        const unknown: number[] = [];
        await call(c.url, c.payload('warm-up@example.com'));
        for (let i = 0; i < 15; i++) {
          // Alternating, so that a slow spell of the machine falls on both.
          if (i % 2 === 0) {
            known.push(await call(c.url, c.payload(c.known)));
            unknown.push(await call(c.url, c.payload(`nobody-${i}@example.com`)));
          } else {
            unknown.push(await call(c.url, c.payload(`nobody-${i}@example.com`)));
            known.push(await call(c.url, c.payload(c.known)));
          }
        }
        const [k, u] = [lowerQuartile(known), lowerQuartile(unknown)];
        verdict = `${c.url}: known ${k.toFixed(2)} ms, unknown ${u.toFixed(2)} ms`;
        // Steady: within a quarter of each other, or within 0.2 ms (under what one database
        // round trip or a password hash before the answer would add to every call of its kind).
        if (Math.abs(k - u) <= Math.max(0.25 * Math.max(k, u), 0.2)) break;
        verdict += ' (apart)';
      }
      expect(verdict).not.toContain('apart');
    }
    // The mails still go out, after the answer.
    await mailTo(t.outbox, 'timed@example.com', /Reset your password/);
    await mailTo(t.outbox, 'timed@example.com', /verification code/);
  }, 120_000);
});
