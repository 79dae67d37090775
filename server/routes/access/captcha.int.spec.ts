import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib/v1';
import type { Challenge } from 'altcha-lib/v1/types';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { AltchaCaptcha } from '../../captcha/captcha.js';
import { registerErrorHandling } from '../../plugins/errors.js';
import { captchaRoutes } from './captcha.js';

async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error('no solution found');
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

describe('captcha routes', () => {
  let database: TestDatabase;
  let captcha: AltchaCaptcha;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase();
    captcha = new AltchaCaptcha(database.db, 'route-test-hmac-key', { maxNumber: 2_000 });
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandling(app);
    await app.register(captchaRoutes(captcha), { prefix: '/functions/v1' });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const verify = (payload: unknown) => app.inject({ method: 'POST', url: '/functions/v1/verify-recaptcha', payload: payload as object });

  it('GET captcha-challenge answers an ALTCHA challenge, fresh each time', async () => {
    const res = await app.inject({ method: 'GET', url: '/functions/v1/captcha-challenge' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
    expect(body).toMatchObject({ algorithm: 'SHA-256', maxnumber: 2_000 });
    const again = (await app.inject({ method: 'GET', url: '/functions/v1/captcha-challenge' })).json();
    expect(again.signature).not.toBe(body.signature);
  });

  it('POST verify-recaptcha checks a solution without spending it', async () => {
    const challenge = (await app.inject({ method: 'GET', url: '/functions/v1/captcha-challenge' })).json() as Challenge;
    const token = await solve(challenge);

    for (let i = 0; i < 2; i++) {
      const res = await verify({ captchaToken: token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
    }
    // The sign-up or sign-in that carries it spends it; afterwards it no longer checks.
    expect(await captcha.spend(token)).toEqual({ ok: true });
    const used = await verify({ captchaToken: token });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toEqual({ success: false, error: 'already used' });
  });

  it('answers success false with a reason for a wrong solution', async () => {
    const res = await verify({ captchaToken: Buffer.from('{"algorithm":"SHA-256"}').toString('base64') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, error: 'invalid solution' });
  });

  it('refuses a missing, empty, oversized or non-string captchaToken with a 400 and an error', async () => {
    for (const body of [{}, { captchaToken: '' }, { captchaToken: 'a'.repeat(10_001) }, { captchaToken: 42 }]) {
      const res = await verify(body);
      expect(res.statusCode).toBe(400);
      const answer = res.json();
      expect(typeof answer.error).toBe('string');
      expect(answer.error.length).toBeGreaterThan(0);
    }
    const longest = await verify({ captchaToken: 'a'.repeat(10_000) });
    expect(longest.statusCode).toBe(200);
    expect(longest.json()).toEqual({ success: false, error: 'invalid solution' });
  });
});
