import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BELOW_FOUR_EYES_LIMIT, createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { money } from '../../../ledger/money.js';
import { toNewEvents } from '../../../ledger/command-handler.js';
import { booksDecider, decideBooks } from '../../../ledger/books/periods.js';
import { closedPeriodMessage } from '../../../ledger/wallet/closed-period.js';
import { customerHash, verifyProof } from '../../../ledger/books/merkle.js';
import { NO_PUBLISHED_LIABILITIES } from '../../../ledger/contract/books.js';
import { liabilitiesAt, storeLiabilities } from '../../../scripts/ledger-books.js';

describe('finance: statements and balances at a moment', () => {
  let t: TestApp;
  const staffSession = async (role: 'WORKER' | 'ADMIN', email: string) => {
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
  let admin: Awaited<ReturnType<typeof staffSession>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let depositId: string;
  beforeAll(async () => {
    t = await createTestApp(BELOW_FOUR_EYES_LIMIT);
    admin = await staffSession('ADMIN', 'finance-admin@example.com');
    customer = await registeredCustomer(t, 'saver@example.com', 'saver-pass-12');
    const card = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: bearer(customer.access_token),
        payload: { type: 'credit_card', cardNumber: '4000056655665556', cardHolderName: 'S', expiryDate: '10/41', cvv: '999' },
      })
    ).json().paymentMethod.id;
    const dep = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/create-deposit-request',
        headers: bearer(customer.access_token),
        payload: { tokenId: 'SOL', amount: '10', paymentMethodId: card, userId: customer.user.id },
      })
    ).json();
    depositId = dep.transactionId;
    const settled = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/update-transaction',
      headers: bearer(admin.access_token),
      payload: { targetUserId: customer.user.id, transactionId: depositId, status: 'Complete' },
    });
    expect(settled.statusCode).toBe(200);
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  it('a customer downloads their own statement as CSV: opening, the settled deposit gross with its fee line, closing, available', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/statement?from=${today}&to=${today}`,
      headers: bearer(customer.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-${today}-to-${today}.csv"`);
    const rows = res.body
      .trim()
      .split('\r\n')
      .map((r) => r.split(','));
    expect(rows[0]).toEqual([
      'section',
      'booking_date',
      'value_date',
      'asset',
      'transaction_id',
      'type',
      'description',
      'reference',
      'counterparty',
      'amount',
      'balance',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[3], r[4], r[5], r[6], r[9], r[10]])).toEqual([
      ['opening', 'SOL', '', '', 'Opening balance', '', '0'],
      ['booked', 'SOL', depositId, 'deposit', 'Deposit settled', '10', '10'],
      ['booked', 'SOL', depositId, 'fee', 'Fee: Deposit', '-0.1', '9.9'],
      ['closing', 'SOL', '', '', 'Closing balance', '', '9.9'],
      ['available', 'SOL', '', '', 'Available balance', '', '9.9'],
    ]);
  });

  it("the statement's closing balances equal the API's balances and its pending lines the API's pending amounts, in CSV and JSON", async () => {
    const card = (await t.app.inject({ method: 'GET', url: '/api/v1/payment-methods', headers: bearer(customer.access_token) })).json();
    const cardId = (Array.isArray(card) ? card : card.paymentMethods)[0].id;
    const pendingDeposit = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/create-deposit-request',
      headers: bearer(customer.access_token),
      payload: { tokenId: 'BTC', amount: '0.5', paymentMethodId: cardId, userId: customer.user.id },
    });
    expect(pendingDeposit.statusCode).toBe(200);
    const send = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/create-pending-withdrawal',
      headers: bearer(customer.access_token),
      payload: { assetId: 'SOL', amount: '2.5', recipientAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
    });
    expect(send.statusCode).toBe(200);
    const details = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/get-user-profile-details',
        headers: bearer(customer.access_token),
        payload: { targetUserId: customer.user.id },
      })
    ).json();
    const today = new Date().toISOString().slice(0, 10);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/statement?from=${today}&to=${today}&format=json`,
      headers: bearer(customer.access_token),
    });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const statement = res.json();
    // BTC has only pending activity and is on the statement all the same.
    expect(statement.assets.map((a: { assetId: string }) => a.assetId)).toEqual(['BTC', 'SOL']);
    const sum = (xs: string[]) => xs.reduce((s, x) => s.plus(x), money(0));
    for (const a of statement.assets as { assetId: 'BTC' | 'SOL'; closing: string; available: string }[]) {
      expect(money(a.closing).eq(details.balances[a.assetId])).toBe(true);
      const pending = (statement.pending as { assetId: string; transactionId: string; amount: string }[]).filter(
        (l) => l.assetId === a.assetId,
      );
      // Per pending transaction its movement and fee lines sum to what it will do to the balance.
      const byTx = new Map<string, string[]>();
      for (const l of pending) byTx.set(l.transactionId, [...(byTx.get(l.transactionId) ?? []), l.amount]);
      const nets = [...byTx.values()].map(sum);
      expect(sum(nets.filter((n) => n.isPositive()).map(String)).eq(details.pendingDeposits[a.assetId])).toBe(true);
      expect(sum(nets.filter((n) => n.isNegative()).map(String)).eq(details.pendingWithdrawals[a.assetId])).toBe(true);
      expect(money(a.available).eq(money(details.balances[a.assetId]).plus(details.pendingWithdrawals[a.assetId]))).toBe(true);
    }
    expect(statement.pending.find((l: { type: string }) => l.type === 'send')).toMatchObject({
      assetId: 'SOL',
      amount: '-2.5',
      counterparty: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
    });
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/statement?from=${today}&to=${today}`,
      headers: bearer(customer.access_token),
    });
    const pendingRows = csv.body
      .trim()
      .split('\r\n')
      .filter((r) => r.startsWith('pending,'))
      .map((r) => r.split(',')[9]);
    expect(pendingRows).toEqual(statement.pending.map((l: { amount: string }) => l.amount));
  });

  it('refuses a statement with bad dates and answers a period before any activity with no rows', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/statement?from=2026-05-02&to=2026-05-01',
      headers: bearer(customer.access_token),
    });
    expect([bad.statusCode, bad.json().error]).toEqual([400, 'The start date must be on or before the end date.']);
    const nonsense = await t.app.inject({
      method: 'GET',
      url: '/api/v1/statement?from=yesterday&to=2026-05-01',
      headers: bearer(customer.access_token),
    });
    expect(nonsense.statusCode).toBe(400);
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/v1/statement?from=2020-01-01&to=2020-12-31',
      headers: bearer(customer.access_token),
    });
    expect(old.body.trim().split('\r\n')).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/statement?from=2020-01-01&to=2020-12-31' })).statusCode).toBe(401);
  });

  it('an admin sees the balance just after each event of the trail, and now', async () => {
    const events = await t.app.ledger.store.readStream(`wallet-${customer.user.id}`);
    const [requested, settled] = events;
    const at = async (q: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/admin/balance-at?userId=${customer.user.id}&${q}`, headers: bearer(admin.access_token) });
    const afterRequest = await at(`eventId=${requested!.eventId}`);
    expect(afterRequest.json()).toMatchObject({
      lastEvent: { eventId: requested!.eventId, type: 'wallet.deposit-requested' },
      assets: [{ assetId: 'SOL', balance: '0', pendingDeposits: '9.9', available: '0' }],
    });
    const afterSettle = await at(`eventId=${settled!.eventId}`);
    expect(afterSettle.json().assets).toEqual([
      { assetId: 'SOL', balance: '9.9', pendingDeposits: '0', pendingWithdrawals: '0', available: '9.9' },
    ]);
    const before = await at('at=2020-01-01');
    expect(before.json()).toMatchObject({ lastEvent: null, assets: [] });
    const now = (await at(`at=${new Date().toISOString()}`)).json();
    expect(now.assets.find((a: { assetId: string }) => a.assetId === 'SOL').balance).toBe('9.9');
    expect((await at(`eventId=${customer.user.id}`)).statusCode).toBe(404);
    expect((await at('')).statusCode).toBe(400);
  });

  it('a closed month refuses a staff entry dated inside it (409, nothing recorded) and takes one dated after it', async () => {
    const closedThrough = '2026-01-31T23:59:59.999Z';
    const stream = 'books-periods';
    await t.app.ledger.store.append(
      stream,
      toNewEvents(
        booksDecider,
        stream,
        decideBooks({ type: 'ClosePeriod', period: '2026-01', now: new Date().toISOString(), position: null }, booksDecider.initialState()),
        {
          actor: { id: 'operator:test', role: 'OPERATOR' },
        },
      ),
      { expectedRevision: 'no_stream' },
    );
    const before = (await t.app.ledger.store.readStream(`wallet-${customer.user.id}`)).length;
    const add = (sentAt: string) =>
      t.app.inject({
        method: 'POST',
        url: '/functions/v1/add-transaction',
        headers: bearer(admin.access_token),
        payload: {
          targetUserId: customer.user.id,
          assetId: 'LTC',
          amount: '0.5',
          status: 'Complete',
          sentAt,
          senderAddress: 'ltc1qsender',
        },
      });
    const backdated = await add('2026-01-20T10:00:00.000Z');
    expect([backdated.statusCode, backdated.json()]).toEqual([409, { error: closedPeriodMessage(closedThrough) }]);
    expect((await t.app.ledger.store.readStream(`wallet-${customer.user.id}`)).length).toBe(before);
    const open = await add('2026-02-01T00:00:00.000Z');
    expect(open.statusCode).toBe(200);
  });

  it('a customer downloads their proof of inclusion in the published liabilities, which verifies against the root', async () => {
    const proofOf = (token?: string) =>
      t.app.inject({ method: 'GET', url: '/api/v1/liabilities-proof', headers: token ? bearer(token) : {} });
    expect([(await proofOf(customer.access_token)).statusCode, (await proofOf(customer.access_token)).json()]).toEqual([
      404,
      { error: NO_PUBLISHED_LIABILITIES },
    ]);
    const published = await liabilitiesAt(t.app.ledger.store, new Date(), true);
    await storeLiabilities(t.app.ledger.database, published);
    const res = await proofOf(customer.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="liabilities-proof-\d{4}-\d{2}-\d{2}\.json"$/);
    const proof = res.json();
    expect(proof).toMatchObject({ root: published.root, customerHash: customerHash(customer.user.id) });
    expect(proof.balances.SOL).toBe(published.customers.find((c) => c.userId === customer.user.id)!.balances.SOL);
    expect(verifyProof(proof, published.root)).toEqual({ ok: true });
    expect(verifyProof({ ...proof, balances: { ...proof.balances, SOL: '1000' } }, published.root).ok).toBe(false);
    expect((await proofOf()).statusCode).toBe(401);
  });

  it('only admins may read balances at a moment', async () => {
    const worker = await staffSession('WORKER', 'finance-worker@example.com');
    for (const token of [customer.access_token, worker.access_token]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/balance-at?userId=${customer.user.id}&at=2030-01-01`,
        headers: bearer(token),
      });
      expect([res.statusCode, res.json().error]).toEqual([403, 'Access Denied: Only admins can view balances at a point in time.']);
    }
  });
});
