import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, mailTo, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import type { WalletCommand } from '../../../ledger/wallet/wallet.js';
import { recorded } from '../../../ledger/wallet/wallet.arbitraries.js';
import { replayProjections } from '../../../projections/replay.js';
import { notificationsProjection } from '../../../projections/notifications.js';

describe('notification preferences (Settings > Notifications)', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const EMAIL = 'choosy@example.com';
  let admin: Awaited<ReturnType<typeof signIn>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  const prefs = (payload?: Record<string, unknown>) =>
    inject({
      method: payload ? 'PUT' : 'GET',
      url: '/api/v1/notification-preferences',
      headers: bearer(customer.access_token),
      ...(payload ? { payload } : {}),
    });
  const staffPost = async (p: string, payload: Record<string, unknown>) => {
    const res = await inject({ method: 'POST', url: `/functions/v1/${p}`, headers: bearer(admin.access_token), payload });
    expect(res.statusCode, `${p}: ${res.body}`).toBe(200);
  };
  const bell = async () =>
    (await inject({ method: 'GET', url: '/api/v1/notifications', headers: bearer(customer.access_token) }))
      .json()
      .notifications.map((n: { message: string }) => n.message) as string[];
  const subjects = async () => (await t.outbox.list({ to: EMAIL })).map((m) => m.subject);
  const ALL_OFF = { transactionsInApp: false, transactionsEmail: false, accountChangesEmail: false, accountChangesInApp: false };

  beforeAll(async () => {
    t = await createTestApp();
    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'prefs-admin@example.com',
      fullName: 'Ada Admin',
      role: 'ADMIN',
    });
    const first = await signIn(t, 'prefs-admin@example.com', password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    admin = await signIn(t, 'prefs-admin@example.com', 'staff-own-pass-1');
    customer = await registeredCustomer(t, EMAIL, 'choosy-pass-123', 'Cho Osy');
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  it('everything but transaction e-mails is on at first; bad input is a 400 with an error and records nothing; staff have no choices', async () => {
    expect((await prefs()).json()).toEqual({
      transactionsInApp: true,
      transactionsEmail: false,
      accountChangesEmail: true,
      accountChangesInApp: true,
    });
    const { transactionsEmail: _left, ...withoutTransactionsEmail } = ALL_OFF;
    for (const bad of [
      {},
      { ...ALL_OFF, transactionsInApp: 'no' },
      { ...ALL_OFF, transactionsEmail: 'yes' },
      { ...ALL_OFF, transactionsEmail: null },
      withoutTransactionsEmail,
      { transactionsInApp: false },
      { ...ALL_OFF, securityEmail: false },
    ]) {
      const res = await prefs(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    const staffRes = await inject({
      method: 'PUT',
      url: '/api/v1/notification-preferences',
      headers: bearer(admin.access_token),
      payload: ALL_OFF,
    });
    expect(staffRes.statusCode).toBe(403);
    expect(staffRes.json()).toEqual({ error: 'Notification preferences are for customer accounts.' });
    const stream = await t.app.ledger.store.readStream(`user-${customer.user.id}`);
    expect(stream.filter((e) => e.type === 'user.notification-preferences-set')).toEqual([]);
  });

  it("the choices are recorded as the customer's event and survive a restart and a replay", async () => {
    const saved = await prefs(ALL_OFF);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(ALL_OFF);
    const [event] = (await t.app.ledger.store.readStream(`user-${customer.user.id}`)).filter(
      (e) => e.type === 'user.notification-preferences-set',
    );
    expect(event?.data).toEqual(ALL_OFF);
    expect(event?.metadata.actorId).toBe(customer.user.id);
    // Staff reading the customer's event trail see the choice in words, with the customer as actor.
    const trail = await inject({
      method: 'GET',
      url: `/api/v1/users/${customer.user.id}/event-trail?kind=support`,
      headers: bearer(admin.access_token),
    });
    expect(trail.statusCode, trail.body).toBe(200);
    const entry = trail.json().events.find((e: { type: string }) => e.type === 'user.notification-preferences-set');
    expect(entry.summary).toBe(
      'Notification choices: transaction updates in app off, by e-mail off, account changes by e-mail off, in app off',
    );
    expect(entry.actor.id).toBe(customer.user.id);

    // A restart: a new app on the same database.
    await t.app.close();
    t.app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: t.dataDir, PUBLIC_URL: 'http://wallet.test' }), {
      database: t.database,
      clientDir: path.join(t.dataDir, 'no-client'),
    });
    expect((await prefs()).json()).toEqual(ALL_OFF);
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, [notificationsProjection]);
    expect((await prefs()).json()).toEqual(ALL_OFF);
  });

  it('turned-off kinds are neither mailed nor shown, also after a replay; security notices still are', async () => {
    await staffPost('update-all-user-permissions', {
      targetUserId: customer.user.id,
      permissions: { can_send: false, can_swap: true, can_buy: true, can_sell: true, can_stake: true },
    });
    const staff = { actor: { id: admin.user.id, role: 'ADMIN' } };
    await t.app.ledger.execute(walletDecider, customer.user.id, recorded('3', 'Complete', 'ETH'), staff);
    const depositId = randomUUID();
    await t.app.ledger.execute(
      walletDecider,
      customer.user.id,
      { ...recorded('2', 'Pending', 'BTC', depositId), txType: 'deposit' } as WalletCommand,
      staff,
    );
    await t.app.ledger.execute(
      walletDecider,
      customer.user.id,
      { type: 'SettleTransaction', transactionId: depositId, by: { system: 'test' } },
      staff,
    );
    // A security notice: a new deposit address is mailed and shown whatever the choices.
    await staffPost('set-user-wallet-address', {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      newAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    await mailTo(t.outbox, EMAIL, /^Your BTC deposit address has changed$/);
    await new Promise((r) => setTimeout(r, 200));
    expect(await subjects()).not.toContain('Your account permissions have changed');
    const shown = await bell();
    expect(shown).toEqual([
      'A member of our staff set a new BTC deposit address for your account: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq. Send new BTC deposits only to this address.',
    ]);
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, [notificationsProjection]);
    expect(await bell()).toEqual(shown);
  });

  it('turned back on, the same kinds are mailed and shown again', async () => {
    expect(
      (await prefs({ transactionsInApp: true, transactionsEmail: false, accountChangesEmail: true, accountChangesInApp: true })).statusCode,
    ).toBe(200);
    await staffPost('update-all-user-permissions', {
      targetUserId: customer.user.id,
      permissions: { can_send: true, can_swap: true, can_buy: true, can_sell: true, can_stake: true },
    });
    expect((await mailTo(t.outbox, EMAIL, /^Your account permissions have changed$/)).text).toContain('send on, swap on');
    const shown = await bell();
    expect(shown[0]).toBe('A member of our staff changed what your account may do: send on, swap on, buy on, sell on, stake on.');
    expect(shown).toContain('You received 3.00 ETH');
    // The deposit settled while transaction updates were off stays left out; a new one shows.
    expect(shown).not.toContain('Your deposit of 2.00 BTC has been completed.');
    const depositId = randomUUID();
    const staff = { actor: { id: admin.user.id, role: 'ADMIN' } };
    await t.app.ledger.execute(
      walletDecider,
      customer.user.id,
      { ...recorded('4', 'Pending', 'BTC', depositId), txType: 'deposit' } as WalletCommand,
      staff,
    );
    await t.app.ledger.execute(
      walletDecider,
      customer.user.id,
      { type: 'SettleTransaction', transactionId: depositId, by: { system: 'test' } },
      staff,
    );
    expect(await bell()).toContain('Your deposit of 4.00 BTC has been completed.');
  });
});
