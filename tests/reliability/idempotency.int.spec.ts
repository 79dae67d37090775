import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createTestApp, bearer, registeredCustomer, type TestApp } from '../support/test-app.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { recorded } from '../../ledger/wallet/wallet.arbitraries.js';
import { verifyReadModels } from '../../projections/verify.js';

/**
 * A client that lost an answer sends the command again with the same Idempotency-Key: it
 * must get the first answer back, and the ledger must hold the command once, however the
 * copies arrive (one after another, at the same time, or at two app processes).
 */
describe('idempotency keys', () => {
  let t: TestApp;
  let second: FastifyInstance;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let bank: string;
  let card: string;
  beforeAll(async () => {
    t = await createTestApp();
    // A second app process on the same database: its own command handler, cache and projector.
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: t.dataDir, PUBLIC_URL: 'http://wallet.test' });
    second = await buildApp(config, { database: t.database, clientDir: path.join(t.dataDir, 'no-client') });
    customer = await registeredCustomer(t, 'retry@example.com', 'retry-pass-123');
    const h = bearer(customer.access_token);
    bank = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: h,
        payload: { type: 'bank_account', bank_name: 'First Bank', account_number: 'DE89370400440532013000' },
      })
    ).json().paymentMethod.id;
    card = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: h,
        payload: {
          type: 'credit_card',
          cardNumber: '4242 4242 4242 4242',
          cardHolderName: 'Retry Person',
          expiryDate: '12/39',
          cvv: '123',
        },
      })
    ).json().paymentMethod.id;
    await t.app.ledger.execute(walletDecider, customer.user.id, recorded('100', 'Complete'), { actor: { id: 'staff', role: 'ADMIN' } });
    await t.app.ledger.execute(walletDecider, customer.user.id, recorded('100', 'Complete', 'ETH'), {
      actor: { id: 'staff', role: 'ADMIN' },
    });
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  const commands: Record<string, () => InjectOptions> = {
    'create-deposit-request': () => ({
      url: '/functions/v1/create-deposit-request',
      payload: { tokenId: 'BTC', amount: '1.5', paymentMethodId: card, userId: customer.user.id },
    }),
    'create-withdrawal-request': () => ({
      url: '/functions/v1/create-withdrawal-request',
      payload: { tokenId: 'BTC', amount: '0.5', paymentMethodId: bank, userId: customer.user.id },
    }),
    'create-pending-withdrawal': () => ({
      url: '/functions/v1/create-pending-withdrawal',
      payload: { assetId: 'ETH', amount: '0.25', recipientAddress: '0x52908400098527886E0F7030069857D2E4169EE7' },
    }),
  };
  const send = (app: FastifyInstance, name: string, key: string) =>
    app.inject({ method: 'POST', ...commands[name]!(), headers: { ...bearer(customer.access_token), 'idempotency-key': key } });
  const eventsWithKey = async (key: string) => {
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from events where metadata->>'idempotencyKey' = ${key}`.execute(
      t.database.db,
    );
    return Number(rows[0]!.n);
  };

  for (const name of Object.keys(commands)) {
    it(`${name}: sent twice, then five times at once, then to another process: one event, one answer`, async () => {
      const key = `${name}-key-1`;
      const first = await send(t.app, name, key);
      expect(first.statusCode, first.body).toBe(200);
      const again = await send(t.app, name, key);
      const burst = await Promise.all(Array.from({ length: 5 }, () => send(t.app, name, key)));
      const elsewhere = await send(second, name, key);
      for (const answer of [again, ...burst, elsewhere]) expect([answer.statusCode, answer.json()]).toEqual([200, first.json()]);
      expect(await eventsWithKey(key)).toBe(1);
      const rows = await t.database.db.selectFrom('transactions').select('id').where('id', '=', first.json().transactionId).execute();
      expect(rows).toHaveLength(1);
    });
  }

  it('copies with one new key sent to two processes at the same time make one event', async () => {
    for (const name of Object.keys(commands)) {
      const key = `${name}-race`;
      const t0 = Date.now();
      const answers = await Promise.all([send(t.app, name, key), send(second, name, key), send(t.app, name, key), send(second, name, key)]);
      // The process that lost the race answers as soon as the winner's projection shows the
      // event, not after the 5 s read-your-writes wait runs out.
      expect(Date.now() - t0, name).toBeLessThan(4000);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.json().transactionId)).size, name).toBe(1);
      expect(await eventsWithKey(key), name).toBe(1);
    }
  });

  it('add-raw-payment-method: the same key adds one method with one id, however often and wherever it is sent', async () => {
    const owner = await registeredCustomer(t, 'retry-methods@example.com', 'retry-pass-123');
    const add = (app: FastifyInstance, key: string) =>
      app.inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: { ...bearer(owner.access_token), 'idempotency-key': key },
        payload: { type: 'bank_account', bank_name: 'Retry Bank', account_number: 'GB29NWBK60161331926819' },
      });
    const methods = () => t.database.db.selectFrom('user_payment_methods_raw').select('id').where('user_id', '=', owner.user.id).execute();
    const secrets = (id: string) =>
      t.database.db.selectFrom('payment_method_secrets').select('payment_method_id').where('payment_method_id', '=', id).execute();

    const first = await add(t.app, 'method-key-1');
    expect(first.statusCode, first.body).toBe(200);
    const again = await add(t.app, 'method-key-1');
    const burst = await Promise.all(Array.from({ length: 5 }, () => add(t.app, 'method-key-1')));
    const elsewhere = await add(second, 'method-key-1');
    for (const answer of [again, ...burst, elsewhere]) expect([answer.statusCode, answer.json()]).toEqual([200, first.json()]);
    const id = first.json().paymentMethod.id;
    expect(await methods()).toEqual([{ id }]);
    expect(await secrets(id)).toHaveLength(1);
    expect(await eventsWithKey('method-key-1')).toBe(1);

    const other = await add(t.app, 'method-key-2');
    expect(other.statusCode).toBe(200);
    expect(other.json().paymentMethod.id).not.toBe(id);
    expect(await methods()).toHaveLength(2);
    expect(await secrets(other.json().paymentMethod.id)).toHaveLength(1);
  });

  it('a different key is a different command; the read tables still match the log', async () => {
    const a = await send(t.app, 'create-withdrawal-request', 'distinct-1');
    const b = await send(t.app, 'create-withdrawal-request', 'distinct-2');
    expect(a.json().transactionId).not.toBe(b.json().transactionId);
    const report = await verifyReadModels(t.database.db, t.app.ledger.store);
    expect(
      report.ok,
      JSON.stringify(report.projections.flatMap((p) => p.tables.filter((x) => x.onlyLive.length || x.onlyRebuilt.length))),
    ).toBe(true);
  });
});
