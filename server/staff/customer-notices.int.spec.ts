import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  BELOW_FOUR_EYES_LIMIT,
  createTestApp,
  bearer,
  mailTo,
  registeredCustomer,
  signIn,
  type TestApp,
} from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';
import { replayProjections } from '../../projections/replay.js';
import { notificationsProjection } from '../../projections/notifications.js';

describe('the customer is told of staff actions on their account, and their statement reconciles', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const post = async (path: string, token: string, payload: Record<string, unknown>) => {
    const res = await inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json();
  };
  let admin: Awaited<ReturnType<typeof signIn>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  const EMAIL = 'told@example.com';
  const notifications = async (userId: string) =>
    (
      await t.database.db
        .selectFrom('notifications')
        .select(['id', 'message'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .execute()
    ).map((n) => n.message);
  // The staff notices; the customer's own password change also gets its security mail (server/auth), not counted here.
  const mailsTo = async (email: string) =>
    (await t.outbox.list({ to: email })).filter((m) => !/Confirm|Welcome|Your password was changed|New sign-in/.test(m.subject));

  beforeAll(async () => {
    t = await createTestApp(BELOW_FOUR_EYES_LIMIT);
    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'notice-admin@example.com',
      fullName: 'Ada Admin',
      role: 'ADMIN',
    });
    const first = await signIn(t, 'notice-admin@example.com', password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    admin = await signIn(t, 'notice-admin@example.com', 'staff-own-pass-1');
    customer = await registeredCustomer(t, EMAIL, 'told-pass-123', 'Tess Told');
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  it('a staff password reset mails and notifies the customer, without the password', async () => {
    await post('reset-user-password', admin.access_token, { targetUserId: customer.user.id, newPassword: 'TopSecret-991' });
    const mail = await mailTo(t.outbox, EMAIL, /^Your password was reset$/);
    expect(mail.text).toContain('Hi Tess Told,');
    expect(mail.text).toContain('A member of our staff reset your password.');
    expect(`${mail.text}${mail.html}`).not.toContain('TopSecret-991');
    expect((await notifications(customer.user.id))[0]).toBe(
      'A member of our staff reset your password. You will be asked to choose a new one when you next sign in. If you did not ask for this, contact support.',
    );
  });

  it('a ban and an unban each mail and notify the customer', async () => {
    await post('ban-user', admin.access_token, { targetUserId: customer.user.id });
    expect((await mailTo(t.outbox, EMAIL, /^Your account has been suspended$/)).text).toContain(
      'A member of our staff suspended your account.',
    );
    await post('unban-user', admin.access_token, { targetUserId: customer.user.id });
    expect((await mailTo(t.outbox, EMAIL, /^Your account is active again$/)).text).toContain('lifted the suspension');
    expect((await notifications(customer.user.id)).slice(0, 2)).toEqual([
      'A member of our staff lifted the suspension of your account. You can sign in again.',
      'A member of our staff suspended your account. Contact support if you think this is a mistake.',
    ]);
  });

  it('a change of permissions or of a deposit address mails and notifies the customer', async () => {
    await post('update-all-user-permissions', admin.access_token, {
      targetUserId: customer.user.id,
      permissions: { can_send: false, can_swap: true, can_buy: true, can_sell: true, can_stake: false },
    });
    expect((await mailTo(t.outbox, EMAIL, /^Your account permissions have changed$/)).text).toContain(
      'send off, swap on, buy on, sell on, stake off',
    );
    await post('set-user-wallet-address', admin.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      newAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    expect((await mailTo(t.outbox, EMAIL, /^Your BTC deposit address has changed$/)).text).toContain(
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    );
    expect((await notifications(customer.user.id)).slice(0, 2)).toEqual([
      'A member of our staff set a new BTC deposit address for your account: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq. Send new BTC deposits only to this address.',
      'A member of our staff changed what your account may do: send off, swap on, buy on, sell on, stake off.',
    ]);
    // The customer sees them in the bell after signing in.
    const session = await signIn(t, EMAIL, 'TopSecret-991');
    expect(
      (
        await inject({
          method: 'PUT',
          url: '/auth/v1/user',
          headers: bearer(session.access_token),
          payload: { password: 'told-own-pass-2' },
        })
      ).statusCode,
    ).toBe(200);
    const own = await signIn(t, EMAIL, 'told-own-pass-2');
    const bell = (await inject({ method: 'GET', url: '/api/v1/notifications', headers: bearer(own.access_token) })).json();
    expect(bell.notifications.map((n: { message: string }) => n.message)).toContain(
      'A member of our staff suspended your account. Contact support if you think this is a mistake.',
    );
    customer = own as typeof customer;
  });

  it("the customer's own acts are no notice", async () => {
    const before = (await mailsTo(EMAIL)).length;
    await post('log-login-details', customer.access_token, {});
    expect((await mailsTo(EMAIL)).length).toBe(before);
  });

  it('a replay of the read models sends no mail again and gives the same notifications', async () => {
    const mails = (await mailsTo(EMAIL)).length;
    expect(mails).toBe(5);
    const before = await notifications(customer.user.id);
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, [notificationsProjection]);
    await new Promise((r) => setTimeout(r, 200));
    expect((await mailsTo(EMAIL)).length).toBe(mails);
    expect(await notifications(customer.user.id)).toEqual(before);
  });

  it('the downloaded statement shows a hidden adjustment as "Balance adjustment" and reconciles with the balance; the in-app list still hides it', async () => {
    const sentAt = new Date().toISOString();
    await post('add-transaction', admin.access_token, {
      targetUserId: customer.user.id,
      assetId: 'ETH',
      amount: '0.4',
      status: 'Complete',
      sentAt,
      senderAddress: 'staff',
      note: 'Goodwill',
      isHidden: true,
    });
    await post('add-transaction', admin.access_token, {
      targetUserId: customer.user.id,
      assetId: 'ETH',
      amount: '0.1',
      status: 'Complete',
      sentAt,
      senderAddress: 'staff',
      note: 'Visible credit',
    });
    const h = bearer(customer.access_token);
    const listed = (await inject({ method: 'GET', url: '/api/v1/transactions', headers: h })).json();
    expect(listed.transactions.map((x: { amount: string }) => x.amount)).toEqual(['0.1']);
    const balance = (
      await inject({
        method: 'POST',
        url: '/functions/v1/get-user-profile-details',
        headers: h,
        payload: { targetUserId: customer.user.id },
      })
    ).json();
    const today = new Date().toISOString().slice(0, 10);
    const csv = (await inject({ method: 'GET', url: `/api/v1/statement?from=${today}&to=${today}`, headers: h })).body;
    const rows = csv
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    // section, booking_date, value_date, asset, transaction_id, type, description, reference, counterparty, amount, balance
    const eth = rows.filter((r) => r[3] === 'ETH').map((r) => [r[0], r[5], r[6], r[9], r[10]]);
    expect(eth).toEqual([
      ['opening', '', 'Opening balance', '', '0'],
      ['booked', 'adjustment', 'Balance adjustment', '0.4', '0.4'],
      ['booked', 'deposit', 'Deposit recorded', '0.1', '0.5'],
      ['closing', '', 'Closing balance', '', '0.5'],
      ['available', '', 'Available balance', '', '0.5'],
    ]);
    expect(csv).not.toContain('Goodwill');
    expect(rows.find((r) => r[6] === 'Balance adjustment')![4]).toBe('');
    expect(balance.balances.ETH).toBe('0.5');
  });
});
