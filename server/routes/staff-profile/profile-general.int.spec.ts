import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn, solveCaptcha, type TestApp } from '../../../tests/support/test-app.js';
import { openProfileSuite, profileCalls, type CustomerSession, type StaffSession } from '../../../tests/support/staff-profile-suite.js';

/** The staff user profile's General tab: dashboard note, permissions, login history, password reset. */
describe('staff user profile: General, Wallets, Transactions and payment methods', () => {
  let t: TestApp;
  const { inject, post, details } = profileCalls(() => t);
  let worker: StaffSession;
  let customer: CustomerSession;

  beforeAll(async () => {
    ({ t, worker, customer } = await openProfileSuite());
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  it('dashboard note: set by the owner worker, and empty text clears it', async () => {
    expect(
      (await post('set-dashboard-note', worker.access_token, { userId: customer.user.id, noteContent: ' Please call us. ' })).statusCode,
    ).toBe(200);
    expect((await details(customer.access_token, customer.user.id)).dashboard_note).toBe('Please call us.');
    expect((await post('set-dashboard-note', worker.access_token, { userId: customer.user.id, noteContent: '' })).statusCode).toBe(200);
    expect((await details(customer.access_token, customer.user.id)).dashboard_note).toBeNull();
  });

  it('permissions: all five saved together; a note is kept only while its permission is off', async () => {
    const save = (p: Record<string, boolean>, notes: Record<string, string | null>) =>
      post('update-all-user-permissions', worker.access_token, {
        targetUserId: customer.user.id,
        permissions: { can_send: true, can_swap: true, can_buy: true, can_sell: true, can_stake: true, ...p },
        ...notes,
      });
    expect(
      (
        await save(
          { can_send: false, can_swap: false, can_stake: false },
          { sendDisabledNote: 'Under review', swapDisabledNote: 'Not now' },
        )
      ).statusCode,
    ).toBe(200);
    let d = await details(customer.access_token, customer.user.id);
    expect([d.can_send, d.can_swap, d.can_buy, d.can_sell, d.can_stake, d.send_disabled_note, d.swap_disabled_note]).toEqual([
      false,
      false,
      true,
      true,
      false,
      'Under review',
      'Not now',
    ]);
    // The customer is held to it by the server.
    const send = await post('create-pending-withdrawal', customer.access_token, {
      assetId: 'BTC',
      amount: '0.1',
      recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    expect([send.statusCode, send.json().error]).toEqual([403, 'Under review']);
    expect((await save({}, { sendDisabledNote: 'ignored while on', swapDisabledNote: null })).statusCode).toBe(200);
    d = await details(customer.access_token, customer.user.id);
    expect([d.can_send, d.can_swap, d.can_stake, d.send_disabled_note, d.swap_disabled_note]).toEqual([true, true, true, null, null]);
    const bad = await post('update-all-user-permissions', worker.access_token, {
      targetUserId: customer.user.id,
      permissions: { can_send: 'no' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('login history: 5 per page, newest first', async () => {
    // The server records each sign-in with the browser of the sign-in itself.
    for (let i = 0; i < 6; i++) {
      const s = await inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        headers: { 'user-agent': `Browser ${i}` },
        payload: { email: 'dana@example.com', password: 'dana-pass-12' },
      });
      expect(s.statusCode, s.body).toBe(200);
    }
    const page = async (n: number) =>
      (
        await inject({
          method: 'GET',
          url: `/functions/v1/get-login-history?targetUserId=${customer.user.id}&page=${n}&pageSize=5`,
          headers: bearer(worker.access_token),
        })
      ).json();
    const first = await page(1);
    const second = await page(2);
    expect(first).toHaveLength(5);
    expect(first[0].user_agent).toBe('Browser 5');
    // Then Browser 0, and the sign-ins before these six (registeredCustomer's).
    expect(second[0].user_agent).toBe('Browser 0');
    expect(second.slice(1).some((e: { user_agent: string }) => e.user_agent.startsWith('Browser'))).toBe(false);
    for (const e of first) expect(Object.keys(e).sort()).toEqual(['id', 'ip_address', 'timestamp', 'user_agent']);
  });

  it('reset password: at least 6 characters on the screen, the one password rule on the server; sessions end at once and the user must choose a new one', async () => {
    const empty = await post('reset-user-password', worker.access_token, { targetUserId: customer.user.id, newPassword: '' });
    expect([empty.statusCode, empty.json()]).toEqual([400, { error: 'New password cannot be empty.' }]);
    const short = await post('reset-user-password', worker.access_token, { targetUserId: customer.user.id, newPassword: '12345' });
    expect([short.statusCode, short.json()]).toEqual([400, { error: 'Password must be at least 6 characters long.' }]);
    // Past the screen's 6, the one password rule of every path (password-policy.ts).
    const common = await post('reset-user-password', worker.access_token, { targetUserId: customer.user.id, newPassword: 'password1' });
    expect([common.statusCode, common.json()]).toEqual([
      400,
      { error: 'This password is too common and easy to guess. Please choose a different one.' },
    ]);
    const live = await signIn(t, 'dana@example.com', 'dana-pass-12');
    expect(
      (await post('reset-user-password', worker.access_token, { targetUserId: customer.user.id, newPassword: 'temp12-reset' })).statusCode,
    ).toBe(200);
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(live.access_token) })).statusCode).toBe(401);
    await expect(signIn(t, 'dana@example.com', 'dana-pass-12')).rejects.toThrow();
    const fresh = await signIn(t, 'dana@example.com', 'temp12-reset', await solveCaptcha(t.app));
    expect(fresh.user.user_metadata).toMatchObject({ requires_password_change: true });
    // The last two changes (the sign-in with the new password is recorded after them).
    const events = (await t.app.ledger.store.readStream(`user-${customer.user.id}`)).filter((e) => e.type !== 'user.signed-in').slice(-2);
    expect(events.map((e) => [e.type, e.metadata.actorId])).toEqual([
      ['user.password-change-required', worker.userId],
      ['user.password-changed', worker.userId],
    ]);
    expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.toContain('temp12-reset');
  });
});
