import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { BELOW_FOUR_EYES_LIMIT, createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { CARD_LIKE_HIDDEN, withoutSecrets } from './event-trail.js';

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysOf(v, out);
    }
  return out;
}

describe('event trail behind a customer', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const post = (path: string, token: string, payload: Record<string, unknown>) =>
    inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
  let worker: Awaited<ReturnType<typeof signIn>> & { userId: string };
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;

  beforeAll(async () => {
    t = await createTestApp(BELOW_FOUR_EYES_LIMIT);
    const { password, userId } = await createStaff(t.app.authServices.accounts, {
      email: 'wes@example.com',
      fullName: 'Wes Worker',
      role: 'WORKER',
    });
    const first = await signIn(t, 'wes@example.com', password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    worker = { ...(await signIn(t, 'wes@example.com', 'staff-own-pass-1')), userId };
    customer = await registeredCustomer(t, 'dana@example.com', 'dana-pass-12');
    await t.app.authServices.accounts.record(customer.user.id, { type: 'Claim', workerId: userId }, { id: userId, role: 'WORKER' });
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const trail = async (query = '') => {
    const res = await inject({
      method: 'GET',
      url: `/api/v1/users/${customer.user.id}/event-trail${query}`,
      headers: bearer(worker.access_token),
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('shows each staff step newest first with the worker named, across the user, wallet and payment streams; no secret appears', async () => {
    await post('add-raw-payment-method', customer.access_token, {
      type: 'credit_card',
      cardNumber: '4000056655665556',
      cardHolderName: 'Dana C',
      expiryDate: '10/41',
      cvv: '987',
    });
    await post('set-user-wallet-address', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      newAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    await post('add-transaction', worker.access_token, {
      targetUserId: customer.user.id,
      assetId: 'BTC',
      amount: '0.25',
      status: 'Pending',
      sentAt: new Date().toISOString(),
      senderAddress: 'bc1qsender',
      note: 'Bank wire 42',
    });
    const tx = (
      await inject({ method: 'GET', url: `/api/v1/users/${customer.user.id}/transactions`, headers: bearer(worker.access_token) })
    ).json().transactions[0];
    await post('update-transaction', worker.access_token, { targetUserId: customer.user.id, transactionId: tx.id, status: 'Complete' });
    await post('reset-user-password', worker.access_token, { targetUserId: customer.user.id, newPassword: 'secret-temp-pw1' });

    const all = await trail();
    const types = all.events.map((e: { type: string }) => e.type);
    expect(types.slice(0, 5)).toEqual([
      'user.password-changed',
      'user.password-change-required',
      'wallet.transaction-settled',
      'wallet.transaction-recorded',
      'user.wallet-address-set',
    ]);
    expect(types).toContain('payment-method.card-added');
    expect(types).toContain('user.registered');
    const settled = all.events[2];
    expect(settled).toMatchObject({
      kind: 'money',
      actor: { id: worker.userId, role: 'WORKER', name: 'Wes Worker' },
      summary: 'Transaction marked Complete: +0.25 BTC',
    });
    expect(all.events[3].summary).toContain('Bank wire 42');

    const text = JSON.stringify(all);
    expect(text).not.toMatch(/secret-temp-pw|4000056655665556|"987"|dana-pass-12/);
    const secretKeys = keysOf(all).filter((k) => /password|secret|code|token|cvv|session/i.test(k));
    expect(secretKeys).toEqual([]);
  });

  it("includes the customer's support tickets under support", async () => {
    // After the staff reset the customer signs in with it and must choose their own password first.
    const forced = await signIn(t, 'dana@example.com', 'secret-temp-pw1');
    expect(
      (
        await inject({
          method: 'PUT',
          url: '/auth/v1/user',
          headers: bearer(forced.access_token),
          payload: { password: 'dana-own-pass-2' },
        })
      ).statusCode,
    ).toBe(200);
    const again = await signIn(t, 'dana@example.com', 'dana-own-pass-2');
    const ticket = await post('create-support-ticket', again.access_token, {
      subject: 'Where is my deposit?',
      message: 'It has been a day.',
      urgency: 'high',
    });
    expect(ticket.statusCode).toBe(200);
    const support = await trail('?kind=support');
    const opened = support.events.find((e: { type: string }) => e.type === 'ticket.opened');
    expect(opened).toMatchObject({ kind: 'support', summary: 'Ticket opened: Where is my deposit?', actor: { role: 'USER' } });
    expect(opened.stream).toMatch(/^ticket-/);
  });

  it('filters by kind and pages', async () => {
    const money = await trail('?kind=money');
    expect(money.events.every((e: { kind: string }) => e.kind === 'money')).toBe(true);
    expect(money.events.map((e: { type: string }) => e.type)).toEqual([
      'wallet.transaction-settled',
      'wallet.transaction-recorded',
      'user.wallet-address-set',
      'payment-method.card-added',
    ]);
    const access = await trail('?kind=access&pageSize=2&page=1');
    expect(access.events).toHaveLength(2);
    expect(access.total).toBeGreaterThan(2);
    expect((await trail('?kind=kyc')).events).toEqual([]);
    const bad = await inject({
      method: 'GET',
      url: `/api/v1/users/${customer.user.id}/event-trail?kind=everything`,
      headers: bearer(worker.access_token),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('is refused to the customer and to staff who do not manage them', async () => {
    const other = await registeredCustomer(t, 'other@example.com', 'other-pass-12');
    const self = await inject({ method: 'GET', url: `/api/v1/users/${other.user.id}/event-trail`, headers: bearer(other.access_token) });
    expect([self.statusCode, self.json()]).toEqual([403, { error: 'Access Denied: Your role cannot view user profiles.' }]);
    const res = await inject({ method: 'GET', url: `/api/v1/users/${other.user.id}/event-trail`, headers: bearer(worker.access_token) });
    expect(res.statusCode).toBe(403);
  });

  it("hides a card number that an older payment method's notes hold, and keeps the rest", async () => {
    // Recorded before free text was checked for card numbers (the decider now refuses it).
    const paymentMethodId = randomUUID();
    await t.app.ledger.store.append(
      `payment-methods-${customer.user.id}`,
      [
        {
          eventId: randomUUID(),
          type: 'payment-method.card-added',
          version: 1,
          data: {
            paymentMethodId,
            cardBrand: 'Visa',
            last4: '4242',
            expiryDate: '12/30',
            cardHolderName: 'Dana Customer',
            notes: 'old card 4242.4242.4242.4242, keep',
          },
          metadata: {
            actorId: customer.user.id,
            actorRole: 'USER',
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    // The whole trail in one page: the test is about what the event shows, not where it falls.
    // The log is read in commit order, so an append shows once older open transactions end.
    const find = async () =>
      (await trail('?pageSize=200')).events.find((e: { data: { paymentMethodId?: string } }) => e.data.paymentMethodId === paymentMethodId);
    let added = await find();
    for (let i = 0; !added && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      added = await find();
    }
    expect(added.data).toMatchObject({ notes: CARD_LIKE_HIDDEN, cardHolderName: 'Dana Customer', last4: '4242', expiryDate: '12/30' });
    expect(JSON.stringify(await trail())).not.toMatch(/4242\.4242\.4242\.4242/);
  });

  it("says whether the customer's streams verify, and names the event an SQL edit changed", async () => {
    const clean = (await trail()).chain;
    expect(clean.verified).toBe(true);
    expect(clean.text).toMatch(/^Verified: every event of the customer's \d+ streams matches its hash chain\.$/);
    expect(clean.streams.map((s: { stream: string }) => s.stream)).toContain(`user-${customer.user.id}`);
    // Someone holding the database changes the customer's first user event.
    const stream = `user-${customer.user.id}`;
    await sql`update events set data = data || '{"fullName": "Someone Else"}'::jsonb where stream_id = ${stream} and stream_revision = 0`.execute(
      t.app.ledger.database.db,
    );
    const edited = (await trail()).chain;
    expect(edited.verified).toBe(false);
    const broken = edited.streams.find((s: { stream: string }) => s.stream === stream);
    expect(broken).toMatchObject({ verified: false, first_break: { revision: '0', problem: 'edited' } });
    expect(edited.text).toMatch(
      new RegExp(
        `^Does not verify: ${stream} revision 0 \\(position \\d+/\\d+, user\\.[a-z-]+, event [0-9a-f-]{36}\\): its content does not give its hash`,
      ),
    );
  });

  it('drops secret-looking fields at any depth', () => {
    expect(withoutSecrets({ a: 1, password: 'x', nested: [{ refreshToken: 't', totpSecret: 's', otpCode: '1', keep: 'k' }] })).toEqual({
      a: 1,
      nested: [{ keep: 'k' }],
    });
  });
});
