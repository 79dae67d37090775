import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { bearer, type TestApp } from '../../../tests/support/test-app.js';
import { openProfileSuite, profileCalls, type CustomerSession, type StaffSession } from '../../../tests/support/staff-profile-suite.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';

/** The staff user profile's Wallets and Transactions tabs: a wallet's address, manual transactions, editing a transaction. */
describe('staff user profile: General, Wallets, Transactions and payment methods', () => {
  let t: TestApp;
  const { inject, post, details } = profileCalls(() => t);
  let worker: StaffSession;
  let customer: CustomerSession;

  beforeAll(async () => {
    ({ t, worker, customer } = await openProfileSuite());
  }, 180_000);
  afterAll(async () => {
    await t.close();
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
    expect(JSON.stringify(notes)).toContain('Your deposit of 0.50 BTC has been completed.');

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
});
