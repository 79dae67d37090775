import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, bearer, registeredCustomer, type TestApp } from '../support/test-app.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { recorded } from '../../ledger/wallet/wallet.arbitraries.js';
import { verifyReadModels } from '../../projections/verify.js';

const REQUESTS = 200;

/**
 * Money under contention: many requests that each would fit the balance alone race for one
 * wallet. The ledger must let exactly as many through as the balance covers.
 */
describe('money under contention', () => {
  let t: TestApp;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let bank: string;
  beforeAll(async () => {
    t = await createTestApp();
    customer = await registeredCustomer(t, 'contended@example.com', 'contended-pass-1');
    const added = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: bearer(customer.access_token),
      payload: { type: 'bank_account', bank_name: 'First Bank', account_number: 'DE89370400440532013000' },
    });
    bank = added.json().paymentMethod.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const available = async (assetId: string) => {
    const { rows } = await sql<{ v: string }>`
      select (balance + pending_withdrawals)::text as v from balances where user_id = ${customer.user.id} and asset_id = ${assetId}`.execute(
      t.database.db,
    );
    return rows[0]?.v ?? '0';
  };

  async function race(n: number, send: (i: number) => Promise<{ statusCode: number; json(): { error?: string } }>) {
    let lowest = Infinity;
    let sampling = true;
    // Watch the read table while the requests run: the available balance never dips below zero.
    const watcher = (async () => {
      while (sampling) {
        lowest = Math.min(lowest, Number(await available('BTC')));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
    sampling = false;
    await watcher;
    return { answers, lowest };
  }

  it(`${REQUESTS} concurrent withdrawals against a balance that covers exactly 37: 37 succeed, the rest are refused`, async () => {
    // 37 withdrawals of 0.1 BTC cost 0.101 each with the 1% fee: 3.737 BTC.
    await t.app.ledger.execute(walletDecider, customer.user.id, recorded('3.737', 'Complete'), { actor: { id: 'staff', role: 'ADMIN' } });
    const { answers, lowest } = await race(REQUESTS, () =>
      t.app.inject({
        method: 'POST',
        url: '/functions/v1/create-withdrawal-request',
        headers: bearer(customer.access_token),
        payload: { tokenId: 'BTC', amount: '0.1', paymentMethodId: bank, userId: customer.user.id },
      }),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(ok).toHaveLength(37);
    expect(new Set(refused.map((a) => `${a.statusCode} ${a.json().error}`))).toEqual(new Set(['400 Insufficient BTC balance']));
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(await available('BTC')).toMatch(/^0(\.0+)?$/);

    const pending = await t.database.db
      .selectFrom('transactions')
      .select('id')
      .where('user_id', '=', customer.user.id)
      .where('type', '=', 'withdrawal')
      .execute();
    expect(pending).toHaveLength(37);
    const report = await verifyReadModels(t.database.db, t.app.ledger.store);
    expect(report.ok, JSON.stringify(report.negativeAvailable)).toBe(true);
  });

  it(`${REQUESTS} concurrent withdrawals and swaps, half each, against a balance that covers exactly 37 of them`, async () => {
    // A withdrawal of 0.1 BTC holds 0.101 with its fee; a swap of 0.101 BTC holds 0.101. 37 x 0.101 = 3.737.
    await t.app.ledger.execute(walletDecider, customer.user.id, recorded('3.737', 'Complete'), { actor: { id: 'staff', role: 'ADMIN' } });
    const { answers, lowest } = await race(REQUESTS, (i) =>
      i % 2 === 0
        ? t.app.inject({
            method: 'POST',
            url: '/functions/v1/create-withdrawal-request',
            headers: bearer(customer.access_token),
            payload: { tokenId: 'BTC', amount: '0.1', paymentMethodId: bank, userId: customer.user.id },
          })
        : t.app.inject({
            method: 'POST',
            url: '/functions/v1/create-swap-request',
            headers: bearer(customer.access_token),
            payload: { fromTokenId: 'BTC', toTokenId: 'ETH', fromAmount: '0.101' },
          }),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(37);
    const refusals = new Set(answers.filter((a) => a.statusCode !== 200).map((a) => `${a.statusCode} ${a.json().error}`));
    expect(
      [...refusals].every((r) => r === '400 Insufficient BTC balance' || r === '400 Insufficient balance'),
      [...refusals].join(' | '),
    ).toBe(true);
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(await available('BTC')).toMatch(/^0(\.0+)?$/);
    const report = await verifyReadModels(t.database.db, t.app.ledger.store);
    expect(report.ok, JSON.stringify(report.negativeAvailable)).toBe(true);
  });
});
