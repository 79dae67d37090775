import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { replayProjections } from '../../../projections/replay.js';
import { staffActionsProjection } from '../../../projections/staff-actions.js';

interface Row {
  action: string;
  action_name: string;
  maker_id: string | null;
  maker_email: string | null;
  maker_role: string | null;
  checker_id: string | null;
  checker_email: string | null;
  checker_role: string | null;
  customer_id: string | null;
  customer_email: string | null;
  detail: string;
  event_type: string;
  event_id: string;
}

/**
 * One record of who did what: a credit above the four-eyes limit that a worker asked for and
 * their manager approved is the worker's (maker) and the manager's (checker) in Staff activity,
 * its CSV and the event trail; creating a worker and resetting a staff password are staff
 * actions naming the account concerned; and a hostile e-mail address cannot run in the CSV.
 */
describe('staff activity: maker and checker, staff accounts, and a CSV that cannot attack its reader', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const post = (path: string, token: string, payload: Record<string, unknown>) =>
    inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
  const ok = async (path: string, token: string, payload: Record<string, unknown>, status = 200) => {
    const res = await post(path, token, payload);
    expect(res.statusCode, `${path}: ${res.body}`).toBe(status);
    return res.json();
  };
  /** Signs in with a one-time password and replaces it, as a new staff member does. */
  const firstSignIn = async (email: string, password: string) => {
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return (await signIn(t, email, 'staff-own-pass-1')).access_token;
  };
  const list = async (query: string): Promise<Row[]> => {
    const res = await inject({ method: 'GET', url: `/api/v1/admin/staff-actions${query}`, headers: bearer(admin.token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().actions;
  };
  const csv = async (query: string) => {
    const res = await inject({ method: 'GET', url: `/api/v1/admin/staff-actions${query}&format=csv`, headers: bearer(admin.token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  const workerEmail = '-2+3+cmd@evil.example';
  const customerEmail = '=1+2@evil.example';
  let admin: { token: string; userId: string };
  let manager: { token: string; userId: string };
  let workerId: string;
  let customerId: string;
  let creditRequest: string;

  beforeAll(async () => {
    // The manager who created the worker checks the worker's request here: no separation days
    // (separation of duties is the rule's own test, ledger/wallet/approvals.unit.spec.ts).
    t = await createTestApp({ FOUR_EYES_SEPARATION_DAYS: '0' });
    for (const [role, email] of [
      ['ADMIN', 'mc-admin@example.com'],
      ['MANAGER', 'mc-manager@example.com'],
    ] as const) {
      const made = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} Person`, role });
      const session = { token: await firstSignIn(email, made.password), userId: made.userId };
      if (role === 'ADMIN') admin = session;
      else manager = session;
    }
    // The manager creates a worker, then resets the worker's password.
    const created = await ok(
      'create-worker-for-manager',
      manager.token,
      { fullName: 'Wes Worker', email: workerEmail, password: 'chosen-by-mgr-1' },
      201,
    );
    workerId = created.worker.id;
    const reset = await ok('reset-worker-password', manager.token, { workerId });
    const workerToken = await firstSignIn(workerEmail, reset.temporaryPassword);
    customerId = (await registeredCustomer(t, customerEmail, 'customer-pass-1')).user.id;
    await ok('claim-user', workerToken, { userIdToClaim: customerId });
    // 2 BTC is above the 1,000 USD limit: the worker asks, the manager approves.
    const credit = await ok(
      'add-transaction',
      workerToken,
      {
        targetUserId: customerId,
        assetId: 'BTC',
        amount: '2',
        status: 'Complete',
        senderAddress: 'bank',
        sentAt: new Date().toISOString(),
      },
      202,
    );
    creditRequest = credit.approval.requestId;
    await ok('decide-approval', manager.token, { requestId: creditRequest, decision: 'approve', reason: 'bank statement seen' });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  it('names the worker as maker and the manager as checker of the approved credit, the approval and its request', async () => {
    const rows = await list(`?customer=${customerId}&limit=200`);
    const of = (action: string) => rows.filter((r) => r.action === action);
    const [added] = of('transaction-add');
    expect(added).toMatchObject({
      action_name: 'Manual transaction',
      maker_id: workerId,
      maker_email: workerEmail,
      maker_role: 'WORKER',
      checker_id: manager.userId,
      checker_email: 'mc-manager@example.com',
      checker_role: 'MANAGER',
      customer_email: customerEmail,
      event_type: 'wallet.transaction-recorded',
    });
    expect(of('approval-decision')).toEqual([
      expect.objectContaining({ action_name: 'Approval decision', maker_id: workerId, checker_id: manager.userId }),
    ]);
    expect(of('approval-request')).toEqual([
      expect.objectContaining({ action_name: 'Approval requested', maker_id: workerId, maker_role: 'WORKER', checker_id: null }),
    ]);
    // The worker's and the manager's filters both find the credit: one made it, one checked it.
    for (const who of [workerId, 'MC-MANAGER@example.com']) {
      const theirs = await list(`?staff=${encodeURIComponent(who)}&action=transaction-add&limit=200`);
      expect(theirs.map((r) => r.event_id)).toEqual([added!.event_id]);
    }
  });

  it("records creating a worker and resetting their password as the manager's actions on the worker's account", async () => {
    const rows = await list(`?customer=${workerId}&limit=200`);
    expect(rows.map((r) => [r.action, r.action_name, r.maker_id, r.maker_role, r.customer_email])).toEqual([
      ['password-reset', 'Password reset', manager.userId, 'MANAGER', workerEmail],
      ['staff-create', 'Staff account created', manager.userId, 'MANAGER', workerEmail],
    ]);
    expect(rows[1]!.detail).toBe('Account registered (WORKER, staff)');
    // An account the operator made from the command line: a maker with no account.
    const byOperator = (await list('?action=staff-create&limit=200')).filter((r) => r.maker_role === 'OPERATOR');
    expect(byOperator.map((r) => [r.customer_email, r.maker_id])).toEqual([
      ['mc-manager@example.com', null],
      ['mc-admin@example.com', null],
    ]);
    const managers = await list(`?staff=mc-manager@example.com&action=staff-create`);
    expect(managers.map((r) => r.customer_id)).toEqual([workerId]);
  });

  it('writes the CSV with readable names and codes, maker and checker, and neutralises a hostile e-mail address', async () => {
    const file = await csv(`?customer=${customerId}&action=transaction-add`);
    const lines = file.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `,Manual transaction,transaction-add,${workerId},"'${workerEmail}",WORKER,${manager.userId},mc-manager@example.com,MANAGER,${customerId},"'${customerEmail}",`,
    );
    // No cell of any row starts with a formula character unless it is a plain number.
    const whole = await csv('?limit=200');
    expect(whole).not.toMatch(/(^|,)[=+@]/m);
    expect(whole).not.toMatch(/(^|,)-(?!\d+(\.\d+)?(,|\r\n))/m);
    expect(whole).toContain(`"'${workerEmail}"`);
  });

  it("shows maker and checker in the customer's event trail", async () => {
    const res = await inject({ method: 'GET', url: `/api/v1/users/${customerId}/event-trail?pageSize=200`, headers: bearer(admin.token) });
    expect(res.statusCode, res.body).toBe(200);
    const events = res.json().events as { type: string; actor: { id: string }; staff_action: unknown }[];
    const recorded = events.find((e) => e.type === 'wallet.transaction-recorded')!;
    // The manager's approval wrote the event; the worker made the credit.
    expect(recorded.actor.id).toBe(manager.userId);
    expect(recorded.staff_action).toEqual({
      action: 'transaction-add',
      name: 'Manual transaction',
      maker: { id: workerId, role: 'WORKER', name: 'Wes Worker' },
      checker: { id: manager.userId, role: 'MANAGER', name: 'MANAGER Person' },
    });
    // A customer's own act is no staff action.
    expect(events.find((e) => e.type === 'user.registered')!.staff_action).toBeNull();
  });

  it('rebuilds the same rows from the log, also one event per page (the approval read back from the table)', async () => {
    const before = await list('?limit=200');
    expect(before.filter((r) => r.checker_id !== null).length).toBeGreaterThan(0);
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, [staffActionsProjection]);
    expect(await list('?limit=200')).toEqual(before);
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, [staffActionsProjection], { batchSize: 1 });
    expect(await list('?limit=200')).toEqual(before);
  });
});
