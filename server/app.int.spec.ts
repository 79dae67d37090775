import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { demoUsersWanted, loadConfig } from './config.js';
import { createTestDatabase, type TestDatabase } from '../tests/support/test-database.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { recorded } from '../ledger/wallet/wallet.arbitraries.js';
import { SYSTEM_ACTOR } from '../ledger/command-handler.js';
import { PROJECTIONS } from '../projections/registry.js';
import { createStaff } from './auth/staff-accounts.js';

describe('the HTTP application', () => {
  let app: FastifyInstance;
  let database: TestDatabase;
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-client-'));
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>wallet-ledger</title><div id="root"></div>');

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: clientDir }), { database, clientDir });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  it("answers /healthz with the database, the event store and each projection's lag to staff, and only ok to anyone else", async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/healthz' });
    expect([anonymous.statusCode, anonymous.json()]).toEqual([200, { status: 'ok' }]);
    const { password } = await createStaff(app.authServices.accounts, {
      email: 'health.admin@example.com',
      fullName: 'Health Admin',
      role: 'ADMIN',
    });
    const signIn = await app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: 'health.admin@example.com', password },
    });
    const authorization = `Bearer ${signIn.json().access_token}`;
    await app.inject({ method: 'PUT', url: '/auth/v1/user', headers: { authorization }, payload: { password: 'own health 2' } });
    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { authorization } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', database: { kind: database.kind, ok: true }, eventStore: 'postgres' });
    expect(body.projections.map((p: { name: string }) => p.name)).toEqual(PROJECTIONS.map((p) => p.name));
    expect(body.projections.every((p: { lag: number }) => p.lag === 0)).toBe(true);
  });

  it('shows what a command wrote in the read tables when the command returns', async () => {
    const userId = randomUUID();
    const result = await app.ledger.execute(walletDecider, userId, recorded('0.123456789012345678', 'Complete', 'DOGE'), {
      actor: SYSTEM_ACTOR,
    });
    expect(result.visible).toBe(true);
    const row = await database.db.selectFrom('balances').select('balance').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row.balance).toBe('0.123456789012345678');
  });

  it('serves an OpenAPI description at /docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths).toHaveProperty('/healthz');
    expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
  });

  it('answers unknown API paths with a JSON 404 and client paths with the client', async () => {
    for (const url of ['/api/v1/nothing', '/functions/v1/nothing', '/auth/v1/nothing', '/dev/nothing']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No route for GET ${url}` });
    }
    const page = await app.inject({ method: 'GET', url: '/dashboard/overview' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root">');
  });

  it("answers the ten assets' prices without a session", async () => {
    const res = await app.inject({ method: 'GET', url: '/functions/v1/crypto-prices' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['BTC', 'ETH', 'USDT', 'BNB', 'SOL', 'XRP', 'ADA', 'DOGE', 'DOT', 'LTC']);
    expect(res.json().BTC.price).toBeGreaterThan(0);
  });

  it('sends JSON answers of 1 KB and more compressed when the client accepts it, and never the sign-in family', async () => {
    const plain = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [encoding, inflate] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: '/docs/json', headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(Object.keys(JSON.parse(inflate(res.rawPayload).toString('utf8')))).toEqual(Object.keys(plain.json()));
    }
    // A token answer holds a secret beside what the caller sent: never compressed.
    const { password } = await createStaff(app.authServices.accounts, {
      email: 'compress.admin@example.com',
      fullName: 'Compress Administrator With A Name Long Enough For One Kilobyte',
      role: 'ADMIN',
    });
    const token = await app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { 'accept-encoding': 'br, gzip' },
      payload: { email: 'compress.admin@example.com', password },
    });
    expect(token.statusCode).toBe(200);
    expect(token.rawPayload.length).toBeGreaterThan(1024);
    expect(token.headers['content-encoding']).toBeUndefined();
  });

  it('refuses malformed JSON with a 400, not a 500', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/functions/v1/nothing',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toHaveProperty('error');
  });
});

describe('configuration', () => {
  it('names every bad variable in one clear error', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(
      /PORT[\s\S]*DATABASE_URL: DATABASE_URL must be a postgres:\/\//,
    );
  });
  it('defaults to the embedded database in ./var on port 3000', () => {
    const config = loadConfig({});
    expect([config.PORT, config.DATA_DIR, config.DATABASE_URL]).toEqual([3000, './var', undefined]);
  });
  it("lets the heap grow 50% past its live objects unless told otherwise; 0 leaves V8's policy", () => {
    expect(loadConfig({}).HEAP_GROWING_PERCENT).toBe(50);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).HEAP_GROWING_PERCENT).toBe(0);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-5' })).toThrow(/HEAP_GROWING_PERCENT/);
  });
  it('the two-person rule: 1000 USD and 72 hours unless told otherwise; 0 means every action; nonsense is refused by name', () => {
    expect([loadConfig({}).FOUR_EYES_LIMIT_USD, loadConfig({}).FOUR_EYES_EXPIRY_HOURS]).toEqual(['1000', 72]);
    expect(loadConfig({ FOUR_EYES_LIMIT_USD: '0', FOUR_EYES_EXPIRY_HOURS: '1' })).toMatchObject({
      FOUR_EYES_LIMIT_USD: '0',
      FOUR_EYES_EXPIRY_HOURS: 1,
    });
    for (const bad of ['-1', '1e3', 'ten', '1000.001', '01000'])
      expect(() => loadConfig({ FOUR_EYES_LIMIT_USD: bad })).toThrow(/FOUR_EYES_LIMIT_USD: FOUR_EYES_LIMIT_USD must be/);
    expect(() => loadConfig({ FOUR_EYES_EXPIRY_HOURS: '0' })).toThrow(/FOUR_EYES_EXPIRY_HOURS/);
  });
  it('production refuses DEMO_USERS=true in one line naming it, and never makes demo accounts; development makes them unless told not to', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      DATA_ENCRYPTION_KEY: 'a'.repeat(64),
      PUBLIC_URL: 'https://wallet.example.com',
      MAIL_OUTBOX: 'true',
    };
    let message = '';
    try {
      loadConfig({ ...production, DEMO_USERS: 'true' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n').filter((l) => l.includes('DEMO_USERS'))).toEqual([
      'Invalid configuration: DEMO_USERS: true is not allowed in production (demo accounts have known roles and printed passwords)',
    ]);
    expect(demoUsersWanted(loadConfig(production))).toBe(false);
    expect(demoUsersWanted(loadConfig({}))).toBe(true);
    expect(demoUsersWanted(loadConfig({ DEMO_USERS: 'false' }))).toBe(false);
    expect(demoUsersWanted(loadConfig({ DATABASE_URL: 'postgres://x/y' }))).toBe(false);
  });
});
