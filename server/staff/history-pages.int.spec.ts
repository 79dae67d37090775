import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { STAFF_HISTORY_PAGE } from '../routes/staff-users/transactions.js';

type Row = { id: string; request_id: string | null; amount: string; sent_at: string };

describe("the staff's Transactions tab reaches every row of a long history, a page at a time", () => {
  let t: TestApp;
  let token: string;
  let customerId: string;
  let swapRequest: string;
  const base = Date.parse('2025-01-01T00:00:00Z');
  const newer = STAFF_HISTORY_PAGE - 1;
  const older = STAFF_HISTORY_PAGE + 100;

  beforeAll(async () => {
    t = await createTestApp();
    const { password, userId: workerId } = await createStaff(t.app.authServices.accounts, {
      email: 'pager@example.com',
      fullName: 'Paging Worker',
      role: 'WORKER',
    });
    const first = await signIn(t, 'pager@example.com', password);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'worker-own-pass-1' },
    });
    token = (await signIn(t, 'pager@example.com', 'worker-own-pass-1')).access_token;
    const customer = await registeredCustomer(t, 'long.history@example.com');
    customerId = customer.user.id;
    await t.app.authServices.accounts.record(customerId, { type: 'Claim', workerId }, { id: workerId, role: 'WORKER' });

    const actor = { actor: { id: workerId, role: 'WORKER' as const } };
    const record = (k: number, at: number) =>
      t.app.ledger.execute(
        walletDecider,
        customerId,
        {
          type: 'RecordTransaction',
          transactionId: randomUUID(),
          assetId: 'ETH',
          sentAt: new Date(at).toISOString(),
          amount: new Decimal(k + 1),
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
    // Oldest first: `older` deposits, then a swap whose two legs fall on the first page's last
    // place and the one after it, then `newer` deposits.
    const batches = async (count: number, from: number, offset: number) => {
      for (let k = 0; k < count; k += 50)
        await Promise.all(Array.from({ length: Math.min(50, count - k) }, (_, j) => record(offset + k + j, from + (k + j) * 1000)));
    };
    await batches(older, base, 0);
    swapRequest = randomUUID();
    await t.app.ledger.execute(
      walletDecider,
      customerId,
      {
        type: 'RequestSwap',
        requestId: swapRequest,
        fromTransactionId: randomUUID(),
        toTransactionId: randomUUID(),
        fromAssetId: 'ETH',
        toAssetId: 'SOL',
        fromAmount: new Decimal(1),
        fromPrice: new Decimal(3000),
        toPrice: new Decimal(150),
        sentAt: new Date(base + older * 1000).toISOString(),
      },
      { actor: { id: customerId, role: 'USER' } },
    );
    await batches(newer, base + (older + 1) * 1000, older);
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  const page = async (before?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/${customerId}/transactions${before ? `?before=${before}` : ''}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { transactions: Row[]; next: string | null };
  };

  it('pages follow the list order without a gap or a repeat, and a swap is never split between two pages', async () => {
    const first = await page();
    // The page's last place holds the swap's first leg: the second comes with it.
    expect(first.transactions).toHaveLength(STAFF_HISTORY_PAGE + 1);
    expect(first.transactions.slice(-2).map((r) => r.request_id)).toEqual([swapRequest, swapRequest]);
    expect(first.next).toBe(first.transactions.at(-1)!.id);

    const second = await page(first.next!);
    expect(second.transactions).toHaveLength(STAFF_HISTORY_PAGE);
    const third = await page(second.next!);
    expect(third.transactions).toHaveLength(older - STAFF_HISTORY_PAGE);
    expect(third.next).toBeNull();

    const all = [...first.transactions, ...second.transactions, ...third.transactions];
    expect(new Set(all.map((r) => r.id)).size).toBe(newer + 2 + older);
    const times = all.map((r) => Date.parse(r.sent_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The oldest deposit (amount 1) is the very last row.
    expect(all.at(-1)!.amount).toBe('1');
  });

  it('refuses a cursor that is not a row of this customer, and one that is not an id', async () => {
    for (const before of [randomUUID(), 'not-an-id']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/users/${customerId}/transactions?before=${before}`,
        headers: bearer(token),
      });
      expect([before, res.statusCode]).toEqual([before, 400]);
    }
  });
});
