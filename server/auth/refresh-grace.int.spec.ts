import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { InjectOptions } from 'fastify';
import { bearer, createTestApp, ipFor, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';
import { REFRESH_REUSE_GRACE_MS } from './sessions.js';

/** Issue 45: a refresh token used twice within the grace (two tabs, a retry) answers the same pair; later reuse ends the session. */
describe('refresh token rotation with a grace for repeats', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const as = (email: string) => (opts: InjectOptions) => t.app.inject({ remoteAddress: ipFor(email), ...opts });
  const refresh = (email: string, token: string) =>
    as(email)({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: token } });

  it('two parallel refreshes with one token both get the same new pair, and the session lives on', async () => {
    const email = 'two.tabs@example.com';
    const s = await registeredCustomer(t, email, 'two-tabs-pass-1');
    const [a, b] = await Promise.all([refresh(email, s.refresh_token), refresh(email, s.refresh_token)]);
    expect([a!.statusCode, b!.statusCode]).toEqual([200, 200]);
    expect(b!.json().refresh_token).toBe(a!.json().refresh_token);
    expect(b!.json().access_token).toBe(a!.json().access_token);
    expect(b!.json().refresh_token).not.toBe(s.refresh_token);
    // The shared pair works: the session was not ended.
    expect((await as(email)({ method: 'GET', url: '/auth/v1/user', headers: bearer(a!.json().access_token) })).statusCode).toBe(200);
    const next = await refresh(email, a!.json().refresh_token);
    expect(next.statusCode).toBe(200);
  });

  it(`a repeat within ${REFRESH_REUSE_GRACE_MS / 1000} s answers the same pair; after it the session ends`, async () => {
    const email = 'retry@example.com';
    const s = await registeredCustomer(t, email, 'retry-pass-12');
    const first = (await refresh(email, s.refresh_token)).json();
    const retry = await refresh(email, s.refresh_token);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().refresh_token).toBe(first.refresh_token);

    // Past the grace, a spent token used again was copied: the whole session ends.
    await sql`update auth_refresh_tokens set spent_at = spent_at - interval '11 seconds' where spent_at is not null`.execute(t.database.db);
    const late = await refresh(email, s.refresh_token);
    expect(late.json()).toEqual({ error: 'Invalid Refresh Token: Already Used', code: 'refresh_token_already_used' });
    expect((await as(email)({ method: 'GET', url: '/auth/v1/user', headers: bearer(first.access_token) })).statusCode).toBe(401);
    expect((await refresh(email, first.refresh_token)).json().code).toBe('invalid_refresh_token');
  });

  it('a token retired by another sign-in step is no repeat: its reuse ends the session', async () => {
    const email = 'retired@example.com';
    const s = await registeredCustomer(t, email, 'retired-pass-12');
    // Spent without a successor (as when a second step issues a new pair): nothing to repeat.
    await sql`update auth_refresh_tokens set spent_at = now() where spent_at is null`.execute(t.database.db);
    expect((await refresh(email, s.refresh_token)).json().code).toBe('refresh_token_already_used');
    expect((await as(email)({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.access_token) })).statusCode).toBe(401);
  });
});
