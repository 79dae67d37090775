import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Decimal } from 'decimal.js';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';
import { money, ZERO } from '../../ledger/money.js';

type Who = 'worker' | 'manager' | 'otherManager' | 'admin';
type Step =
  | { kind: 'add'; who: Who; amount: string; status: 'Complete' | 'Pending' }
  | { kind: 'complete'; who: Who; pick: number }
  | { kind: 'decide'; who: Who; pick: number; approve: boolean }
  | { kind: 'send'; amount: string };

const who = fc.constantFrom<Who>('worker', 'manager', 'otherManager', 'admin');
/** Below the 1000 USD limit (0.001 BTC is about 97 USD) or far above it (1 BTC and more). */
const amount = fc.oneof(fc.constant('0.001'), fc.integer({ min: 1, max: 20 }).map(String));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    who,
    amount: fc.tuple(amount, fc.boolean()).map(([a, debit]) => (debit ? `-${a}` : a)),
    status: fc.constantFrom('Complete' as const, 'Pending' as const),
  }),
  fc.record({ kind: fc.constant('complete' as const), who, pick: fc.nat() }),
  fc.record({ kind: fc.constant('decide' as const), who, pick: fc.nat(), approve: fc.boolean() }),
  fc.record({ kind: fc.constant('send' as const), amount }),
);

/**
 * Random sequences of staff actions through the API (manual credits and debits, Complete of
 * pending rows, decisions by anyone, customers' sends): a balance moves only through an action
 * below the limit or through a second person's approval, by exactly that action's amount.
 */
describe('property: no balance moves through an unapproved staff action above the limit', () => {
  let t: TestApp;
  const tokens = {} as Record<Who, string>;
  const customers: { id: string; token: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const ids = {} as Record<Who, string>;
    for (const [key, role] of [
      ['worker', 'WORKER'],
      ['manager', 'MANAGER'],
      ['otherManager', 'MANAGER'],
      ['admin', 'ADMIN'],
    ] as const) {
      const email = `${key.toLowerCase()}@example.com`;
      const { password, userId } = await createStaff(t.app.authServices.accounts, { email, fullName: key, role });
      const first = await signIn(t, email, password);
      await t.app.inject({
        method: 'PUT',
        url: '/auth/v1/user',
        headers: bearer(first.access_token),
        payload: { password: 'staff-own-pass-1' },
      });
      tokens[key] = (await signIn(t, email, 'staff-own-pass-1')).access_token;
      ids[key] = userId;
    }
    await t.app.authServices.accounts.record(
      ids.worker,
      { type: 'AssignToManager', managerId: ids.manager },
      { id: ids.admin, role: 'ADMIN' },
    );
    for (let i = 0; i < 3; i++) {
      const c = await registeredCustomer(t, `prop-${i}@example.com`, 'customer-pass-1');
      await t.app.authServices.accounts.record(c.user.id, { type: 'Claim', workerId: ids.worker }, { id: ids.worker, role: 'WORKER' });
      customers.push({ id: c.user.id, token: c.access_token });
    }
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (path: string, token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
  const balance = async (userId: string): Promise<Decimal> => {
    const row = await t.database.db
      .selectFrom('balances')
      .select('balance')
      .where('user_id', '=', userId)
      .where('asset_id', '=', 'BTC')
      .executeTakeFirst();
    return money(row?.balance ?? '0');
  };
  const pendingRows = (userId: string) =>
    t.database.db
      .selectFrom('transactions')
      .select(['id', 'amount'])
      .where('user_id', '=', userId)
      .where('status', '=', 'Pending')
      .orderBy('id')
      .execute();

  it('holds for random staff sequences', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 10 }), async (steps) => {
        const customer = customers[run++ % customers.length]!;
        const requests: { requestId: string; amount: string }[] = [];
        for (const s of steps) {
          const before = await balance(customer.id);
          /** What this step may move the balance by: nothing, unless it ran below the limit or was approved. */
          let allowed = ZERO;
          if (s.kind === 'add') {
            const r = await post('add-transaction', tokens[s.who], {
              targetUserId: customer.id,
              assetId: 'BTC',
              amount: s.amount,
              status: s.status,
              senderAddress: 'bank',
              sentAt: new Date().toISOString(),
            });
            const big = money(s.amount).abs().gte(1);
            if (big && s.status === 'Complete')
              expect(r.statusCode === 200, `a ${s.amount} BTC Complete credit ran without a second person`).toBe(false);
            if (r.statusCode === 202) requests.push({ requestId: r.json().approval.requestId, amount: r.json().approval.amount });
            if (r.statusCode === 200 && s.status === 'Complete') allowed = money(s.amount);
          } else if (s.kind === 'complete') {
            const rows = await pendingRows(customer.id);
            if (rows.length === 0) continue;
            const row = rows[s.pick % rows.length]!;
            const r = await post('update-transaction', tokens[s.who], {
              targetUserId: customer.id,
              transactionId: row.id,
              status: 'Complete',
            });
            if (r.statusCode === 202) requests.push({ requestId: r.json().approval.requestId, amount: r.json().approval.amount });
            if (r.statusCode === 200) {
              expect(money(row.amount).abs().gte(1), `a ${row.amount} BTC row was completed without a second person`).toBe(false);
              allowed = money(row.amount);
            }
          } else if (s.kind === 'decide') {
            if (requests.length === 0) continue;
            const req = requests[s.pick % requests.length]!;
            const r = await post('decide-approval', tokens[s.who], {
              requestId: req.requestId,
              decision: s.approve ? 'approve' : 'reject',
              reason: 'checked',
            });
            if (r.statusCode === 200 && s.approve) allowed = money(req.amount);
          } else {
            await post('create-pending-withdrawal', customer.token, {
              assetId: 'BTC',
              amount: s.amount,
              recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
            });
          }
          const moved = (await balance(customer.id)).minus(before);
          expect(moved.toFixed(), `${JSON.stringify(s)} moved the balance by ${moved.toFixed()}`).toBe(allowed.toFixed());
        }
      }),
      { numRuns: 12 },
    );
  }, 300_000);
});
