import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import WebSocket from 'ws';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { walletStream } from '../../ledger/wallet/events.js';
import { APPROVAL_MESSAGES } from '../../ledger/wallet/approvals.js';
import { money } from '../../ledger/money.js';
import { staffAct } from '../../ledger/wallet/wallet.arbitraries.js';
import { summaryOf } from './event-trail.js';

/**
 * The two-person rule through the API (default limit: 1000 USD): the insider sequence of
 * issue 28, every refusal, a race of two checkers, expiry, and the journal's staff account.
 */
describe('four eyes: staff actions above the limit wait for a second person', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const staffSession = async (role: 'WORKER' | 'MANAGER' | 'ADMIN', email: string) => {
    const { password, userId } = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} ${email}`, role });
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return { token: (await signIn(t, email, 'staff-own-pass-1')).access_token, userId };
  };
  const post = (path: string, token: string, payload: Record<string, unknown>) =>
    inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
  const balances = async (token: string, userId: string) =>
    (await post('get-user-profile-details', token, { targetUserId: userId })).json().balances;
  const events = async (userId: string) => (await t.app.ledger.store.readStream(walletStream(userId))).map((e) => e.type);
  const credit = (token: string, targetUserId: string, amount: string, extra: Record<string, unknown> = {}) =>
    post('add-transaction', token, {
      targetUserId,
      assetId: 'BTC',
      amount,
      status: 'Complete',
      senderAddress: 'bank',
      sentAt: new Date().toISOString(),
      ...extra,
    });
  const decide = (token: string, requestId: string, decision: 'approve' | 'reject', reason = 'matched the bank statement') =>
    post('decide-approval', token, { requestId, decision, reason });

  let worker: Awaited<ReturnType<typeof staffSession>>;
  let manager: Awaited<ReturnType<typeof staffSession>>;
  let otherManager: Awaited<ReturnType<typeof staffSession>>;
  let admin: Awaited<ReturnType<typeof staffSession>>;
  let otherWorker: Awaited<ReturnType<typeof staffSession>>;

  beforeAll(async () => {
    t = await createTestApp();
    worker = await staffSession('WORKER', 'wes@example.com');
    otherWorker = await staffSession('WORKER', 'otto@example.com');
    manager = await staffSession('MANAGER', 'mona@example.com');
    otherManager = await staffSession('MANAGER', 'max@example.com');
    admin = await staffSession('ADMIN', 'ada@example.com');
    const system = { id: admin.userId, role: 'ADMIN' };
    await t.app.authServices.accounts.record(worker.userId, { type: 'AssignToManager', managerId: manager.userId }, system);
    await t.app.authServices.accounts.record(otherWorker.userId, { type: 'AssignToManager', managerId: otherManager.userId }, system);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const claimedCustomer = async (email: string) => {
    const c = await registeredCustomer(t, email, 'customer-pass-1');
    expect((await post('claim-user', worker.token, { userIdToClaim: c.user.id })).statusCode).toBe(200);
    return c;
  };

  it('the insider sequence: a hidden 500 BTC credit and its payout change no balance until a second person approves each', async () => {
    const customer = await claimedCustomer('dana@example.com');
    const added = await credit(worker.token, customer.user.id, '500', { isHidden: true });
    expect(added.statusCode).toBe(202);
    const waiting = added.json().approval;
    expect(added.json()).toMatchObject({ message: 'Awaiting second approval', awaitingApproval: true });
    expect(waiting).toMatchObject({
      action: 'manual-transaction',
      amount: '500',
      assetId: 'BTC',
      makerId: worker.userId,
      makerEmail: 'wes@example.com',
      status: 'pending',
    });
    expect(money(waiting.valueUsd).gt(1000)).toBe(true);
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('0');
    // With nothing credited, the customer cannot ask for the payout.
    const early = await post('create-pending-withdrawal', customer.access_token, {
      assetId: 'BTC',
      amount: '400',
      recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    expect(early.statusCode).toBe(400);

    // The manager sees it on the Approvals list and approves it with a reason.
    const list = await post('list-approvals', manager.token, {});
    expect(list.json().approvals.map((a: { requestId: string }) => a.requestId)).toContain(waiting.requestId);
    const approved = await decide(manager.token, waiting.requestId, 'approve');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().approval).toMatchObject({ status: 'approved', checkerId: manager.userId, reason: 'matched the bank statement' });
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('500');

    // The payout: the worker's Complete waits too, and the hold stays a hold.
    const send = await post('create-pending-withdrawal', customer.access_token, {
      assetId: 'BTC',
      amount: '400',
      recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
    expect(send.statusCode).toBe(200);
    const pending = await t.app.ledger.database.db
      .selectFrom('transactions')
      .select(['id'])
      .where('user_id', '=', customer.user.id)
      .where('status', '=', 'Pending')
      .executeTakeFirstOrThrow();
    const settle = await post('update-transaction', worker.token, {
      targetUserId: customer.user.id,
      transactionId: pending.id,
      status: 'Complete',
    });
    expect(settle.statusCode).toBe(202);
    expect(settle.json()).toMatchObject({
      awaitingApproval: true,
      transaction: { status: 'Pending' },
      approval: { action: 'settle-transaction', amount: '-400' },
    });
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('500');
    const again = await post('update-transaction', worker.token, {
      targetUserId: customer.user.id,
      transactionId: pending.id,
      status: 'Complete',
    });
    expect([again.statusCode, again.json().error]).toEqual([409, APPROVAL_MESSAGES.alreadyWaiting]);

    expect((await decide(admin.token, settle.json().approval.requestId, 'approve')).statusCode).toBe(200);
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('100');

    // The books name the worker: the credit sits in their staff adjustments account, not in external flows.
    const rows = await t.app.ledger.database.db
      .selectFrom('journal_entries')
      .select(['account', 'amount'])
      .where('user_id', '=', customer.user.id)
      .execute();
    const staffAccount = rows.filter((r) => r.account === `staff:${worker.userId}:staff-adjustments`);
    expect(staffAccount.map((r) => money(r.amount).toFixed())).toEqual(['-500']);
    // The event trail tells the story in words.
    const story = (await t.app.ledger.store.readStream(walletStream(customer.user.id))).map((e) =>
      summaryOf(e.type, e.data as Record<string, unknown>),
    );
    expect(story.filter((line) => /approval/i.test(line))).toEqual([
      expect.stringMatching(
        /^Awaiting second approval: manual transaction \+500\.00 BTC \(\$\d{1,3}(,\d{3})*\.\d\d at \$\d{1,3}(,\d{3})*\.\d\d\)$/,
      ),
      'Second approval given: matched the bank statement',
      expect.stringMatching(/^Awaiting second approval: Complete of -400\.00 BTC/),
      'Second approval given: matched the bank statement',
    ]);
    // The maker sees the outcome of both requests.
    const mine = (await post('list-approvals', worker.token, { scope: 'mine' })).json().approvals;
    expect(
      mine
        .filter((a: { userId: string }) => a.userId === customer.user.id)
        .map((a: { status: string; checkerId: string }) => [a.status, a.checkerId]),
    ).toEqual([
      ['approved', admin.userId],
      ['approved', manager.userId],
    ]);
  });

  it('below the limit the spec behaviour is unchanged', async () => {
    const customer = await claimedCustomer('small@example.com');
    const added = await credit(worker.token, customer.user.id, '0.00001');
    expect([added.statusCode, added.json().message]).toEqual([200, 'Transaction added successfully!']);
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('0.00001');
    // A Pending manual credit completed later still posts against its maker's account (kept while Pending).
    const pending = await credit(worker.token, customer.user.id, '0.00002', { status: 'Pending' });
    expect(pending.statusCode).toBe(200);
    const done = await post('update-transaction', worker.token, {
      targetUserId: customer.user.id,
      transactionId: pending.json().transactionId,
      status: 'Complete',
    });
    expect(done.statusCode).toBe(200);
    const staffRows = await t.app.ledger.database.db
      .selectFrom('journal_entries')
      .select(['amount'])
      .where('user_id', '=', customer.user.id)
      .where('account', '=', `staff:${worker.userId}:staff-adjustments`)
      .execute();
    expect(staffRows.reduce((sum, r) => sum.plus(r.amount), money(0)).toFixed()).toBe('-0.00003');
  });

  it('refuses the maker, a worker, a manager of another team, a second decision and a rejected request; nothing is written', async () => {
    const customer = await claimedCustomer('refusals@example.com');
    const requestId = (await credit(worker.token, customer.user.id, '50')).json().approval.requestId;
    const before = await events(customer.user.id);
    const refusals: [typeof worker, string, number, string][] = [
      [worker, 'approve', 403, APPROVAL_MESSAGES.worker],
      [otherWorker, 'approve', 403, APPROVAL_MESSAGES.worker],
      [otherManager, 'approve', 403, APPROVAL_MESSAGES.otherTeam],
    ];
    for (const [who, decision, status, error] of refusals) {
      const r = await decide(who.token, requestId, decision as 'approve');
      expect([r.statusCode, r.json()]).toEqual([status, { error }]);
    }
    const noReason = await decide(manager.token, requestId, 'approve', '  ');
    expect([noReason.statusCode, noReason.json()]).toEqual([400, { error: APPROVAL_MESSAGES.reasonRequired }]);
    const unknown = await decide(manager.token, randomUUID(), 'approve');
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: APPROVAL_MESSAGES.notFound }]);
    expect(await events(customer.user.id)).toEqual(before);

    expect((await decide(manager.token, requestId, 'reject', 'no such bank transfer')).statusCode).toBe(200);
    const afterReject = await events(customer.user.id);
    for (const who of [manager, admin]) {
      const r = await decide(who.token, requestId, 'approve');
      expect([r.statusCode, r.json()]).toEqual([409, { error: APPROVAL_MESSAGES.rejected }]);
    }
    expect(await events(customer.user.id)).toEqual(afterReject);
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('0');

    // A manager's own request: never theirs to approve, and only an admin decides it.
    const ownRequest = (await credit(manager.token, customer.user.id, '50')).json().approval.requestId;
    expect((await decide(manager.token, ownRequest, 'approve')).json()).toEqual({ error: APPROVAL_MESSAGES.ownRequest });
    expect((await decide(otherManager.token, ownRequest, 'approve')).json()).toEqual({ error: APPROVAL_MESSAGES.adminOnly });
    expect((await decide(admin.token, ownRequest, 'approve')).statusCode).toBe(200);
    const twice = await decide(admin.token, ownRequest, 'approve');
    expect([twice.statusCode, twice.json()]).toEqual([409, { error: APPROVAL_MESSAGES.approved }]);
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('50');
  });

  it('two checkers at once: exactly one approval wins and the credit is recorded once', async () => {
    const customer = await claimedCustomer('race@example.com');
    const requestId = (await credit(worker.token, customer.user.id, '70')).json().approval.requestId;
    const answers = await Promise.all([
      decide(manager.token, requestId, 'approve'),
      decide(admin.token, requestId, 'approve'),
      decide(admin.token, requestId, 'reject'),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const types = await events(customer.user.id);
    expect(types.filter((e) => e === 'wallet.approval-approved' || e === 'wallet.approval-rejected')).toHaveLength(1);
    const won = answers.find((a) => a.statusCode === 200)!.json().approval.status;
    expect((await balances(worker.token, customer.user.id)).BTC).toBe(won === 'approved' ? '70' : '0');
  });

  it('a request past its expiry cannot be decided (nothing written), and the next list records its expiry', async () => {
    const customer = await claimedCustomer('late@example.com');
    const requestId = randomUUID();
    const past = new Date(Date.now() - 60_000).toISOString();
    // A request made more than FOUR_EYES_EXPIRY_HOURS ago: its expiry is already behind us.
    await t.app.ledger.execute(
      walletDecider,
      customer.user.id,
      {
        type: 'RecordTransaction',
        transactionId: randomUUID(),
        assetId: 'BTC',
        sentAt: past,
        amount: money(9),
        status: 'Complete',
        txType: 'deposit',
        note: null,
        senderAddress: 'bank',
        txid: null,
        isHidden: false,
        reason: null,
        staff: staffAct(worker.userId, {
          now: new Date(Date.now() - 73 * 3_600_000).toISOString(),
          requestId,
          price: { usd: '97000', ageS: 1, medianUsd: '97000' },
          policy: { limitUsd: '1000', dailyLimitUsd: '5000', maxPriceAgeS: 600, priceBand: '0.5', expiryHours: 72 },
        }),
      },
      { actor: { id: worker.userId, role: 'WORKER' } },
    );
    const before = await events(customer.user.id);
    const late = await decide(manager.token, requestId, 'approve');
    expect([late.statusCode, late.json()]).toEqual([409, { error: APPROVAL_MESSAGES.expired }]);
    expect(await events(customer.user.id)).toEqual(before);
    const expired = (await post('list-approvals', manager.token, { status: 'expired' })).json().approvals;
    expect(expired.map((a: { requestId: string }) => a.requestId)).toContain(requestId);
    expect((await events(customer.user.id)).filter((e) => e === 'wallet.approval-expired')).toHaveLength(1);
    expect((await balances(worker.token, customer.user.id)).BTC).toBe('0');
  });

  it("a manager's list holds their team's requests only; an admin's holds all; a worker has no list but their own", async () => {
    const customer = await registeredCustomer(t, 'team@example.com', 'customer-pass-1');
    await post('claim-user', otherWorker.token, { userIdToClaim: customer.user.id });
    const requestId = (await credit(otherWorker.token, customer.user.id, '60')).json().approval.requestId;
    const ids = async (token: string) =>
      (await post('list-approvals', token, {})).json().approvals.map((a: { requestId: string }) => a.requestId);
    expect(await ids(otherManager.token)).toContain(requestId);
    expect(await ids(manager.token)).not.toContain(requestId);
    expect(await ids(admin.token)).toContain(requestId);
    const asWorker = await post('list-approvals', worker.token, {});
    expect([asWorker.statusCode, asWorker.json()]).toEqual([403, { error: APPROVAL_MESSAGES.worker }]);
    const forProfile = await inject({
      method: 'GET',
      url: `/api/v1/users/${customer.user.id}/approvals`,
      headers: bearer(otherWorker.token),
    });
    expect(forProfile.json().approvals).toEqual([
      expect.objectContaining({ requestId, status: 'pending', makerEmail: 'otto@example.com' }),
    ]);
    // The rule's limit, for the profile's dialogs to tell before a submit: FOUR_EYES_LIMIT_USD (default 1000).
    expect(forProfile.json().limitUsd).toBe('1000');
    expect(
      (await inject({ method: 'GET', url: `/api/v1/users/${customer.user.id}/approvals`, headers: bearer(worker.token) })).statusCode,
    ).toBe(403);
  });

  it("the Approvals list is live: the maker's manager and the admins hear of a new request and of its decision, another manager does not", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const open = async (token: string) => {
      const socket = new WebSocket(`${base}/realtime/v1?token=${encodeURIComponent(token)}`);
      const topics: string[] = [];
      socket.on('message', (raw) => topics.push(String(JSON.parse(String(raw)).topic)));
      await new Promise((resolve) => socket.once('open', resolve));
      return { socket, topics };
    };
    const sockets = { manager: await open(manager.token), admin: await open(admin.token), other: await open(otherManager.token) };
    const heard = async (who: { topics: string[] }, count: number) => {
      for (let i = 0; i < 100 && who.topics.filter((x) => x === 'approvals').length < count; i++)
        await new Promise((r) => setTimeout(r, 50));
      return who.topics.filter((x) => x === 'approvals').length;
    };
    try {
      const customer = await claimedCustomer('live@example.com');
      const requestId = (await credit(worker.token, customer.user.id, '80')).json().approval.requestId;
      expect(await heard(sockets.manager, 1)).toBe(1);
      expect(await heard(sockets.admin, 1)).toBe(1);
      expect((await decide(admin.token, requestId, 'reject', 'duplicate of an earlier credit')).statusCode).toBe(200);
      expect(await heard(sockets.manager, 2)).toBe(2);
      expect(sockets.other.topics).not.toContain('approvals');
    } finally {
      for (const s of Object.values(sockets)) s.socket.close();
    }
  });
  it('a worker the manager created: the list tells the manager an admin must decide, the decider refuses the manager, an admin approves', async () => {
    const created = await post('create-worker-for-manager', manager.token, {
      fullName: 'New Hire',
      email: 'new-hire@example.com',
      password: 'chosen-by-mgr-1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = await signIn(t, 'new-hire@example.com', 'chosen-by-mgr-1');
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'own-pass-of-hire-1' } });
    const hire = (await signIn(t, 'new-hire@example.com', 'own-pass-of-hire-1')).access_token;
    const customer = await registeredCustomer(t, 'hired-credit@example.com', 'customer-pass-1');
    expect((await post('claim-user', hire, { userIdToClaim: customer.user.id })).statusCode).toBe(200);
    const requestId = (await credit(hire, customer.user.id, '70')).json().approval.requestId;

    const listed = async (token: string) =>
      (await post('list-approvals', token, {})).json().approvals.find((a: { requestId: string }) => a.requestId === requestId);
    // Changing their own password later does not lift it: the manager knew the first one.
    expect((await listed(manager.token)).decideRefusal).toBe(APPROVAL_MESSAGES.separation);
    expect((await listed(admin.token)).decideRefusal).toBeUndefined();
    const before = await events(customer.user.id);
    const refused = await decide(manager.token, requestId, 'approve');
    expect([refused.statusCode, refused.json()]).toEqual([403, { error: APPROVAL_MESSAGES.separation }]);
    expect(await events(customer.user.id)).toEqual(before);
    expect((await decide(admin.token, requestId, 'approve')).statusCode).toBe(200);
    expect((await balances(hire, customer.user.id)).BTC).toBe('70');
  });
});
