import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import { recorded } from '../../../ledger/wallet/wallet.arbitraries.js';
import { createStaff } from '../../auth/staff-accounts.js';

describe('customer money calls', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof registeredCustomer>>;
  let bob: Awaited<ReturnType<typeof registeredCustomer>>;
  let card: string;
  let bank: string;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const as = (s: { access_token: string }) => bearer(s.access_token);
  const credit = (userId: string, amount: string, assetId: 'BTC' | 'ETH' = 'BTC') =>
    t.app.ledger.execute(walletDecider, userId, recorded(amount, 'Complete', assetId), { actor: { id: 'staff', role: 'ADMIN' } });

  beforeAll(async () => {
    t = await createTestApp();
    alice = await registeredCustomer(t, 'alice@example.com', 'alice-pass-1');
    bob = await registeredCustomer(t, 'bob@example.com', 'bob-pass-12');
    const addCard = await inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: as(alice),
      payload: { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Alice A', expiryDate: '12/39', cvv: '123' },
    });
    card = addCard.json().paymentMethod.id;
    const addBank = await inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: as(alice),
      payload: { type: 'bank_account', bank_name: 'First Bank', account_number: 'DE89370400440532013000' },
    });
    bank = addBank.json().paymentMethod.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const deposit = (s: typeof alice, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    inject({
      method: 'POST',
      url: '/functions/v1/create-deposit-request',
      headers: { ...as(s), ...headers },
      payload: { tokenId: 'BTC', amount: '1', paymentMethodId: card, userId: s.user.id, ...body },
    });
  const withdraw = (s: typeof alice, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    inject({
      method: 'POST',
      url: '/functions/v1/create-withdrawal-request',
      headers: { ...as(s), ...headers },
      payload: { tokenId: 'BTC', amount: '1', paymentMethodId: bank, userId: s.user.id, ...body },
    });
  const profile = async (s: typeof alice, targetUserId = s.user.id) =>
    inject({ method: 'POST', url: '/functions/v1/get-user-profile-details', headers: as(s), payload: { targetUserId } });

  let admin: Awaited<ReturnType<typeof signIn>> | undefined;
  /** An admin who has set their own password (staff must before anything else). */
  const adminSession = async () => {
    if (admin) return admin;
    const { password } = await createStaff(t.app.authServices.accounts, { email: 'root@example.com', fullName: 'Root', role: 'ADMIN' });
    const first = await signIn(t, 'root@example.com', password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: as(first), payload: { password: 'root-own-pass-1' } });
    return (admin = await signIn(t, 'root@example.com', 'root-own-pass-1'));
  };

  it('profile details: all ten assets, the flags, and only for oneself (or staff with access)', async () => {
    const res = await profile(alice);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body.balances)).toEqual(['BTC', 'ETH', 'USDT', 'BNB', 'SOL', 'XRP', 'ADA', 'DOGE', 'DOT', 'LTC']);
    expect(body).toMatchObject({
      kyc_status: 'not_started',
      can_buy: true,
      can_sell: true,
      can_swap: true,
      can_stake: true,
      can_send: true,
      dashboard_note: null,
    });
    expect((await profile(alice, bob.user.id)).statusCode).toBe(403);
    expect((await profile(await adminSession(), bob.user.id)).statusCode).toBe(200);
  });

  it('a deposit request is pending (amount less the 1% fee) and moves the balance only when settled', async () => {
    const res = await deposit(alice, { amount: '2.5' });
    expect(res.json()).toMatchObject({ success: true, amount: '2.475', fee: '0.025' });
    const details = (await profile(alice)).json();
    expect([details.balances.BTC, details.pendingDeposits.BTC]).toEqual(['0', '2.475']);
    // A time-ordered id (UUIDv7): the transactions' key index grows at its end (ledger/ids.ts).
    expect(res.json().transactionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const tx = (await inject({ method: 'GET', url: `/api/v1/transactions/${res.json().transactionId}`, headers: as(alice) })).json();
    expect(tx).toMatchObject({
      status: 'Pending',
      type: 'deposit',
      amount: '2.475',
      fee: '0.025',
      asset_id: 'BTC',
      txid: null,
      linkedTransaction: null,
    });
    // Times in UTC with milliseconds, as the event recorded them.
    const [opened] = await t.app.ledger.store
      .readStream(`wallet-${alice.user.id}`)
      .then((events) => events.filter((e) => (e.data as { transactionId?: string }).transactionId === tx.id));
    expect(tx.sent_at).toBe((opened!.data as { sentAt: string }).sentAt);
    expect(tx.created_at).toBe(opened!.recordedAt.toISOString());
    const listed = await inject({ method: 'GET', url: '/api/v1/transactions?page=1&pageSize=10', headers: as(alice) });
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    const list = listed.json();
    expect([list.page, list.pageSize, list.count]).toEqual([1, 10, list.transactions.length]);
    expect(list.transactions.find((r: { id: string }) => r.id === tx.id)).toEqual(tx);
    await t.app.ledger.execute(
      walletDecider,
      alice.user.id,
      { type: 'SettleTransaction', transactionId: tx.id, by: { system: 'test' } },
      { actor: { id: 'staff', role: 'ADMIN' } },
    );
    const after = (await profile(alice)).json();
    expect([after.balances.BTC, after.pendingDeposits.BTC]).toEqual(['2.475', '0']);
  });

  it('a deposit that would take a total beyond what the ledger stores is refused, and the read tables keep moving', async () => {
    const dave = await registeredCustomer(t, 'dave@example.com', 'dave-pass-123');
    const daveCard = (
      await inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: as(dave),
        payload: { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Dave D', expiryDate: '12/39', cvv: '123' },
      })
    ).json().paymentMethod.id;
    const big = { tokenId: 'DOGE', amount: '99999999999999999999', paymentMethodId: daveCard };
    expect((await deposit(dave, big)).statusCode).toBe(200);
    // Twice that is beyond numeric(38, 18): before the check, the second was accepted and the
    // balances read model failed on its page at every retry, for every customer.
    const second = await deposit(dave, big);
    expect([second.statusCode, second.json()]).toEqual([
      400,
      { error: 'This amount would take the wallet beyond the largest balance it can hold.' },
    ]);
    const small = await deposit(dave, { ...big, amount: '1' });
    expect(small.statusCode).toBe(200);
    const details = (await profile(dave)).json();
    expect(details.pendingDeposits.DOGE).toBe('99000000000000000000'); // 0.99 x (10^20 - 1) + 0.99
    // Another customer's request is answered and visible as usual.
    expect((await deposit(alice, { amount: '0.5' })).json()).toMatchObject({ success: true, amount: '0.495' });
  });

  it("deposits need a credit card of one's own; requests for another user are refused", async () => {
    expect((await deposit(alice, { paymentMethodId: bank })).json()).toEqual({ error: 'Deposits can only be made with a credit card.' });
    expect((await deposit(bob, { paymentMethodId: card })).json()).toEqual({ error: 'Please select a payment method' });
    const forOther = await deposit(alice, { userId: bob.user.id });
    expect([forOther.statusCode, forOther.json()]).toEqual([403, { error: 'You can only make requests for your own account.' }]);
  });

  it('a deposit allowed a moment ago is refused as soon as staff turn deposits off, and a removed card no longer pays', async () => {
    const carol = await registeredCustomer(t, 'carol@example.com', 'carol-pass-12');
    const added = await inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: as(carol),
      payload: { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Carol C', expiryDate: '12/39', cvv: '123' },
    });
    const carolCard = added.json().paymentMethod.id as string;
    const byCarol = () => deposit(carol, { paymentMethodId: carolCard });
    const permissions = async (can_buy: boolean) => {
      const saved = await inject({
        method: 'POST',
        url: '/functions/v1/update-all-user-permissions',
        headers: as(await adminSession()),
        payload: { targetUserId: carol.user.id, permissions: { can_send: true, can_swap: true, can_buy, can_sell: true, can_stake: true } },
      });
      expect(saved.statusCode).toBe(200);
    };
    expect((await byCarol()).statusCode).toBe(200);
    await permissions(false);
    const refused = await byCarol();
    expect([refused.statusCode, refused.json()]).toEqual([403, { error: 'You do not have permission to make deposits.' }]);
    await permissions(true);
    expect((await byCarol()).statusCode).toBe(200);
    expect((await inject({ method: 'DELETE', url: `/api/v1/payment-methods/${carolCard}`, headers: as(carol) })).statusCode).toBe(200);
    const gone = await byCarol();
    expect([gone.statusCode, gone.json()]).toEqual([400, { error: 'Please select a payment method' }]);
  });

  it('a withdrawal must fit amount x 1.01 in the available balance, to the last decimal', async () => {
    await credit(bob.user.id, '1.01');
    const bobBank = (
      await inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: as(bob),
        payload: { type: 'bank_account', bank_name: 'B', account_number: '12345678' },
      })
    ).json().paymentMethod.id;
    const tooMuch = await withdraw(bob, { amount: '1.000000000000000001', paymentMethodId: bobBank });
    expect([tooMuch.statusCode, tooMuch.json()]).toEqual([400, { error: 'Insufficient BTC balance' }]);
    const exact = await withdraw(bob, { amount: '1', paymentMethodId: bobBank });
    expect(exact.json()).toMatchObject({ success: true, amount: '-1.01', fee: '0.01' });
    const details = (await profile(bob)).json();
    expect([details.balances.BTC, details.pendingWithdrawals.BTC]).toEqual(['1.01', '-1.01']);
    expect((await withdraw(bob, { amount: '0.000000000000000001', paymentMethodId: bobBank })).json()).toEqual({
      error: 'Insufficient BTC balance',
    });
  });

  it('refuses bad amounts and unknown tokens with the spec texts, and writes nothing', async () => {
    const before = (await inject({ method: 'GET', url: '/api/v1/transactions', headers: as(alice) })).json().count;
    for (const amount of ['-1', '0', 'abc', '1e5', '0.0000000000000000000000000001', '', '1.2.3', 1e21, '123456789012345678901']) {
      const res = await deposit(alice, { amount });
      expect([res.statusCode, res.json()], String(amount)).toEqual([400, { error: 'Please enter a valid amount' }]);
    }
    expect((await deposit(alice, { tokenId: 'FOO' })).json()).toEqual({ error: 'Please select a token' });
    expect((await deposit(alice, { paymentMethodId: randomUUID() })).json()).toEqual({ error: 'Please select a payment method' });
    for (const paymentMethodId of ['not-an-id', `${randomUUID()}x`]) {
      const res = await deposit(alice, { paymentMethodId });
      expect([res.statusCode, res.json()], paymentMethodId).toEqual([400, { error: 'Please select a payment method' }]);
    }
    const after = (await inject({ method: 'GET', url: '/api/v1/transactions', headers: as(alice) })).json().count;
    expect(after).toBe(before);
  });

  it('send: checks the address shape and the balance, and waits for approval as Pending', async () => {
    await credit(alice.user.id, '3', 'ETH');
    const send = (body: Record<string, unknown>) =>
      inject({
        method: 'POST',
        url: '/functions/v1/create-pending-withdrawal',
        headers: as(alice),
        payload: { assetId: 'ETH', amount: '1', recipientAddress: '0x52908400098527886E0F7030069857D2E4169EE7', ...body },
      });
    expect((await send({ recipientAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' })).json()).toEqual({
      error: 'This is not a valid Ethereum address for ETH.',
    });
    expect((await send({ recipientAddress: '  ' })).json()).toEqual({ error: 'Please enter a recipient address.' });
    expect((await send({ amount: '3.5' })).json()).toEqual({
      error: 'Insufficient funds, this wallet might not have enough balance to send or pending transactions.',
    });
    const ok = await send({ amount: '3' });
    expect(ok.statusCode).toBe(200);
    const tx = (await inject({ method: 'GET', url: `/api/v1/transactions/${ok.json().transactionId}`, headers: as(alice) })).json();
    expect(tx).toMatchObject({
      type: 'send',
      status: 'Pending',
      amount: '-3',
      recipient_address: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
  });

  it("lists only the caller's own transactions, newest first, 10 a page with the exact count", async () => {
    for (let i = 0; i < 12; i++) await credit(bob.user.id, `0.${i + 1}`);
    const page1 = (await inject({ method: 'GET', url: '/api/v1/transactions?page=1', headers: as(bob) })).json();
    const page2 = (await inject({ method: 'GET', url: '/api/v1/transactions?page=2', headers: as(bob) })).json();
    expect(page1.transactions).toHaveLength(10);
    expect(page1.count).toBe(page2.count);
    expect(page1.transactions.length + page2.transactions.length).toBe(page1.count);
    expect(page1.transactions.every((r: { user_id: string }) => r.user_id === bob.user.id)).toBe(true);
    const times = [...page1.transactions, ...page2.transactions].map((r: { sent_at: string }) => Date.parse(r.sent_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const alicesTx = (await inject({ method: 'GET', url: '/api/v1/transactions', headers: as(alice) })).json().transactions[0].id;
    expect((await inject({ method: 'GET', url: `/api/v1/transactions/${alicesTx}`, headers: as(bob) })).statusCode).toBe(404);
  });

  it('the same Idempotency-Key makes a retried request a no-op with the same answer', async () => {
    const key = { 'idempotency-key': randomUUID() };
    const [a, b] = await Promise.all([deposit(alice, { amount: '7' }, key), deposit(alice, { amount: '7' }, key)]);
    const c = await deposit(alice, { amount: '7' }, key);
    expect(new Set([a.json().transactionId, b.json().transactionId, c.json().transactionId]).size).toBe(1);
    const list = (await inject({ method: 'GET', url: '/api/v1/transactions?pageSize=100', headers: as(alice) })).json();
    expect(list.transactions.filter((r: { id: string }) => r.id === a.json().transactionId)).toHaveLength(1);
  });

  it('an Idempotency-Key used for one request is refused (422) for another, writing nothing', async () => {
    const carl = await registeredCustomer(t, 'carl@example.com', 'carl-pass-12');
    await credit(carl.user.id, '10');
    const cardOf = await inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: as(carl),
      payload: { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Carl C', expiryDate: '12/39', cvv: '123' },
    });
    const bankOf = await inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: as(carl),
      payload: { type: 'bank_account', bank_name: 'First Bank', account_number: 'DE89370400440532013000' },
    });
    const [carlCard, carlBank] = [cardOf.json().paymentMethod.id, bankOf.json().paymentMethod.id];
    const stream = async () => (await t.app.ledger.store.readStream(`wallet-${carl.user.id}`)).map((e) => e.eventId);
    const transactions = async () =>
      (await inject({ method: 'GET', url: '/api/v1/transactions?pageSize=100', headers: as(carl) })).json().transactions;
    const key = { 'idempotency-key': randomUUID() };
    const deposited = await deposit(carl, { paymentMethodId: carlCard }, key);
    expect(deposited.statusCode, deposited.body).toBe(200);
    const [events, listed, details] = [await stream(), await transactions(), (await profile(carl)).json()];

    // A withdrawal with the deposit's key: refused, not answered with the deposit's id.
    const refused = await withdraw(carl, { paymentMethodId: carlBank }, key);
    expect([refused.statusCode, refused.json()]).toEqual([
      422,
      { error: 'This Idempotency-Key was already used for a different request.' },
    ]);
    // And a deposit of another amount with it.
    expect((await deposit(carl, { paymentMethodId: carlCard, amount: '2' }, key)).statusCode).toBe(422);
    expect(await stream()).toEqual(events);
    expect(await transactions()).toEqual(listed);
    expect(listed.some((r: { type: string }) => r.type === 'withdrawal')).toBe(false);
    expect((await profile(carl)).json()).toEqual(details);
    // The deposit itself repeated with its key still answers as the first time.
    expect((await deposit(carl, { paymentMethodId: carlCard }, key)).json()).toEqual(deposited.json());

    // A withdrawal repeated with its own key: the same answer, recorded once.
    const own = { 'idempotency-key': randomUUID() };
    const first = await withdraw(carl, { paymentMethodId: carlBank, amount: 1 }, own);
    expect(first.statusCode, first.body).toBe(200);
    const again = await withdraw(carl, { paymentMethodId: carlBank, amount: '1.0' }, own);
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    expect((await withdraw(carl, { paymentMethodId: carlBank, amount: '3' }, own)).statusCode).toBe(422);
    const withdrawals = (await transactions()).filter((r: { type: string }) => r.type === 'withdrawal');
    expect(withdrawals.map((r: { id: string }) => r.id)).toEqual([first.json().transactionId]);
    expect(await stream()).toHaveLength(events.length + 1);
  });
});
