import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase, type Database } from '../../server/db/database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * Two instances of the app on one database and one Redis, as behind a load balancer: a rate
 * limit and a captcha token's single use hold across them. Needs REDIS_URL (CI starts Redis).
 */
const REDIS_URL = process.env.REDIS_URL;

async function redisAnswers(url: string | undefined): Promise<string | null> {
  if (!url) return 'REDIS_URL is not set';
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (err) {
    return `Redis at ${url} does not answer (${(err as Error).message})`;
  } finally {
    probe.disconnect();
  }
}

const unavailable = await redisAnswers(REDIS_URL);
if (unavailable)
  console.warn(`tests/scale-out/two-instances: skipped: ${unavailable} (start redis-server and set REDIS_URL=redis://127.0.0.1:6379)`);

/** A stand-in for the provider's siteverify: like the real ones, each token is accepted once. */
const SITEVERIFY = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

describe.skipIf(Boolean(unavailable))('two instances sharing one database and one Redis', () => {
  // A prefix of this run's own, so parallel runs on one Redis do not meet.
  const prefix = `test-${randomUUID().slice(0, 8)}:`;
  const dataDirs: string[] = [];
  let database: TestDatabase;
  let second: Database | undefined;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const seenTokens = new Set<string>();
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input) !== SITEVERIFY) return realFetch(input, init);
      const token = new URLSearchParams(String(init?.body)).get('response')!;
      const first = token.startsWith('good-') && !seenTokens.has(token);
      seenTokens.add(token);
      return Response.json(first ? { success: true } : { success: false, 'error-codes': ['timeout-or-duplicate'] });
    });
    database = await createTestDatabase();
    // On PostgreSQL the second instance has its own connections; PGlite is one process's database.
    second = database.url ? await openDatabase({ databaseUrl: database.url, poolSize: 5 }) : undefined;
    const instance = (db: Database) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-instance-'));
      dataDirs.push(dataDir);
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        PUBLIC_URL: 'http://wallet.test',
        REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SECRET: 'test-secret',
        // One data key for both, as in a deployment (secrets come from the environment).
        DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
        JWT_SECRET: 'x'.repeat(40),
      });
      return buildApp(config, { database: db, clientDir: path.join(dataDir, 'no-client') });
    };
    a = await instance(database);
    b = await instance(second ?? database);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await second?.close();
    await database?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
    if (REDIS_URL) {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it('one client meets one rate limit whichever instance answers', async () => {
    // /auth/v1/recover allows 10 a minute from one address; the requests alternate between instances.
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await (i % 2 ? b : a).inject({
        method: 'POST',
        url: '/auth/v1/recover',
        remoteAddress: '198.51.100.77',
        payload: { email: `nobody${i}@example.com` },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10)).not.toContain(429);
    expect(codes[10]).toBe(429);
    // Another address is counted on its own.
    expect(
      (await b.inject({ method: 'POST', url: '/auth/v1/recover', remoteAddress: '198.51.100.78', payload: { email: 'other@example.com' } }))
        .statusCode,
    ).not.toBe(429);
  });

  it('a captcha token checked on one instance is spent once on another, and its replay is refused by both', async () => {
    const token = `good-${randomUUID()}`;
    // The page verifies the widget's token (instance A), then signs up with it (instance B).
    const checked = await a.inject({
      method: 'POST',
      url: '/functions/v1/verify-recaptcha',
      remoteAddress: '198.51.100.90',
      payload: { captchaToken: token },
    });
    expect(checked.json()).toEqual({ success: true });
    const signUp = (app: FastifyInstance, email: string) =>
      app.inject({
        method: 'POST',
        url: '/auth/v1/signup',
        remoteAddress: '198.51.100.92',
        payload: { email, password: 'correct horse 1', data: { full_name: 'Two' }, gotrue_meta_security: { captcha_token: token } },
      });
    const first = await signUp(b, 'first@example.com');
    expect(first.statusCode).toBe(200);
    // The same token again, on either instance: refused, and no account is made.
    for (const [app, email] of [
      [a, 'second@example.com'],
      [b, 'third@example.com'],
    ] as const) {
      const again = await signUp(app, email);
      expect(again.statusCode).toBe(400);
      expect(again.json().error).toMatch(/captcha/i);
    }
    const users = await database.db
      .selectFrom('users')
      .select('email')
      .where('email', 'in', ['second@example.com', 'third@example.com'])
      .execute();
    expect(users).toEqual([]);
    const replay = await b.inject({
      method: 'POST',
      url: '/functions/v1/verify-recaptcha',
      remoteAddress: '198.51.100.91',
      payload: { captchaToken: token },
    });
    expect(replay.json()).toMatchObject({ success: false });
  });
});
