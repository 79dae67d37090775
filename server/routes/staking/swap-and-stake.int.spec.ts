import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import { userDecider, DEFAULT_PERMISSIONS } from '../../../ledger/user/user.js';
import { recorded } from '../../../ledger/wallet/wallet.arbitraries.js';
import { walletStream } from '../../../ledger/wallet/events.js';
import { verifyReadModels } from '../../../projections/verify.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { PayoutScheduler } from '../../marketplace/payout-scheduler.js';
import path from 'node:path';

const staff = { actor: { id: 'staff', role: 'ADMIN' } };

describe('swap and stake', () => {
  let t: TestApp;
  let carol: Awaited<ReturnType<typeof registeredCustomer>>;
  let dave: Awaited<ReturnType<typeof registeredCustomer>>;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const as = (s: { access_token: string }) => bearer(s.access_token);
  const credit = (userId: string, amount: string, assetId: 'BTC' | 'ETH' | 'XRP' = 'BTC') =>
    t.app.ledger.execute(walletDecider, userId, recorded(amount, 'Complete', assetId), staff);
  const profile = async (s: typeof carol) =>
    (
      await inject({ method: 'POST', url: '/functions/v1/get-user-profile-details', headers: as(s), payload: { targetUserId: s.user.id } })
    ).json();
  const swap = (s: typeof carol, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    inject({
      method: 'POST',
      url: '/functions/v1/create-swap-request',
      headers: { ...as(s), ...headers },
      payload: { fromTokenId: 'BTC', toTokenId: 'ETH', fromAmount: '0.1', ...body },
    });
  const stake = (s: typeof carol, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    inject({
      method: 'POST',
      url: '/functions/v1/create-stake-transaction',
      headers: { ...as(s), ...headers },
      payload: { assetId: 'BTC', amount: '0.0117769844', durationDays: 7, rate: 2.7, ...body },
    });
  const list = async (s: typeof carol) =>
    (await inject({ method: 'GET', url: '/api/v1/transactions?pageSize=100', headers: as(s) })).json();

  beforeAll(async () => {
    t = await createTestApp();
    // Fixed prices, so the test can check the quote to the last digit.
    const prices = {
      BTC: { price: 97000, changePercent24Hr: 0 },
      ETH: { price: 3400, changePercent24Hr: 0 },
      DOGE: { price: 0.32, changePercent24Hr: 0 },
    };
    t.app.prices.current = () => ({ prices, updatedAt: new Date().toISOString() });
    carol = await registeredCustomer(t, 'carol@example.com', 'carol-pass-1');
    dave = await registeredCustomer(t, 'dave@example.com', 'dave-pass-12');
  });
  afterAll(async () => {
    await t.close();
  });

  it("swap: quotes from the server's prices, takes the fee in the from-token and appends both legs at once", async () => {
    await credit(carol.user.id, '1');
    const res = await swap(carol, { fromAmount: '0.5', rate: '1000', toAmount: '999' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      fromAmount: '0.5',
      fee: '0.005',
      feeUsd: '485',
      netReceived: '14.122058823529411764',
    });
    const events = (await t.app.ledger.store.readStream(walletStream(carol.user.id))).filter((e) => e.type === 'wallet.swap-requested');
    expect(events).toHaveLength(2);
    // One append: consecutive revisions, one correlation id.
    expect(Number(events[1]!.revision - events[0]!.revision)).toBe(1);
    expect(events[0]!.metadata.correlationId).toBe(events[1]!.metadata.correlationId);
    const details = await profile(carol);
    expect([details.balances.BTC, details.pendingWithdrawals.BTC, details.pendingDeposits.ETH]).toEqual([
      '1',
      '-0.5',
      '14.122058823529411764',
    ]);
  });

  it('swap: the two legs are one entry of the list and of the detail, by either leg', async () => {
    const page = await list(carol);
    const swaps = page.transactions.filter((r: { type: string }) => r.type === 'swap');
    expect(swaps).toHaveLength(1);
    expect(page.count).toBe(2); // the credit and the swap
    const entry = swaps[0];
    expect(entry).toMatchObject({
      asset_id: 'BTC',
      amount: '-0.5',
      fee: '0.005',
      status: 'Pending',
      linkedTransaction: { asset_id: 'ETH', amount: '14.122058823529411764', status: 'Pending' },
    });
    expect(entry.note).toMatch(/^Swap: BTC → ETH \(Req ID: [0-9a-f-]{36}\)$/);
    expect(entry.linkedTransaction.note).toBe(entry.note);
    const byReceived = (
      await inject({ method: 'GET', url: `/api/v1/transactions/${entry.linkedTransaction.id}`, headers: as(carol) })
    ).json();
    expect(byReceived).toMatchObject({ id: entry.id, type: 'swap', linkedTransaction: { id: entry.linkedTransaction.id } });
  });

  it('swap: settling one leg settles both', async () => {
    const entry = (await list(carol)).transactions.find((r: { type: string }) => r.type === 'swap');
    const result = await t.app.ledger.execute(
      walletDecider,
      carol.user.id,
      { type: 'SettleTransaction', transactionId: entry.linkedTransaction.id, by: { system: 'test' } },
      staff,
    );
    expect(result.events).toHaveLength(2);
    const after = (await list(carol)).transactions.find((r: { type: string }) => r.type === 'swap');
    expect([after.status, after.linkedTransaction.status]).toEqual(['Complete', 'Complete']);
    const details = await profile(carol);
    expect([details.balances.BTC, details.balances.ETH, details.pendingWithdrawals.BTC]).toEqual(['0.5', '14.122058823529411764', '0']);
  });

  it('swap: staff failing one leg through update-transaction fails both and gives the held amount back', async () => {
    const { password } = await createStaff(t.app.authServices.accounts, { email: 'ops@example.com', fullName: 'Ops', role: 'ADMIN' });
    const first = await signIn(t, 'ops@example.com', password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: as(first), payload: { password: 'ops-own-pass-1' } });
    const admin = await signIn(t, 'ops@example.com', 'ops-own-pass-1');
    expect((await swap(carol, { fromAmount: '0.2' })).statusCode).toBe(200);
    const entry = (await list(carol)).transactions.find(
      (r: { type: string; status: string }) => r.type === 'swap' && r.status === 'Pending',
    );
    const res = await inject({
      method: 'POST',
      url: '/functions/v1/update-transaction',
      headers: as(admin),
      payload: { targetUserId: carol.user.id, transactionId: entry.id, status: 'Failed' },
    });
    expect(res.statusCode).toBe(200);
    const after = (await inject({ method: 'GET', url: `/api/v1/transactions/${entry.id}`, headers: as(carol) })).json();
    expect([after.status, after.linkedTransaction.status]).toEqual(['Failed', 'Failed']);
    const details = await profile(carol);
    expect([details.balances.BTC, details.pendingWithdrawals.BTC, details.pendingDeposits.ETH]).toEqual(['0.5', '0', '0']);
  });

  it('swap: refuses equal tokens, too much, bad amounts and a disabled account, and writes nothing', async () => {
    const before = (await list(carol)).count;
    expect((await swap(carol, { toTokenId: 'BTC' })).json()).toEqual({ error: 'From and to tokens must differ.' });
    expect((await swap(carol, { fromAmount: '0.500000000000000001' })).json()).toEqual({ error: 'Insufficient balance' });
    expect((await swap(carol, { fromAmount: '0' })).json()).toEqual({
      error: 'Please ensure you have entered a valid amount and have sufficient balance.',
    });
    expect((await swap(carol, { fromTokenId: 'XYZ' })).json()).toEqual({ error: 'Please select a token' });
    await t.app.ledger.execute(
      userDecider,
      carol.user.id,
      { type: 'UpdatePermissions', permissions: { ...DEFAULT_PERMISSIONS, canSwap: false } },
      staff,
    );
    const off = await swap(carol, {});
    expect([off.statusCode, off.json()]).toEqual([403, { error: 'Swapping is currently disabled for your account.' }]);
    await t.app.ledger.execute(
      userDecider,
      carol.user.id,
      {
        type: 'UpdatePermissions',
        permissions: { ...DEFAULT_PERMISSIONS, canSwap: false, swapDisabledNote: 'Swaps are paused during review.' },
      },
      staff,
    );
    expect((await swap(carol, {})).json()).toEqual({ error: 'Swaps are paused during review.' });
    await t.app.ledger.execute(userDecider, carol.user.id, { type: 'UpdatePermissions', permissions: DEFAULT_PERMISSIONS }, staff);
    expect((await list(carol)).count).toBe(before);
  });

  it('stake: takes rate and limits from the catalogue, locks the amount and schedules the payout', async () => {
    await credit(dave.user.id, '1');
    expect((await stake(dave, { rate: 9.1 })).json()).toEqual({ error: 'Stake plan information or user context is missing.' });
    expect((await stake(dave, { assetId: 'DOT' })).json()).toEqual({ error: 'Stake plan information or user context is missing.' });
    expect((await stake(dave, { amount: '0.0117769843' })).json()).toEqual({ error: 'Amount must be at least 0.0117769844 BTC' });
    expect((await stake(dave, { amount: '1.5' })).json()).toEqual({ error: 'Insufficient balance. You have 1 BTC available.' });
    expect((await stake(dave, { amount: '-1' })).json()).toEqual({ error: 'Please enter a valid positive amount.' });
    await t.app.ledger.execute(
      userDecider,
      dave.user.id,
      { type: 'UpdatePermissions', permissions: { ...DEFAULT_PERMISSIONS, canStake: false } },
      staff,
    );
    expect((await stake(dave, {})).json()).toEqual({ error: 'Staking is not allowed for your account.' });
    await t.app.ledger.execute(userDecider, dave.user.id, { type: 'UpdatePermissions', permissions: DEFAULT_PERMISSIONS }, staff);

    const ok = await stake(dave, { rate: '2.7' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, estimatedEarnings: '0.000006098219319452' });
    expect((await profile(dave)).balances.BTC).toBe('0.9882230156');
    const active = (await inject({ method: 'GET', url: '/api/v1/scheduled-transactions', headers: as(dave) })).json().scheduledTransactions;
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({
      asset_id: 'BTC',
      amount: '0.0117769844',
      duration_days: 7,
      rate: '2.7',
      status: 'pending',
      type: 'stake_payout',
      estimated_earnings: '0.000006098219319452',
    });
    expect(Date.parse(active[0].scheduled_at) - Date.parse(active[0].created_at)).toBeGreaterThan(7 * 86_400_000 - 5_000);
    expect(
      (await inject({ method: 'GET', url: '/api/v1/scheduled-transactions', headers: as(carol) })).json().scheduledTransactions,
    ).toEqual([]);
  });

  it('payout: nothing before maturity, principal + earnings once at maturity, and a restart neither loses nor doubles it', async () => {
    const [active] = (await inject({ method: 'GET', url: '/api/v1/scheduled-transactions', headers: as(dave) })).json()
      .scheduledTransactions;
    const maturity = new Date(active.scheduled_at);
    let clock = new Date(maturity.getTime() - 1);
    const scheduler = new PayoutScheduler(t.app.ledger, { now: () => clock });
    expect(await scheduler.runDue()).toBe(0);
    expect((await profile(dave)).balances.BTC).toBe('0.9882230156');
    await scheduler.stop();

    // The app goes down before maturity and comes back after it: the payout is made on start.
    clock = new Date(maturity.getTime() + 3_600_000);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: t.dataDir, PUBLIC_URL: 'http://wallet.test' });
    const again = await buildApp(config, { database: t.database, clientDir: path.join(t.dataDir, 'no-client') });
    try {
      const restarted = new PayoutScheduler(again.ledger, { now: () => clock });
      await restarted.start();
      await restarted.stop();
      // And once more: a second start pays nothing new.
      const third = new PayoutScheduler(again.ledger, { now: () => clock });
      await third.start();
      expect(await third.runDue()).toBe(0);
      await third.stop();
    } finally {
      await again.close();
    }
    await t.app.ledger.projector.waitFor((await t.app.ledger.store.committedHead())!, 5000);
    expect((await profile(dave)).balances.BTC).toBe('1.000006098219319452');
    const payouts = (await list(dave)).transactions.filter((r: { type: string }) => r.type === 'stake_payout');
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ amount: '0.011783082619319452', status: 'Complete', sent_at: maturity.toISOString() });
    expect(
      (await inject({ method: 'GET', url: '/api/v1/scheduled-transactions', headers: as(dave) })).json().scheduledTransactions,
    ).toEqual([]);
    // The app's own scheduler runs with the real clock too; a tick now adds nothing.
    expect(await t.app.payouts.runDue()).toBe(0);
  });

  it('an Idempotency-Key a deposit used is refused (422) for a swap or a stake, writing nothing; a swap repeated with its key is one swap', async () => {
    const erin = await registeredCustomer(t, 'erin@example.com', 'erin-pass-12');
    await credit(erin.user.id, '1');
    const card = await inject({
      method: 'POST',
      url: '/functions/v1/add-raw-payment-method',
      headers: as(erin),
      payload: { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Erin E', expiryDate: '12/39', cvv: '123' },
    });
    const key = { 'idempotency-key': 'erin-key-1' };
    const deposited = await inject({
      method: 'POST',
      url: '/functions/v1/create-deposit-request',
      headers: { ...as(erin), ...key },
      payload: { tokenId: 'BTC', amount: '1', paymentMethodId: card.json().paymentMethod.id, userId: erin.user.id },
    });
    expect(deposited.statusCode, deposited.body).toBe(200);
    const stream = async () => (await t.app.ledger.store.readStream(walletStream(erin.user.id))).map((e) => e.eventId);
    const scheduled = async () =>
      (await inject({ method: 'GET', url: '/api/v1/scheduled-transactions', headers: as(erin) })).json().scheduledTransactions;
    const [events, before, details] = [await stream(), await list(erin), await profile(erin)];

    const refusedSwap = await swap(erin, {}, key);
    expect([refusedSwap.statusCode, refusedSwap.json()]).toEqual([
      422,
      { error: 'This Idempotency-Key was already used for a different request.' },
    ]);
    const refusedStake = await stake(erin, {}, key);
    expect([refusedStake.statusCode, refusedStake.json()]).toEqual([
      422,
      { error: 'This Idempotency-Key was already used for a different request.' },
    ]);
    expect(await stream()).toEqual(events);
    expect(await list(erin)).toEqual(before);
    expect(await profile(erin)).toEqual(details);
    expect(await scheduled()).toEqual([]);

    // A swap's own key: the same answer again, one swap; another swap with that key is refused.
    const own = { 'idempotency-key': 'erin-key-2' };
    const first = await swap(erin, { fromAmount: '0.2' }, own);
    expect(first.statusCode, first.body).toBe(200);
    const again = await swap(erin, { fromAmount: 0.2 }, own);
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    expect((await swap(erin, { fromAmount: '0.3' }, own)).statusCode).toBe(422);
    expect((await list(erin)).transactions.filter((r: { type: string }) => r.type === 'swap')).toHaveLength(1);
    expect(await stream()).toHaveLength(events.length + 2);
  });

  it('ledger verify agrees with every read model after swaps, stakes and payouts', async () => {
    const report = await verifyReadModels(t.app.ledger.database.db, t.app.ledger.store);
    expect(report.foldMismatches).toEqual([]);
    expect(report.negativeAvailable).toEqual([]);
    for (const p of report.projections) for (const tb of p.tables) expect([p.name, tb.onlyLive, tb.onlyRebuilt]).toEqual([p.name, [], []]);
    expect(report.ok).toBe(true);
  });
});
