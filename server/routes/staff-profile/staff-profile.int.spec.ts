import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { Decimal } from 'decimal.js';
import {
  BELOW_FOUR_EYES_LIMIT,
  createTestApp,
  bearer,
  registeredCustomer,
  signIn,
  solveCaptcha,
  type TestApp,
} from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';

describe('staff user profile: General, Wallets, Transactions and payment methods', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const staffSession = async (role: 'WORKER' | 'MANAGER' | 'ADMIN', email: string, fullName: string) => {
    const { password, userId } = await createStaff(t.app.authServices.accounts, { email, fullName, role });
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return { ...(await signIn(t, email, 'staff-own-pass-1')), userId };
  };
  const post = (path: string, token: string, payload: Record<string, unknown>) =>
    inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
  const details = async (token: string, userId: string) => (await post('get-user-profile-details', token, { targetUserId: userId })).json();

  let worker: Awaited<ReturnType<typeof staffSession>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let stranger: Awaited<ReturnType<typeof registeredCustomer>>;

  beforeAll(async () => {
    t = await createTestApp(BELOW_FOUR_EYES_LIMIT);
    worker = await staffSession('WORKER', 'wes@example.com', 'Wes Worker');
    customer = await registeredCustomer(t, 'dana@example.com', 'dana-pass-12');
    stranger = await registeredCustomer(t, 'stranger@example.com', 'stranger-pass-1');
    await t.app.authServices.accounts.record(
      customer.user.id,
      { type: 'Claim', workerId: worker.userId },
      { id: worker.userId, role: 'WORKER' },
    );
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

  it('wallet address: the spec message for an empty one, a shape check, and the saved address', async () => {
    const empty = await post('set-user-wallet-address', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      newAddress: '   ',
    });
    expect([empty.statusCode, empty.json()]).toEqual([400, { error: 'Missing required information or address is empty.' }]);
    const wrong = await post('set-user-wallet-address', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      newAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    expect(wrong.statusCode).toBe(400);
    const ok = await post('set-user-wallet-address', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      newAddress: ' bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq ',
    });
    expect(ok.json()).toMatchObject({ message: 'Address updated successfully!' });
    expect((await details(customer.access_token, customer.user.id)).addresses).toEqual({
      BTC: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
  });

  it('add-transaction: required fields, a Pending deposit counts as pending, settling it credits the balance; the events name the worker', async () => {
    const missing = await post('add-transaction', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      amount: 0.5,
      status: 'Pending',
      sentAt: new Date().toISOString(),
      senderAddress: '',
    });
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: 'Please fill in all required fields (*).' }]);
    const zero = await post('add-transaction', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      amount: 0,
      status: 'Pending',
      sentAt: new Date().toISOString(),
      senderAddress: 'bc1qsender',
    });
    expect([zero.statusCode, zero.json()]).toEqual([400, { error: 'Please fill in all required fields (*).' }]);
    for (const amount of [-1, '1e3', 'abc', '0.0']) {
      const bad = await post('add-transaction', worker.access_token, {
        targetUserId: customer.user.id,
        assetId: 'BTC',
        amount,
        status: 'Pending',
        sentAt: new Date().toISOString(),
        senderAddress: 'bc1qsender',
      });
      expect([amount, bad.statusCode, bad.json()]).toEqual([amount, 400, { error: 'Please fill in all required fields (*).' }]);
    }
    // A date outside the ledger's era (years the event schema or PostgreSQL refuse, before 1970,
    // more than a day ahead) is the same refusal, and nothing is recorded.
    const ahead = new Date(Date.now() + 2 * 86_400_000).toISOString();
    for (const sentAt of [
      '10000-01-01',
      '+275760-09-13T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      ahead,
      'yesterday',
    ]) {
      const bad = await post('add-transaction', worker.access_token, {
        targetUserId: customer.user.id,
        assetId: 'BTC',
        amount: '1',
        status: 'Pending',
        sentAt,
        senderAddress: 'bc1qsender',
      });
      expect([sentAt, bad.statusCode, bad.json()]).toEqual([sentAt, 400, { error: 'Please fill in all required fields (*).' }]);
    }
    const added = await post('add-transaction', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      amount: 0.5,
      status: 'Pending',
      sentAt: '2026-01-02T10:00:00.000Z',
      senderAddress: 'bc1qsender',
      txid: '',
      note: 'Wire received from bank',
      isHidden: false,
    });
    expect(added.json()).toMatchObject({ message: 'Transaction added successfully!' });
    let d = await details(customer.access_token, customer.user.id);
    expect([d.balances.BTC, d.pendingDeposits.BTC]).toEqual(['0', '0.5']);

    const list = (
      await inject({ method: 'GET', url: `/api/v1/users/${customer.user.id}/transactions`, headers: bearer(worker.access_token) })
    ).json().transactions;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      asset_id: 'BTC',
      amount: '0.5',
      status: 'Pending',
      type: 'deposit',
      note: 'Wire received from bank',
      txid: null,
      sender_address: 'bc1qsender',
    });

    const settle = await post('update-transaction', worker.access_token, {
      targetUserId: customer.user.id,
      transactionId: list[0].id,
      status: 'Complete',
    });
    expect(settle.json()).toMatchObject({ success: true, transaction: { status: 'Complete' } });
    d = await details(customer.access_token, customer.user.id);
    expect([d.balances.BTC, d.pendingDeposits.BTC]).toEqual(['0.5', '0']);
    const notes = (await inject({ method: 'GET', url: '/api/v1/notifications', headers: bearer(customer.access_token) })).json();
    expect(JSON.stringify(notes)).toContain('Your deposit of 0.5 BTC has been completed.');

    // A final status stays final, and the refused save records nothing (not even its note).
    const refused = await post('update-transaction', worker.access_token, {
      targetUserId: customer.user.id,
      transactionId: list[0].id,
      status: 'Failed',
      note: 'reversed',
    });
    expect(refused.statusCode).toBe(409);
    const after = (
      await inject({ method: 'GET', url: `/api/v1/users/${customer.user.id}/transactions`, headers: bearer(worker.access_token) })
    ).json().transactions[0];
    expect([after.status, after.note]).toEqual(['Complete', 'Wire received from bank']);

    const events = await t.app.ledger.store.readStream(`wallet-${customer.user.id}`);
    expect(events.map((e) => [e.type, e.metadata.actorId])).toEqual([
      ['wallet.transaction-recorded', worker.userId],
      ['wallet.transaction-settled', worker.userId],
    ]);
    expect(events[0]!.data).toMatchObject({ note: 'Wire received from bank', reason: 'Wire received from bank' });
  });

  it('a swap leg status change applies to both legs in one append; hidden rows cannot be edited', async () => {
    const id = customer.user.id;
    const actor = { actor: { id: worker.userId, role: 'WORKER' } };
    await t.app.ledger.execute(
      walletDecider,
      id,
      {
        type: 'RecordTransaction',
        transactionId: randomUUID(),
        assetId: 'ETH',
        sentAt: new Date().toISOString(),
        amount: new Decimal(2),
        status: 'Complete',
        txType: 'deposit',
        note: null,
        senderAddress: 'x',
        txid: null,
        isHidden: false,
        reason: null,
      },
      actor,
    );
    const requestId = randomUUID();
    const from = randomUUID();
    await t.app.ledger.execute(
      walletDecider,
      id,
      {
        type: 'RequestSwap',
        requestId,
        fromTransactionId: from,
        toTransactionId: randomUUID(),
        fromAssetId: 'ETH',
        toAssetId: 'SOL',
        fromAmount: new Decimal(1),
        fromPrice: new Decimal(3000),
        toPrice: new Decimal(150),
        sentAt: new Date().toISOString(),
      },
      { actor: { id, role: 'USER' } },
    );
    const before = await t.app.ledger.store.readStream(`wallet-${id}`);
    const res = await post('update-transaction', worker.access_token, { targetUserId: id, transactionId: from, status: 'Complete' });
    expect(res.statusCode).toBe(200);
    const after = (await t.app.ledger.store.readStream(`wallet-${id}`)).slice(before.length);
    expect(after.map((e) => e.type)).toEqual(['wallet.transaction-settled', 'wallet.transaction-settled']);
    expect(
      after[0]!.position.commit === after[1]!.position.commit || after[0]!.metadata.correlationId === after[1]!.metadata.correlationId,
    ).toBe(true);
    const rows = (await inject({ method: 'GET', url: `/api/v1/users/${id}/transactions`, headers: bearer(worker.access_token) }))
      .json()
      .transactions.filter((r: { request_id: string }) => r.request_id === requestId);
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['Complete', 'Complete']);

    await post('add-transaction', worker.access_token, {
      targetUserId: id,
      assetId: 'LTC',
      amount: '1',
      status: 'Pending',
      sentAt: new Date().toISOString(),
      senderAddress: 'Lx',
      isHidden: true,
    });
    const hidden = (await inject({ method: 'GET', url: `/api/v1/users/${id}/transactions`, headers: bearer(worker.access_token) }))
      .json()
      .transactions.find((r: { asset_id: string }) => r.asset_id === 'LTC');
    expect(hidden.is_hidden).toBe(true);
    const edit = await post('update-transaction', worker.access_token, { targetUserId: id, transactionId: hidden.id, status: 'Complete' });
    expect(edit.statusCode).toBe(409);
  });

  it('payment methods: staff see only brand, last four and expiry; never a number or holder name', async () => {
    await post('add-raw-payment-method', customer.access_token, {
      type: 'credit_card',
      cardNumber: '4000056655665556',
      cardHolderName: 'Dana C',
      expiryDate: '10/41',
      cvv: '999',
    });
    await post('add-raw-payment-method', customer.access_token, {
      type: 'bank_account',
      bank_name: 'First Bank',
      account_number: 'DE89370400440532013000',
    });
    const res = await inject({
      method: 'GET',
      url: `/api/v1/users/${customer.user.id}/payment-methods`,
      headers: bearer(worker.access_token),
    });
    const methods = res.json().paymentMethods;
    expect(methods).toHaveLength(2);
    expect(Object.keys(methods[0]).sort()).toEqual([
      'bank_last4',
      'bank_name',
      'card_brand',
      'created_at',
      'expiry_date',
      'id',
      'last4',
      'type',
      'user_id',
    ]);
    expect(res.body).not.toMatch(/4000056655665556|DE89370400440532013000|Dana C/);
    // The CVV as a value: its three digits can turn up inside a random id or a time.
    expect(methods.flatMap((m: Record<string, unknown>) => Object.values(m))).not.toContain('999');
    const one = await inject({
      method: 'GET',
      url: `/api/v1/users/${customer.user.id}/payment-methods/${methods[0].id}`,
      headers: bearer(worker.access_token),
    });
    expect(one.json().paymentMethod.id).toBe(methods[0].id);
    const missing = await inject({
      method: 'GET',
      url: `/api/v1/users/${customer.user.id}/payment-methods/${randomUUID()}`,
      headers: bearer(worker.access_token),
    });
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Payment method not found.' }]);
  });

  it('login history: 5 per page, newest first', async () => {
    for (let i = 0; i < 6; i++) {
      const s = await signIn(t, 'dana@example.com', 'dana-pass-12');
      await inject({
        method: 'POST',
        url: '/functions/v1/log-login-details',
        headers: { ...bearer(s.access_token), 'user-agent': `Browser ${i}` },
      });
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
    expect(second).toHaveLength(1);
    expect(first[0].user_agent).toBe('Browser 5');
    expect(second[0].user_agent).toBe('Browser 0');
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
    const events = (await t.app.ledger.store.readStream(`user-${customer.user.id}`)).slice(-2);
    expect(events.map((e) => [e.type, e.metadata.actorId])).toEqual([
      ['user.password-change-required', worker.userId],
      ['user.password-changed', worker.userId],
    ]);
    expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.toContain('temp12-reset');
  });
});
