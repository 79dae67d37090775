import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ipFor, registeredCustomer, solveCaptcha, type TestApp } from '../../tests/support/test-app.js';
import { ALTCHA_MAX_NUMBER, ALTCHA_SUSPECT_MAX_NUMBER } from '../captcha/captcha.js';
import { createStaff } from './staff-accounts.js';
import { SignInThrottle } from './failures.js';

describe('sign-in throttling: no stranger can lock an account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const signInFrom = (remoteAddress: string, email: string, password: string, captcha?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      remoteAddress,
      payload: { email, password, ...(captcha ? { gotrue_meta_security: { captcha_token: captcha } } : {}) },
    });
  const challengeCost = async (remoteAddress: string) =>
    (await t.app.inject({ method: 'GET', url: '/functions/v1/captcha-challenge', remoteAddress })).json().maxnumber as number;

  it('lets the owner in with the right password and a solved captcha after many wrong passwords from other clients', async () => {
    const owner = 'besieged@example.com';
    await registeredCustomer(t, owner, 'owner password 1');
    // Fifteen strangers, each with solved captchas, guess wrong: more than the ten that locked the address.
    for (let i = 0; i < 15; i++) {
      const stranger = `10.66.0.${i + 1}`;
      const res = await signInFrom(stranger, owner, `guess-${i}-wrong`, await solveCaptcha(t.app, stranger));
      expect(res.json().code, res.body).toBe('invalid_credentials');
    }
    // Without a captcha the address is now refused...
    expect((await signInFrom(ipFor(owner), owner, 'owner password 1')).json().code).toBe('captcha_required');
    // ...and with one the owner is in.
    const ok = await signInFrom(ipFor(owner), owner, 'owner password 1', await solveCaptcha(t.app, ipFor(owner)));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user.email).toBe(owner);
  });

  it('does the same for a staff account', async () => {
    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'besieged.admin@example.com',
      fullName: 'Besieged Admin',
      role: 'ADMIN',
    });
    for (let i = 0; i < 12; i++) {
      const stranger = `10.67.0.${i + 1}`;
      await signInFrom(stranger, 'besieged.admin@example.com', 'not-it-at-all', await solveCaptcha(t.app, stranger));
    }
    const ok = await signInFrom('10.67.1.1', 'besieged.admin@example.com', password, await solveCaptcha(t.app, '10.67.1.1'));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('makes a failing client wait longer and longer, and its captcha dearer, while the owner elsewhere still gets in', async () => {
    const owner = 'hammered@example.com';
    await registeredCustomer(t, owner, 'hammered pass 1');
    const attacker = '10.77.0.1';
    expect(await challengeCost(attacker)).toBe(ALTCHA_MAX_NUMBER);
    let refused;
    const costs: number[] = [];
    for (let i = 0; i < SignInThrottle.CLIENT_DELAY_FROM; i++) {
      costs.push(await challengeCost(attacker));
      // A captcha of the client's own, as costly as its suspicion: solved with the minimum that passes.
      const captcha = i === 0 ? undefined : await solveCaptcha(t.app, attacker);
      refused = await signInFrom(attacker, owner, `wrong-${i}`, captcha);
      expect(refused.json().code, refused.body).toBe('invalid_credentials');
    }
    // Three failures put the client under suspicion: at least a second of work (ALTCHA_SUSPECT_MAX_NUMBER).
    expect(costs.slice(0, 3)).toEqual([ALTCHA_MAX_NUMBER, ALTCHA_MAX_NUMBER, ALTCHA_MAX_NUMBER]);
    expect(costs[3]).toBeGreaterThanOrEqual(ALTCHA_SUSPECT_MAX_NUMBER);
    // After the fifth failure the client must wait, even with the right password.
    const waiting = await signInFrom(attacker, owner, 'hammered pass 1');
    expect([waiting.statusCode, waiting.json().code]).toEqual([429, 'rate_limited']);
    expect(SignInThrottle.delayMs(6)).toBeGreaterThan(SignInThrottle.delayMs(5));
    // A cheap captcha fetched from a clean client does not pass for the suspicious one.
    await new Promise((r) => setTimeout(r, SignInThrottle.delayMs(SignInThrottle.CLIENT_DELAY_FROM) + 100));
    const cheap = await solveCaptcha(t.app, '10.77.9.9');
    const tooEasy = await signInFrom(attacker, owner, 'hammered pass 1', cheap);
    expect(tooEasy.json()).toEqual({ error: 'CAPTCHA verification failed: a harder challenge is needed', code: 'captcha_failed' });
    // The owner, from their own client, is not delayed.
    const ok = await signInFrom(ipFor(owner), owner, 'hammered pass 1', await solveCaptcha(t.app, ipFor(owner)));
    expect(ok.statusCode, ok.body).toBe(200);
  }, 180_000);

  it('raises the captcha cost for a client that asks for challenges too fast', async () => {
    const client = '10.88.0.1';
    const costs: number[] = [];
    for (let i = 0; i < SignInThrottle.CHALLENGES_PER_MINUTE + 3; i++) costs.push(await challengeCost(client));
    expect(costs[0]).toBe(ALTCHA_MAX_NUMBER);
    expect(costs.at(-1)).toBeGreaterThanOrEqual(ALTCHA_SUSPECT_MAX_NUMBER);
    expect(await challengeCost('10.88.0.2')).toBe(ALTCHA_MAX_NUMBER);
  });
});
