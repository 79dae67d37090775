import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp } from '../../../tests/support/test-app.js';
import { openProfileSuite, profileCalls, type CustomerSession, type StaffSession } from '../../../tests/support/staff-profile-suite.js';

/** The staff user profile's Payments tab: a customer's payment methods, masked. */
describe('staff user profile: General, Wallets, Transactions and payment methods', () => {
  let t: TestApp;
  const { inject, post } = profileCalls(() => t);
  let worker: StaffSession;
  let customer: CustomerSession;

  beforeAll(async () => {
    ({ t, worker, customer } = await openProfileSuite());
  }, 180_000);
  afterAll(async () => {
    await t.close();
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
});
