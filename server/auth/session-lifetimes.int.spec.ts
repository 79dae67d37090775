import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, createTestApp, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from './staff-accounts.js';
import { SESSION_NOT_FOUND } from '../routes/access/sessions.js';

describe('session lifetimes and the list of sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: token } });
  /** Moves a session's sign-in and last refresh into the past. */
  const age = async (accessToken: string, opts: { createdAgoMs: number; refreshedAgoMs: number }) => {
    const sessionId = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).session_id as string;
    const created = new Date(Date.now() - opts.createdAgoMs);
    const refreshed = new Date(Date.now() - opts.refreshedAgoMs);
    await sql`update auth_sessions set created_at = ${created}, refreshed_at = ${refreshed} where id = ${sessionId}`.execute(t.database.db);
  };
  const DAY = 24 * 3600_000;
  const MINUTE = 60_000;

  it('refuses a customer refresh token unused for 7 days or signed in 30 days ago, and keeps one within both', async () => {
    const email = 'aged@example.com';
    await registeredCustomer(t, email, 'aged pass 123');
    const idle = await signIn(t, email, 'aged pass 123');
    await age(idle.access_token, { createdAgoMs: 8 * DAY, refreshedAgoMs: 7 * DAY + MINUTE });
    expect((await refresh(idle.refresh_token)).json().code).toBe('invalid_refresh_token');

    const old = await signIn(t, email, 'aged pass 123');
    await age(old.access_token, { createdAgoMs: 30 * DAY + MINUTE, refreshedAgoMs: MINUTE });
    expect((await refresh(old.refresh_token)).json().code).toBe('invalid_refresh_token');
    // An aged session is ended, not only its refresh: its access token no longer works either.
    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(old.access_token) })).statusCode).toBe(401);

    const live = await signIn(t, email, 'aged pass 123');
    await age(live.access_token, { createdAgoMs: 29 * DAY, refreshedAgoMs: 6 * DAY });
    const ok = await refresh(live.refresh_token);
    expect(ok.statusCode, ok.body).toBe(200);
    // The refresh restarts the idle time.
    const again = await refresh(ok.json().refresh_token);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('gives staff shorter sessions: 30 minutes unused, 12 hours in all', async () => {
    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'aged.manager@example.com',
      fullName: 'Aged Manager',
      role: 'MANAGER',
    });
    const first = await signIn(t, 'aged.manager@example.com', password);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'manager own 12' },
    });
    const staff = await signIn(t, 'aged.manager@example.com', 'manager own 12');
    await age(staff.access_token, { createdAgoMs: 40 * MINUTE, refreshedAgoMs: 31 * MINUTE });
    expect((await refresh(staff.refresh_token)).json().code).toBe('invalid_refresh_token');

    const long = await signIn(t, 'aged.manager@example.com', 'manager own 12');
    await age(long.access_token, { createdAgoMs: 12 * 3600_000 + MINUTE, refreshedAgoMs: MINUTE });
    expect((await refresh(long.refresh_token)).json().code).toBe('invalid_refresh_token');

    // The same 31 minutes unused leave a customer's session alive.
    await registeredCustomer(t, 'aged.customer@example.com', 'aged pass 456');
    const customer = await signIn(t, 'aged.customer@example.com', 'aged pass 456');
    await age(customer.access_token, { createdAgoMs: 40 * MINUTE, refreshedAgoMs: 31 * MINUTE });
    expect((await refresh(customer.refresh_token)).statusCode).toBe(200);
  });

  it('lists the live sessions of an account, where its owner can end any one of them', async () => {
    const email = 'many.sessions@example.com';
    const laptop = await registeredCustomer(t, email, 'many pass 123');
    const phone = await signIn(t, email, 'many pass 123');
    const stale = await signIn(t, email, 'many pass 123');
    await age(stale.access_token, { createdAgoMs: 9 * DAY, refreshedAgoMs: 8 * DAY });

    const list = await t.app.inject({ method: 'GET', url: '/auth/v1/sessions', headers: bearer(laptop.access_token) });
    expect(list.statusCode, list.body).toBe(200);
    const sessions = list.json() as { id: string; current: boolean; ip_address: string | null; expires_at: string }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const phoneSession = sessions.find((s) => !s.current)!;

    // Another account cannot end it.
    const stranger = await registeredCustomer(t, 'not.the.owner@example.com', 'stranger pass 1');
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/auth/v1/sessions/${phoneSession.id}`,
      headers: bearer(stranger.access_token),
    });
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { error: SESSION_NOT_FOUND }]);
    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(phone.access_token) })).statusCode).toBe(200);

    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/auth/v1/sessions/${phoneSession.id}`,
      headers: bearer(laptop.access_token),
    });
    expect(ended.statusCode, ended.body).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(phone.access_token) })).statusCode).toBe(401);
    expect((await refresh(phone.refresh_token)).json().code).toBe('invalid_refresh_token');
    const after = (await t.app.inject({ method: 'GET', url: '/auth/v1/sessions', headers: bearer(laptop.access_token) })).json() as {
      current: boolean;
    }[];
    expect(after.map((s) => s.current)).toEqual([true]);
    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(laptop.access_token) })).statusCode).toBe(200);
  });
});
