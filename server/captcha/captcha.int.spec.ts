import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib/v1';
import type { Challenge } from 'altcha-lib/v1/types';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { AltchaCaptcha, createCaptcha, RemoteCaptcha } from './captcha.js';

const HMAC_KEY = 'test-hmac-key-for-captcha-challenges';

/** Solves a challenge as the widget does and encodes the payload it posts. */
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

const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, unknown>;
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64');

describe('AltchaCaptcha', () => {
  let database: TestDatabase;
  let captcha: AltchaCaptcha;

  beforeAll(async () => {
    database = await createTestDatabase();
    // A small range keeps the tests fast; the production cost is ALTCHA_MAX_NUMBER.
    captcha = new AltchaCaptcha(database.db, HMAC_KEY, { maxNumber: 2_000 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('issues a signed challenge that expires in 10 minutes', async () => {
    const production = new AltchaCaptcha(database.db, HMAC_KEY);
    const before = Date.now();
    const challenge = await production.challenge();
    expect(challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: 50_000 });
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(new URLSearchParams(challenge.salt.split('?')[1]).get('expires'));
    expect(expires * 1000).toBeGreaterThan(before + 9 * 60_000);
    expect(expires * 1000).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
  });

  it('checks a solution any number of times, spends it once, then refuses it', async () => {
    const token = await solve(await captcha.challenge());
    expect(await captcha.check(token)).toEqual({ ok: true });
    expect(await captcha.check(token)).toEqual({ ok: true });
    expect(await captcha.spend(token)).toEqual({ ok: true });
    expect(await captcha.spend(token)).toEqual({ ok: false, error: 'already used' });
    expect(await captcha.check(token)).toEqual({ ok: false, error: 'already used' });

    const row = await database.db
      .selectFrom('captcha_solutions_used')
      .selectAll()
      .where('signature', '=', decode(token).signature as string)
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses tampered and malformed solutions', async () => {
    const token = await solve(await captcha.challenge());
    const payload = decode(token);
    const wrongNumber = encode({ ...payload, number: (payload.number as number) + 1 });
    const wrongSignature = encode({ ...payload, signature: 'a'.repeat(64) });
    const longerExpiry = encode({ ...payload, salt: (payload.salt as string).replace(/expires=\d+/, 'expires=9999999999') });
    const otherKey = new AltchaCaptcha(database.db, 'another-key', { maxNumber: 2_000 });

    for (const bad of [
      wrongNumber,
      wrongSignature,
      longerExpiry,
      'not base64!',
      encode('text'),
      encode({ ...payload, algorithm: 'SHA-1' }),
    ]) {
      expect(await captcha.check(bad)).toEqual({ ok: false, error: 'invalid solution' });
      expect(await captcha.spend(bad)).toEqual({ ok: false, error: 'invalid solution' });
    }
    expect(await otherKey.check(token)).toEqual({ ok: false, error: 'invalid solution' });
    // The genuine one is still unspent.
    expect(await captcha.spend(token)).toEqual({ ok: true });
  });

  it('refuses a solution whose challenge has expired', async () => {
    const issuedEarlier = new AltchaCaptcha(database.db, HMAC_KEY, { maxNumber: 2_000, now: () => new Date(Date.now() - 11 * 60_000) });
    const token = await solve(await issuedEarlier.challenge());
    expect(await captcha.check(token)).toEqual({ ok: false, error: 'expired' });
    expect(await captcha.spend(token)).toEqual({ ok: false, error: 'expired' });
  });

  it('lets exactly one of concurrent spends of one solution succeed', async () => {
    const token = await solve(await captcha.challenge());
    const results = await Promise.all(Array.from({ length: 8 }, () => captcha.spend(token)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 7 }, () => ({ ok: false, error: 'already used' })));
  });

  it('clears used rows whose challenge has expired', async () => {
    await database.db
      .insertInto('captcha_solutions_used')
      .values({ signature: 'stale', expires_at: new Date(Date.now() - 60_000) })
      .execute();
    const fresh = new AltchaCaptcha(database.db, HMAC_KEY, { maxNumber: 2_000 });
    expect(await fresh.spend(await solve(await fresh.challenge()))).toEqual({ ok: true });
    const stale = await database.db
      .selectFrom('captcha_solutions_used')
      .select('signature')
      .where('signature', '=', 'stale')
      .executeTakeFirst();
    expect(stale).toBeUndefined();
  });

  it('is the default of createCaptcha, which picks reCAPTCHA or Turnstile when configured', async () => {
    const made = createCaptcha({ CAPTCHA_PROVIDER: 'altcha', CAPTCHA_SECRET: undefined }, database.db, HMAC_KEY);
    expect(made).toBeInstanceOf(AltchaCaptcha);
    expect(made.provider).toBe('altcha');
    const recaptcha = createCaptcha({ CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET: 's' }, database.db, HMAC_KEY);
    expect(recaptcha).toBeInstanceOf(RemoteCaptcha);
    expect(await recaptcha.challenge()).toEqual({ provider: 'recaptcha' });
    expect(() => createCaptcha({ CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: undefined }, database.db, HMAC_KEY)).toThrow(
      /CAPTCHA_SECRET/,
    );
  });
});

describe('RemoteCaptcha', () => {
  let server: http.Server;
  let url: string;
  const received: Array<{ contentType: string | undefined; form: Record<string, string> }> = [];
  let answerWith: ((form: Record<string, string>) => { status: number; body: unknown }) | undefined;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(raw));
        received.push({ contentType: req.headers['content-type'], form });
        const answer = answerWith?.(form) ?? { status: 200, body: { success: false, 'error-codes': ['invalid-input-response'] } };
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const providerStub = (form: Record<string, string>) =>
    form.secret === 'site-secret' && form.response === 'good-token'
      ? { status: 200, body: { success: true, hostname: 'wallet.test' } }
      : { status: 200, body: { success: false, 'error-codes': ['invalid-input-response'] } };

  it('posts secret and response as a form and accepts a good token', async () => {
    answerWith = providerStub;
    received.length = 0;
    const captcha = new RemoteCaptcha({ provider: 'turnstile', secret: 'site-secret', verifyUrl: url });
    expect(await captcha.challenge()).toEqual({ provider: 'turnstile' });
    expect(await captcha.check('good-token')).toEqual({ ok: true });
    expect(received).toEqual([
      { contentType: 'application/x-www-form-urlencoded', form: { secret: 'site-secret', response: 'good-token' } },
    ]);
  });

  it('refuses a token the provider rejects', async () => {
    answerWith = providerStub;
    const captcha = new RemoteCaptcha({ provider: 'recaptcha', secret: 'site-secret', verifyUrl: url, fetch });
    expect(await captcha.check('bad-token')).toEqual({ ok: false, error: 'invalid solution' });
    expect(await captcha.spend('bad-token')).toEqual({ ok: false, error: 'invalid solution' });
  });

  it('spends a checked token without asking the provider again (it accepts a token once), and only once', async () => {
    let accepted = false;
    answerWith = (form) => {
      if (form.response !== 'once-token' || accepted)
        return { status: 200, body: { success: false, 'error-codes': ['timeout-or-duplicate'] } };
      accepted = true;
      return { status: 200, body: { success: true } };
    };
    received.length = 0;
    const captcha = new RemoteCaptcha({ provider: 'turnstile', secret: 'site-secret', verifyUrl: url });
    expect(await captcha.check('once-token')).toEqual({ ok: true });
    expect(await captcha.check('once-token')).toEqual({ ok: true });
    expect(await captcha.spend('once-token')).toEqual({ ok: true });
    expect(await captcha.spend('once-token')).toEqual({ ok: false, error: 'already used' });
    expect(await captcha.check('once-token')).toEqual({ ok: false, error: 'already used' });
    expect(received).toHaveLength(1);
    // A fresh process asking the provider about a used token.
    const other = new RemoteCaptcha({ provider: 'turnstile', secret: 'site-secret', verifyUrl: url });
    expect(await other.spend('once-token')).toEqual({ ok: false, error: 'expired or already used' });
  });

  it('reports an unreachable or failing provider', async () => {
    answerWith = () => ({ status: 500, body: { oops: true } });
    const failing = new RemoteCaptcha({ provider: 'recaptcha', secret: 'site-secret', verifyUrl: url });
    expect(await failing.check('good-token')).toEqual({ ok: false, error: 'verification unavailable' });
    const unreachable = new RemoteCaptcha({
      provider: 'recaptcha',
      secret: 'site-secret',
      verifyUrl: url,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    expect(await unreachable.spend('good-token')).toEqual({ ok: false, error: 'verification unavailable' });
  });

  it('refuses a reCAPTCHA v3 answer with a low score', async () => {
    answerWith = () => ({ status: 200, body: { success: true, score: 0.1, action: 'signup' } });
    const captcha = new RemoteCaptcha({ provider: 'recaptcha', secret: 'site-secret', verifyUrl: url });
    expect(await captcha.check('bot-token')).toEqual({ ok: false, error: 'low score' });
  });
});
