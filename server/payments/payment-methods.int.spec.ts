import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { bearer, createTestApp, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';
import { decrypt } from '../secrets.js';
import type { RecordedEvent } from '../../ledger/event-store/port.js';
import { paymentMethodsStream } from '../../ledger/payment-methods/events.js';
import { paymentMethodsProjection } from '../../projections/payment-methods.js';
import { verifyReadModels } from '../../projections/verify.js';

const CARD_NUMBER = '4242424242424242';
const CVV = '739';
const ACCOUNT_NUMBER = 'GB29 NWBK 6016 1331 9268 19';
const ACCOUNT_NORMALISED = 'GB29NWBK60161331926819';
/** Every form the secrets could take once stored: as typed, normalised, digits only. */
const SECRETS = [CARD_NUMBER, '4242 4242 4242 4242', ACCOUNT_NUMBER, ACCOUNT_NORMALISED, '2960161331926819'];

const futureExpiry = () => `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
const visa = () => ({
  type: 'credit_card',
  cardNumber: '4242 4242 4242 4242',
  cardHolderName: 'Ada Lovelace',
  expiryDate: futureExpiry(),
  cvv: CVV,
  notes: 'travel card',
});
const bank = () => ({ type: 'bank_account', bank_name: 'NatWest', account_number: ACCOUNT_NUMBER, notes: 'salary' });

describe('payment methods: add, list, detail, delete', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const add = (token: string, payload: object) =>
    inject({ method: 'POST', url: '/functions/v1/add-raw-payment-method', headers: bearer(token), payload });
  const list = (token: string) => inject({ method: 'GET', url: '/api/v1/payment-methods', headers: bearer(token) });

  async function allEvents(): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    for (;;) {
      const page = await t.app.ledger.store.readAll({ after: out.at(-1)?.position, maxCount: 500 });
      if (page.length === 0) return out;
      out.push(...page);
    }
  }
  const streamOf = async (userId: string) => t.app.ledger.store.readStream(paymentMethodsStream(userId));
  const rowsOf = async (userId: string) =>
    t.database.db.selectFrom('user_payment_methods_raw').selectAll().where('user_id', '=', userId).execute();
  const secretCount = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from payment_method_secrets`.execute(t.database.db)).rows[0]!.n);

  /** Every row of every table in the database, as JSON text. */
  async function wholeDatabase(): Promise<string> {
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
      t.database.db,
    );
    const dumps: string[] = [];
    for (const { name } of tables.rows) {
      const { rows } = await sql<{ j: string | null }>`select json_agg(x)::text as j from ${sql.table(name)} x`.execute(t.database.db);
      dumps.push(`${name}: ${rows[0]?.j ?? '[]'}`);
    }
    return dumps.join('\n');
  }

  /** No full number in any form, and no CVV as a value or a field. */
  function expectNoSecrets(text: string) {
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"cvv"\s*:/i);
    expect(text).not.toContain(`"${CVV}"`);
    expect(text).not.toMatch(new RegExp(`:\\s*${CVV}\\s*[,}\\]]`));
  }

  it('the routes are registered', () => {
    expect(t.app.hasRoute({ method: 'POST', url: '/functions/v1/add-raw-payment-method' })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: '/api/v1/payment-methods' })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: '/api/v1/payment-methods/:id' })).toBe(true);
    expect(t.app.hasRoute({ method: 'DELETE', url: '/api/v1/payment-methods/:id' })).toBe(true);
  });

  it('a card keeps brand, last four and expiry; a bank account its bank and last four; the list is newest first', async () => {
    const customer = await registeredCustomer(t, 'cards@example.com', 'cards-pass-1');
    const card = await add(customer.access_token, visa());
    expect(card.statusCode).toBe(200);
    expect(card.json().paymentMethod).toEqual({
      id: expect.any(String),
      user_id: customer.user.id,
      type: 'credit_card',
      card_brand: 'Visa',
      last4: '4242',
      expiry_date: futureExpiry(),
      card_holder_name: 'Ada Lovelace',
      bank_name: null,
      bank_last4: null,
      notes: 'travel card',
      created_at: expect.any(String),
    });
    const account = await add(customer.access_token, bank());
    expect(account.statusCode).toBe(200);
    expect(account.json().paymentMethod).toMatchObject({
      user_id: customer.user.id,
      type: 'bank_account',
      card_brand: null,
      last4: null,
      expiry_date: null,
      bank_name: 'NatWest',
      bank_last4: '6819',
      notes: 'salary',
    });

    const listed = await list(customer.access_token);
    expect(listed.statusCode).toBe(200);
    const methods = listed.json().paymentMethods as Record<string, unknown>[];
    expect(methods.map((m) => m.id)).toEqual([account.json().paymentMethod.id, card.json().paymentMethod.id]);
    expect(methods[1]).toEqual(card.json().paymentMethod);
    expect(methods[0]).toEqual(account.json().paymentMethod);

    const detail = await inject({
      method: 'GET',
      url: `/api/v1/payment-methods/${card.json().paymentMethod.id}`,
      headers: bearer(customer.access_token),
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().paymentMethod).toEqual(card.json().paymentMethod);

    // The events name the customer as actor and carry only what may be shown.
    const events = await streamOf(customer.user.id);
    expect(events.map((e) => e.type)).toEqual(['payment-method.card-added', 'payment-method.bank-account-added']);
    expect(events[0]!.data).toEqual({
      paymentMethodId: card.json().paymentMethod.id,
      cardBrand: 'Visa',
      last4: '4242',
      expiryDate: futureExpiry(),
      cardHolderName: 'Ada Lovelace',
      notes: 'travel card',
    });
    expect(events[1]!.data).toEqual({
      paymentMethodId: account.json().paymentMethod.id,
      bankName: 'NatWest',
      bankLast4: '6819',
      notes: 'salary',
    });
    for (const e of events) expect(e.metadata).toMatchObject({ actorId: customer.user.id, actorRole: 'USER' });

    // Not in the answers, not in the log, not in any table.
    expectNoSecrets(card.body + account.body + listed.body + detail.body);
    const log = await allEvents();
    expect(log.some((e) => e.type === 'payment-method.card-added')).toBe(true);
    expectNoSecrets(JSON.stringify(log, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
    expectNoSecrets(JSON.stringify(await rowsOf(customer.user.id)));
    const everything = await wholeDatabase();
    expect(everything).toContain('payment_method_secrets');
    expect(everything).toContain('"cardBrand"'); // the events table is in the dump
    expectNoSecrets(everything);

    // The bank account's number is kept sealed, and opens with the data key.
    const secret = await t.database.db
      .selectFrom('payment_method_secrets')
      .selectAll()
      .where('payment_method_id', '=', account.json().paymentMethod.id)
      .executeTakeFirstOrThrow();
    expect(decrypt(t.app.authServices.dataKey, secret.account_number_encrypted)).toBe(ACCOUNT_NORMALISED);
    expect(
      await t.database.db
        .selectFrom('payment_method_secrets')
        .where('payment_method_id', '=', card.json().paymentMethod.id)
        .selectAll()
        .execute(),
    ).toEqual([]);
  });

  it('refuses a Luhn-invalid, expired or wrong-CVV card and an incomplete bank account with their messages, writing nothing', async () => {
    const customer = await registeredCustomer(t, 'refused@example.com', 'refused-pass-1');
    const secretsBefore = await secretCount();
    const cases: [object, string][] = [
      [{ ...visa(), cardNumber: '4242 4242 4242 4241' }, 'Card number is invalid.'],
      [{ ...visa(), expiryDate: '01/20' }, 'Card has expired.'],
      [{ ...visa(), expiryDate: '13/30' }, 'Expiry date must be MM/YY.'],
      [{ ...visa(), cvv: '12' }, 'CVV is invalid.'],
      [{ ...visa(), cardNumber: '378282246310005', cvv: '123' }, 'CVV is invalid.'],
      [{ ...visa(), cardHolderName: '' }, 'Please fill in all required fields'],
      [{ ...bank(), bank_name: '' }, 'Please fill in all required fields'],
      [{ type: 'bank_account', bank_name: 'NatWest' }, 'Please fill in all required fields'],
      [{ ...bank(), account_number: 'not/a/number' }, 'Account number is invalid.'],
    ];
    for (const [payload, error] of cases) {
      const res = await add(customer.access_token, payload);
      expect([res.statusCode, res.json()]).toEqual([400, { error }]);
    }
    const unknownType = await add(customer.access_token, { type: 'paypal' });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json()).toEqual({ error: expect.any(String) });

    expect(await streamOf(customer.user.id)).toEqual([]);
    expect(await rowsOf(customer.user.id)).toEqual([]);
    expect(await secretCount()).toBe(secretsBefore);
    expect((await list(customer.access_token)).json()).toEqual({ paymentMethods: [] });
  });

  it('refuses a card number in any free-text field, whatever the separators, writing nothing; an order reference is kept', async () => {
    const customer = await registeredCustomer(t, 'freetext@example.com', 'freetext-pass-1');
    const secretsBefore = await secretCount();
    const own = 'The card number must not appear in other fields.';
    const any = 'Notes and names must not contain a card number.';
    const cases: [object, string][] = [
      [{ ...visa(), notes: 'card 4242.4242.4242.4242' }, own],
      [{ ...visa(), notes: '4242/4242/4242/4242' }, own],
      [{ ...visa(), cardHolderName: 'Ada 4242.4242.4242.4242' }, own],
      [{ ...visa(), notes: 'old card 5555.5555.5555.4444' }, any],
      [{ ...visa(), cardHolderName: 'Ada 5555/5555/5555/4444' }, any],
      [{ ...bank(), notes: 'backup card 4242.4242.4242.4242' }, any],
      [{ ...bank(), bank_name: 'NatWest 4000-0566-5566-5556' }, any],
      [{ ...bank(), notes: 'GB29.NWBK.6016.1331.9268.19' }, 'The account number must not appear in other fields.'],
    ];
    for (const [payload, error] of cases) {
      const res = await add(customer.access_token, payload);
      expect([res.statusCode, res.json()], JSON.stringify(payload)).toEqual([400, { error }]);
    }
    expect(await streamOf(customer.user.id)).toEqual([]);
    expect(await rowsOf(customer.user.id)).toEqual([]);
    expect(await secretCount()).toBe(secretsBefore);
    const log = JSON.stringify(await allEvents(), (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    for (const typed of ['4242.4242', '4242/4242', '5555.5555', '5555/5555', '4000-0566', 'GB29.NWBK']) expect(log).not.toContain(typed);

    // A long number that is not a card number (it fails the Luhn check) is an ordinary note.
    const notes = 'order ref 1234567890123456';
    const card = await add(customer.access_token, { ...visa(), notes });
    expect(card.statusCode, card.body).toBe(200);
    const account = await add(customer.access_token, { ...bank(), notes });
    expect(account.statusCode, account.body).toBe(200);
    expect((await streamOf(customer.user.id)).map((e) => (e.data as { notes: string }).notes)).toEqual([notes, notes]);
  });

  it("another customer's method is not found, in detail and delete, and nothing is deleted", async () => {
    const owner = await registeredCustomer(t, 'owner@example.com', 'owner-pass-1');
    const other = await registeredCustomer(t, 'nosy@example.com', 'nosy-pass-12');
    const added = (await add(owner.access_token, bank())).json().paymentMethod;

    const detail = await inject({ method: 'GET', url: `/api/v1/payment-methods/${added.id}`, headers: bearer(other.access_token) });
    expect([detail.statusCode, detail.json()]).toEqual([404, { error: 'Payment method not found.' }]);
    const del = await inject({ method: 'DELETE', url: `/api/v1/payment-methods/${added.id}`, headers: bearer(other.access_token) });
    expect([del.statusCode, del.json()]).toEqual([404, { error: 'Payment method not found.' }]);
    expect((await list(other.access_token)).json()).toEqual({ paymentMethods: [] });

    expect((await list(owner.access_token)).json().paymentMethods.map((m: { id: string }) => m.id)).toEqual([added.id]);
    expect((await streamOf(owner.user.id)).map((e) => e.type)).toEqual(['payment-method.bank-account-added']);
    expect(await streamOf(other.user.id)).toEqual([]);
    expect(
      await t.database.db
        .selectFrom('payment_method_secrets')
        .select('payment_method_id')
        .where('payment_method_id', '=', added.id)
        .execute(),
    ).toHaveLength(1);

    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await inject({ method: 'GET', url: `/api/v1/payment-methods/${id}`, headers: bearer(owner.access_token) });
      expect([res.statusCode, res.json()]).toEqual([404, { error: 'Payment method not found.' }]);
      const gone = await inject({ method: 'DELETE', url: `/api/v1/payment-methods/${id}`, headers: bearer(owner.access_token) });
      expect([gone.statusCode, gone.json()]).toEqual([404, { error: 'Payment method not found.' }]);
    }
  });

  it('the owner deletes a method: it leaves the list, its sealed number goes, and the log records who removed it', async () => {
    const owner = await registeredCustomer(t, 'deleter@example.com', 'deleter-pass-1');
    const card = (await add(owner.access_token, visa())).json().paymentMethod;
    const account = (await add(owner.access_token, bank())).json().paymentMethod;

    const del = await inject({ method: 'DELETE', url: `/api/v1/payment-methods/${account.id}`, headers: bearer(owner.access_token) });
    expect([del.statusCode, del.json()]).toEqual([200, { success: true }]);
    expect((await list(owner.access_token)).json().paymentMethods.map((m: { id: string }) => m.id)).toEqual([card.id]);
    expect(
      await t.database.db
        .selectFrom('payment_method_secrets')
        .select('payment_method_id')
        .where('payment_method_id', '=', account.id)
        .execute(),
    ).toEqual([]);
    const removed = (await streamOf(owner.user.id)).filter((e) => e.type === 'payment-method.removed');
    expect(removed).toHaveLength(1);
    expect(removed[0]!.data).toEqual({ paymentMethodId: account.id });
    expect(removed[0]!.metadata).toMatchObject({ actorId: owner.user.id, actorRole: 'USER' });

    // Deleting it again finds nothing.
    const again = await inject({ method: 'DELETE', url: `/api/v1/payment-methods/${account.id}`, headers: bearer(owner.access_token) });
    expect([again.statusCode, again.json()]).toEqual([404, { error: 'Payment method not found.' }]);

    // Rebuilding the read table from the log gives the same rows as live updating.
    const report = await verifyReadModels(t.database.db, t.app.ledger.store, { projections: [paymentMethodsProjection] });
    expect(report.ok).toBe(true);
  });

  it('an Idempotency-Key used to add one method is refused (422) for another, leaving no method and no sealed number', async () => {
    const owner = await registeredCustomer(t, 'keyed@example.com', 'keyed-pass-12');
    const addKeyed = (payload: object) =>
      inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: { ...bearer(owner.access_token), 'idempotency-key': 'pm-key-1' },
        payload,
      });
    const first = await addKeyed(visa());
    expect(first.statusCode, first.body).toBe(200);
    const [events, secrets] = [(await streamOf(owner.user.id)).length, await secretCount()];
    for (const other of [bank(), { ...visa(), cardHolderName: 'Someone Else' }]) {
      const refused = await addKeyed(other);
      expect([refused.statusCode, refused.json()]).toEqual([
        422,
        { error: 'This Idempotency-Key was already used for a different request.' },
      ]);
    }
    expect(await streamOf(owner.user.id)).toHaveLength(events);
    expect(await secretCount()).toBe(secrets);
    expect((await rowsOf(owner.user.id)).map((r) => r.type)).toEqual(['credit_card']);
    // The same card again (its CVV is no part of what is compared): the first answer.
    const again = await addKeyed({ ...visa(), cvv: '123' });
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
  });

  it('every call needs a signed-in caller', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const opts of [
      { method: 'POST', url: '/functions/v1/add-raw-payment-method', payload: visa() },
      { method: 'GET', url: '/api/v1/payment-methods' },
      { method: 'GET', url: `/api/v1/payment-methods/${id}` },
      { method: 'DELETE', url: `/api/v1/payment-methods/${id}` },
    ] as InjectOptions[]) {
      const res = await inject(opts);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: expect.any(String) });
    }
    const bad = await inject({ method: 'GET', url: '/api/v1/payment-methods', headers: bearer('not-a-token') });
    expect(bad.statusCode).toBe(401);
  });
});
