import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { BELOW_FOUR_EYES_LIMIT, createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';

describe('staff account actions: ban and unban', () => {
  let t: TestApp;
  const staffSession = async (role: 'WORKER' | 'MANAGER' | 'ADMIN', email: string) => {
    const { password } = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} One`, role });
    const first = await signIn(t, email, password);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'staff-own-pass-1' },
    });
    return signIn(t, email, 'staff-own-pass-1');
  };
  beforeAll(async () => {
    t = await createTestApp(BELOW_FOUR_EYES_LIMIT);
  });
  afterAll(async () => {
    await t.close();
  });
  const inject = (opts: InjectOptions) => t.app.inject(opts);

  it('an admin bans a customer: sessions end at once, sign-in is refused, the event names the admin; unban lets them back', async () => {
    const admin = await staffSession('ADMIN', 'admin@example.com');
    const customer = await registeredCustomer(t, 'victim@example.com', 'victim-pass-1');
    const ban = await inject({
      method: 'POST',
      url: '/functions/v1/ban-user',
      headers: bearer(admin.access_token),
      payload: { targetUserId: customer.user.id },
    });
    expect(ban.statusCode).toBe(200);
    expect(new Date(ban.json().banned_until).getUTCFullYear()).toBeGreaterThan(new Date().getUTCFullYear() + 50);
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(customer.access_token) })).statusCode).toBe(401);
    await expect(signIn(t, 'victim@example.com', 'victim-pass-1')).rejects.toThrow(/user_banned/);
    const [event] = (await t.app.ledger.store.readStream(`user-${customer.user.id}`)).filter((e) => e.type === 'user.banned');
    expect(event!.metadata).toMatchObject({ actorId: admin.user.id, actorRole: 'ADMIN' });

    expect(
      (
        await inject({
          method: 'POST',
          url: '/functions/v1/unban-user',
          headers: bearer(admin.access_token),
          payload: { targetUserId: customer.user.id },
        })
      ).statusCode,
    ).toBe(200);
    await signIn(t, 'victim@example.com', 'victim-pass-1');
  });

  it('a customer, and staff without access to the user, are refused with the spec texts and nothing changes', async () => {
    const customer = await registeredCustomer(t, 'someone@example.com', 'someone-pass-1');
    const other = await registeredCustomer(t, 'other@example.com', 'other-pass-12');
    const asCustomer = await inject({
      method: 'POST',
      url: '/functions/v1/ban-user',
      headers: bearer(customer.access_token),
      payload: { targetUserId: other.user.id },
    });
    expect([asCustomer.statusCode, asCustomer.json()]).toEqual([403, { error: 'Access Denied: Your role cannot view user profiles.' }]);
    const worker = await staffSession('WORKER', 'worker@example.com');
    const asWorker = await inject({
      method: 'POST',
      url: '/functions/v1/ban-user',
      headers: bearer(worker.access_token),
      payload: { targetUserId: other.user.id },
    });
    expect([asWorker.statusCode, asWorker.json()]).toEqual([
      403,
      { error: 'Access Denied: You do not have permission to view this profile.' },
    ]);
    const row = await t.database.db.selectFrom('users').select('banned_until').where('id', '=', other.user.id).executeTakeFirstOrThrow();
    expect(row.banned_until).toBeNull();
    expect((await inject({ method: 'POST', url: '/functions/v1/ban-user', payload: { targetUserId: other.user.id } })).statusCode).toBe(
      401,
    );
  });

  it('an admin reaches staff accounts but cannot ban them, nor themself: ban and unban are for customers', async () => {
    const admin = await staffSession('ADMIN', 'admin-two@example.com');
    const manager = await staffSession('MANAGER', 'manager-two@example.com');
    for (const target of [manager.user.id, admin.user.id]) {
      for (const url of ['/functions/v1/ban-user', '/functions/v1/unban-user']) {
        const res = await inject({ method: 'POST', url, headers: bearer(admin.access_token), payload: { targetUserId: target } });
        expect([url, res.statusCode, res.json()]).toEqual([
          url,
          403,
          { error: 'Access Denied: This action applies to customer accounts only.' },
        ]);
      }
    }
    const rows = await t.database.db
      .selectFrom('users')
      .select('banned_until')
      .where('id', 'in', [manager.user.id, admin.user.id])
      .execute();
    expect(rows.map((r) => r.banned_until)).toEqual([null, null]);
    // Both can still sign in and act.
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(manager.access_token) })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(admin.access_token) })).statusCode).toBe(200);
  });

  it('staff cannot fund a staff wallet: no card deposit for themselves, no settling or buying links on staff accounts', async () => {
    const admin = await staffSession('ADMIN', 'admin-three@example.com');
    const manager = await staffSession('MANAGER', 'manager-three@example.com');
    const card = await inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: bearer(admin.access_token),
      payload: { type: 'credit_card', cardNumber: '4000056655665556', cardHolderName: 'Admin Three', expiryDate: '10/41', cvv: '999' },
    });
    expect(card.statusCode, card.body).toBe(200);
    const cardId = (
      await t.database.db.selectFrom('user_payment_methods_raw').select('id').where('user_id', '=', admin.user.id).executeTakeFirstOrThrow()
    ).id;
    for (const url of ['/functions/v1/create-deposit-request', '/functions/v1/create-withdrawal-request']) {
      const res = await inject({
        method: 'POST',
        url,
        headers: bearer(admin.access_token),
        payload: { tokenId: 'BTC', amount: '10', paymentMethodId: cardId, userId: admin.user.id },
      });
      expect([url, res.statusCode, res.json()]).toEqual([url, 403, { error: 'Only customers make deposit and withdrawal requests.' }]);
    }
    const customerOnly = { error: 'Access Denied: This action applies to customer accounts only.' };
    for (const target of [admin.user.id, manager.user.id]) {
      const settle = await inject({
        method: 'POST',
        url: '/functions/v1/update-transaction',
        headers: bearer(admin.access_token),
        payload: { targetUserId: target, transactionId: crypto.randomUUID(), status: 'Complete' },
      });
      expect([settle.statusCode, settle.json()]).toEqual([403, customerOnly]);
      const link = await inject({
        method: 'POST',
        url: '/api/v1/buying-links',
        headers: bearer(admin.access_token),
        payload: { userId: target, url: 'https://buy.example.com', name: 'Buy here' },
      });
      expect([link.statusCode, link.json()]).toEqual([403, customerOnly]);
      const unlink = await inject({
        method: 'DELETE',
        url: `/api/v1/buying-links/${crypto.randomUUID()}?userId=${target}`,
        headers: bearer(admin.access_token),
      });
      expect([unlink.statusCode, unlink.json()]).toEqual([403, customerOnly]);
    }
    expect(
      await t.database.db.selectFrom('transactions').select('id').where('user_id', 'in', [admin.user.id, manager.user.id]).execute(),
    ).toEqual([]);
  });
});

describe('staff: update a transaction', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(BELOW_FOUR_EYES_LIMIT);
  });
  afterAll(async () => {
    await t.close();
  });

  it('an admin settles a pending deposit; the money and the audit trail follow; final statuses stay final', async () => {
    const { password } = await createStaff(t.app.authServices.accounts, { email: 'boss@example.com', fullName: 'Boss', role: 'ADMIN' });
    const first = await signIn(t, 'boss@example.com', password);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'boss-own-pass-1' },
    });
    const admin = await signIn(t, 'boss@example.com', 'boss-own-pass-1');
    const c = await registeredCustomer(t, 'payer@example.com', 'payer-pass-1');
    const card = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: bearer(c.access_token),
        payload: { type: 'credit_card', cardNumber: '4000056655665556', cardHolderName: 'P', expiryDate: '10/41', cvv: '999' },
      })
    ).json().paymentMethod.id;
    const dep = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/create-deposit-request',
        headers: bearer(c.access_token),
        payload: { tokenId: 'SOL', amount: '10', paymentMethodId: card, userId: c.user.id },
      })
    ).json();
    const update = (body: Record<string, unknown>, token = admin.access_token) =>
      t.app.inject({
        method: 'POST',
        url: '/functions/v1/update-transaction',
        headers: bearer(token),
        payload: { targetUserId: c.user.id, transactionId: dep.transactionId, ...body },
      });

    expect((await update({ status: 'Complete' }, c.access_token)).statusCode).toBe(403);
    // Spec 002: the editable types are deposit, withdrawal, adjustment, swap or unselected; a refused edit records nothing.
    for (const type of ['send', 'stake', '']) {
      const refused = await update({ type, status: 'Complete' });
      expect([refused.statusCode, refused.json().error]).toEqual([400, expect.stringMatching(/^type: /)]);
    }
    const settled = await update({ status: 'Complete', note: 'card payment received' });
    expect(settled.json()).toMatchObject({ success: true, transaction: { status: 'Complete', note: 'card payment received' } });
    const profile = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/get-user-profile-details',
        headers: bearer(c.access_token),
        payload: { targetUserId: c.user.id },
      })
    ).json();
    expect([profile.balances.SOL, profile.pendingDeposits.SOL]).toEqual(['9.9', '0']);
    const events = await t.app.ledger.store.readStream(`wallet-${c.user.id}`);
    expect(events.map((e) => [e.type, e.metadata.actorRole])).toEqual([
      ['wallet.deposit-requested', 'USER'],
      ['wallet.transaction-edited', 'ADMIN'],
      ['wallet.transaction-settled', 'ADMIN'],
    ]);
    const back = await update({ status: 'Failed' });
    expect([back.statusCode, back.json().error]).toEqual([
      409,
      'A Complete transaction cannot change status; record a correcting transaction instead.',
    ]);
    expect((await update({ transactionId: '00000000-0000-4000-8000-000000000000', status: 'Complete' })).statusCode).toBe(404);
  });
});
