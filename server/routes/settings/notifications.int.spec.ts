import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, registeredCustomer, type TestApp } from '../../../tests/support/test-app.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import type { WalletCommand } from '../../../ledger/wallet/wallet.js';
import { PayoutScheduler, payoutTransactionId } from '../../marketplace/payout-scheduler.js';
import { recorded } from '../../../ledger/wallet/wallet.arbitraries.js';

describe('notifications', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const staff = { actor: { id: 'staff', role: 'ADMIN' } };
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("a settled deposit and a failed withdrawal notify; a credit without one shows as received; marks are the owner's", async () => {
    const c = await registeredCustomer(t, 'bell@example.com', 'bell-pass-12');
    const other = await registeredCustomer(t, 'other-bell@example.com', 'other-pass-1');
    const h = bearer(c.access_token);
    const cardId = (
      await inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: h,
        payload: { type: 'credit_card', cardNumber: '5555555555554444', cardHolderName: 'B', expiryDate: '01/40', cvv: '321' },
      })
    ).json().paymentMethod.id;
    const dep = (
      await inject({
        method: 'POST',
        url: '/functions/v1/create-deposit-request',
        headers: h,
        payload: { tokenId: 'BTC', amount: '1', paymentMethodId: cardId, userId: c.user.id },
      })
    ).json();
    await t.app.ledger.execute(
      walletDecider,
      c.user.id,
      { type: 'SettleTransaction', transactionId: dep.transactionId, by: { system: 'test' } },
      staff,
    );
    await t.app.ledger.execute(walletDecider, c.user.id, recorded('5', 'Complete', 'ETH'), staff);
    const wd = (
      await inject({
        method: 'POST',
        url: '/functions/v1/create-withdrawal-request',
        headers: h,
        payload: { tokenId: 'ETH', amount: '2', paymentMethodId: cardId, userId: c.user.id },
      })
    ).json();
    await t.app.ledger.execute(walletDecider, c.user.id, { type: 'FailTransaction', transactionId: wd.transactionId, reason: null }, staff);

    const list = (await inject({ method: 'GET', url: '/api/v1/notifications', headers: h })).json();
    const messages = list.notifications.map((n: { message: string; read: boolean }) => [n.message, n.read]);
    expect(messages).toEqual([
      ['Your withdrawal of 2.02 ETH has failed.', false],
      ['You received 5.00 ETH', true],
      ['Your deposit of 0.99 BTC has been completed.', false],
    ]);
    expect(list.unread).toBe(2);

    const failedId = list.notifications[0].id;
    expect(
      (await inject({ method: 'POST', url: `/api/v1/notifications/${failedId}/read`, headers: bearer(other.access_token) })).statusCode,
    ).toBe(404);
    expect((await inject({ method: 'POST', url: `/api/v1/notifications/${failedId}/read`, headers: h })).json()).toEqual({ success: true });
    expect((await inject({ method: 'GET', url: '/api/v1/notifications', headers: h })).json().unread).toBe(1);
    await inject({ method: 'POST', url: '/api/v1/notifications/read-all', headers: h });
    expect((await inject({ method: 'GET', url: '/api/v1/notifications', headers: h })).json().unread).toBe(0);
    expect(
      (await inject({ method: 'GET', url: '/api/v1/notifications', headers: bearer(other.access_token) })).json().notifications,
    ).toEqual([]);
    const marks = (await t.app.ledger.store.readStream(`notifications-${c.user.id}`)).map((e) => [e.type, e.metadata.actorId]);
    expect(marks).toEqual([
      ['notification.marked-read', c.user.id],
      ['notification.all-marked-read', c.user.id],
    ]);
  });

  it('a credit named by a notification older than the ten shown still does not show as received', async () => {
    const c = await registeredCustomer(t, 'bell-many@example.com', 'bell-many-pass-1');
    for (let i = 1; i <= 11; i++) {
      const transactionId = randomUUID();
      await t.app.ledger.execute(
        walletDecider,
        c.user.id,
        { ...recorded(String(i), 'Pending', 'BTC', transactionId), txType: 'deposit' } as WalletCommand,
        staff,
      );
      await t.app.ledger.execute(walletDecider, c.user.id, { type: 'SettleTransaction', transactionId, by: { system: 'test' } }, staff);
    }
    const list = (await inject({ method: 'GET', url: '/api/v1/notifications', headers: bearer(c.access_token) })).json();
    // Eleven credits of the last week, each named by its settlement; only the newest ten settlements are stored items.
    expect(list.notifications.map((n: { message: string }) => n.message)).toEqual(
      Array.from({ length: 10 }, (_, k) => `Your deposit of ${11 - k}.00 BTC has been completed.`),
    );
    expect(list.unread).toBe(10);
  });

  it('a stake payout shows in the bell as money received, once, naming the payout', async () => {
    const c = await registeredCustomer(t, 'bell-stake@example.com', 'bell-stake-pass-1');
    const h = bearer(c.access_token);
    await t.app.ledger.execute(walletDecider, c.user.id, recorded('1', 'Complete', 'BTC'), staff);
    const staked = await inject({
      method: 'POST',
      url: '/functions/v1/create-stake-transaction',
      headers: h,
      payload: { assetId: 'BTC', amount: '0.5', durationDays: 7, rate: 2.7 },
    });
    expect(staked.statusCode).toBe(200);
    const [stake] = (await inject({ method: 'GET', url: '/api/v1/scheduled-transactions', headers: h })).json().scheduledTransactions;
    const messages = async () =>
      (await inject({ method: 'GET', url: '/api/v1/notifications', headers: h }))
        .json()
        .notifications.map((n: { message: string; read: boolean; transaction_id: string }) => [n.message, n.read, n.transaction_id]);
    const before = await messages();
    expect(before.map(([m]: [string]) => m)).toEqual(['You received 1.00 BTC']);

    const scheduler = new PayoutScheduler(t.app.ledger, { now: () => new Date(Date.parse(stake.scheduled_at) + 1000) });
    expect(await scheduler.runDue()).toBe(1);
    await scheduler.stop();
    // 0.5 back with 0.5 × 2.7% × 7/365 earned: the spec's received item, read, naming the payout.
    expect(await messages()).toEqual([['You received 0.5002589 BTC', true, payoutTransactionId(stake.id)], ...before]);
  });
});
