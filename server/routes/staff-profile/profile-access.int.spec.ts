import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp } from '../../../tests/support/test-app.js';
import { openProfileSuite, profileCalls, type CustomerSession, type StaffSession } from '../../../tests/support/staff-profile-suite.js';

/** The staff user profile: who may act on a customer's profile (a worker only on the customers they claimed, a customer on none). */
describe('staff user profile: General, Wallets, Transactions and payment methods', () => {
  let t: TestApp;
  const { inject, post, details } = profileCalls(() => t);
  let worker: StaffSession;
  let customer: CustomerSession;
  let stranger: CustomerSession;

  beforeAll(async () => {
    ({ t, worker, customer, stranger } = await openProfileSuite());
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  it('every action is refused for a customer the worker does not own, and for a customer, with the spec texts', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['set-dashboard-note', { userId: stranger.user.id, noteContent: 'x' }],
      ['reset-user-password', { targetUserId: stranger.user.id, newPassword: 'abcdefgh' }],
      [
        'update-all-user-permissions',
        {
          targetUserId: stranger.user.id,
          permissions: { can_send: false, can_swap: true, can_buy: true, can_sell: true, can_stake: true },
        },
      ],
      [
        'set-user-wallet-address',
        { targetUserId: stranger.user.id, assetId: 'BTC', newAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      ],
      [
        'add-transaction',
        {
          targetUserId: stranger.user.id,
          assetId: 'BTC',
          amount: 1,
          status: 'Complete',
          senderAddress: 'x',
          sentAt: new Date().toISOString(),
        },
      ],
    ];
    for (const [path, body] of calls) {
      const asWorker = await post(path, worker.access_token, body);
      expect([path, asWorker.statusCode, asWorker.json()]).toEqual([
        path,
        403,
        { error: 'Access Denied: You do not have permission to view this profile.' },
      ]);
      const asCustomer = await post(path, customer.access_token, body);
      expect([path, asCustomer.statusCode, asCustomer.json()]).toEqual([
        path,
        403,
        { error: 'Access Denied: Your role cannot view user profiles.' },
      ]);
    }
    const history = await inject({
      method: 'GET',
      url: `/functions/v1/get-login-history?targetUserId=${stranger.user.id}`,
      headers: bearer(worker.access_token),
    });
    expect(history.statusCode).toBe(403);
    const methods = await inject({
      method: 'GET',
      url: `/api/v1/users/${stranger.user.id}/payment-methods`,
      headers: bearer(worker.access_token),
    });
    expect(methods.statusCode).toBe(403);
    const txs = await inject({
      method: 'GET',
      url: `/api/v1/users/${stranger.user.id}/transactions`,
      headers: bearer(worker.access_token),
    });
    expect(txs.statusCode).toBe(403);
    const d = await details(stranger.access_token, stranger.user.id);
    expect([d.dashboard_note, d.can_send, d.addresses, d.balances.BTC]).toEqual([null, true, {}, '0']);
  });
});
