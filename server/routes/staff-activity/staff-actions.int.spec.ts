import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { replayProjections } from '../../../projections/replay.js';
import { staffActionsProjection } from '../../../projections/staff-actions.js';
import { STAFF_ACTIVITY_DENIED } from '../../staff/staff-actions.js';

describe('staff activity: every staff action, for admins', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const post = async (path: string, token: string, payload: Record<string, unknown>) => {
    const res = await inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json();
  };
  const staffSession = async (role: 'WORKER' | 'MANAGER' | 'ADMIN', email: string) => {
    const { password, userId } = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} Person`, role });
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return { ...(await signIn(t, email, 'staff-own-pass-1')), userId };
  };
  let admin: Awaited<ReturnType<typeof staffSession>>;
  let manager: Awaited<ReturnType<typeof staffSession>>;
  let worker: Awaited<ReturnType<typeof staffSession>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let other: Awaited<ReturnType<typeof registeredCustomer>>;

  const list = async (query = '', token = admin.access_token) => {
    const res = await inject({ method: 'GET', url: `/api/v1/admin/staff-actions${query}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      actions: {
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
        event_id: string;
        at: string;
      }[];
      nextCursor: string | null;
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await staffSession('ADMIN', 'activity-admin@example.com');
    manager = await staffSession('MANAGER', 'activity-manager@example.com');
    worker = await staffSession('WORKER', 'activity-worker@example.com');
    customer = await registeredCustomer(t, 'activity-customer@example.com', 'customer-pass-1');
    other = await registeredCustomer(t, 'activity-other@example.com', 'customer-pass-2');
    const c = customer.user.id;
    const w = worker.access_token;
    await post('claim-user', w, { userIdToClaim: c });
    await post('set-dashboard-note', w, { userId: c, noteContent: 'Called about the wire' });
    await post('update-all-user-permissions', w, {
      targetUserId: c,
      permissions: { can_send: false, can_swap: true, can_buy: true, can_sell: true, can_stake: true },
      sendDisabledNote: 'Under review',
    });
    await post('set-user-wallet-address', w, { targetUserId: c, assetId: 'BTC', newAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    await post('add-transaction', w, {
      targetUserId: c,
      assetId: 'BTC',
      amount: '0.001',
      status: 'Pending',
      sentAt: new Date().toISOString(),
      senderAddress: 'bc1qsender',
      note: 'Wire 42',
    });
    const tx = (await inject({ method: 'GET', url: `/api/v1/users/${c}/transactions`, headers: bearer(w) })).json().transactions[0];
    await post('update-transaction', w, { targetUserId: c, transactionId: tx.id, note: 'Wire 42 checked' });
    await post('update-transaction', w, { targetUserId: c, transactionId: tx.id, status: 'Complete' });
    await post('ban-user', w, { targetUserId: c });
    await post('unban-user', w, { targetUserId: c });
    await post('reset-user-password', w, { targetUserId: c, newPassword: 'temp-secret-77' });
    await t.app.authServices.accounts.record(
      c,
      { type: 'RecordKycDocumentView', document: 'identity', blobId: randomUUID() },
      { id: worker.userId, role: 'WORKER' },
    );
    await post('approve-kyc', admin.access_token, { targetUserId: c });
    // The customer's own acts are no staff action.
    await post('update-all-user-permissions', admin.access_token, {
      targetUserId: other.user.id,
      permissions: { can_send: true, can_swap: true, can_buy: true, can_sell: false, can_stake: true },
    });
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  it('lists each kind of staff action with the staff member, the customer and a short detail, newest first, and no secret', async () => {
    const { actions } = await list(`?customer=${customer.user.id}&limit=200`);
    expect(actions.map((a) => a.action)).toEqual([
      'kyc-decision',
      'kyc-document-view',
      'password-reset',
      'unban',
      'ban',
      'transaction-settle',
      'transaction-edit',
      'transaction-add',
      'address',
      'permissions',
      'note',
      'claim',
    ]);
    const byAction = new Map(actions.map((a) => [a.action, a]));
    expect(byAction.get('claim')).toMatchObject({
      action_name: 'Customer claimed',
      maker_id: worker.userId,
      maker_email: 'activity-worker@example.com',
      maker_role: 'WORKER',
      checker_id: null,
      customer_id: customer.user.id,
      customer_email: 'activity-customer@example.com',
    });
    expect(byAction.get('kyc-decision')).toMatchObject({ maker_id: admin.userId, maker_role: 'ADMIN', detail: 'KYC approved' });
    // An action below the limit needs no second person: a maker and no checker.
    expect(byAction.get('transaction-add')).toMatchObject({ action_name: 'Manual transaction', maker_id: worker.userId, checker_id: null });
    expect(byAction.get('transaction-settle')!.action_name).toBe('Transaction settled');
    expect(byAction.get('note')!.detail).toBe('Dashboard note set: "Called about the wire"');
    expect(byAction.get('transaction-add')!.detail).toContain('Wire 42');
    expect(byAction.get('password-reset')!.detail).toBe('Password reset by staff');
    expect(JSON.stringify(actions)).not.toContain('temp-secret-77');
    const times = actions.map((a) => a.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('records staff sign-ins, about no customer', async () => {
    await post('log-login-details', manager.access_token, {});
    const { actions } = await list(`?staff=activity-manager@example.com&action=sign-in`);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => a.maker_id === manager.userId && a.customer_id === null && a.action === 'sign-in')).toBe(true);
  });

  it('filters by staff member (id or e-mail), customer, action and time, and refuses an unknown e-mail', async () => {
    const byWorker = await list(`?staff=${worker.userId}&limit=200`);
    expect(byWorker.actions.every((a) => a.maker_id === worker.userId || a.checker_id === worker.userId)).toBe(true);
    expect((await list('?staff=ACTIVITY-WORKER@example.com&limit=200')).actions.map((a) => a.event_id)).toEqual(
      byWorker.actions.map((a) => a.event_id),
    );
    const forOther = await list(`?customer=activity-other@example.com`);
    expect(forOther.actions.map((a) => [a.action, a.maker_id])).toEqual([['permissions', admin.userId]]);
    const bans = await list('?action=ban');
    expect(bans.actions.map((a) => a.customer_id)).toEqual([customer.user.id]);
    const future = await list(`?from=${new Date(Date.now() + 86_400_000).toISOString()}`);
    expect(future.actions).toEqual([]);
    const all = await list(`?customer=${customer.user.id}&limit=200`);
    const cut = all.actions[4]!.at;
    const older = await list(`?customer=${customer.user.id}&to=${cut}&limit=200`);
    expect(older.actions.every((a) => a.at <= cut)).toBe(true);
    expect(older.actions.length).toBeLessThan(all.actions.length);
    const unknown = await inject({
      method: 'GET',
      url: '/api/v1/admin/staff-actions?staff=nobody@example.com',
      headers: bearer(admin.access_token),
    });
    expect([unknown.statusCode, unknown.json()]).toEqual([400, { error: 'No staff member with the e-mail address nobody@example.com.' }]);
    const badAction = await inject({ method: 'GET', url: '/api/v1/admin/staff-actions?action=mint', headers: bearer(admin.access_token) });
    expect(badAction.statusCode).toBe(400);
    const badCursor = await inject({
      method: 'GET',
      url: '/api/v1/admin/staff-actions?cursor=nonsense',
      headers: bearer(admin.access_token),
    });
    expect(badCursor.statusCode).toBe(400);
  });

  it('pages by cursor without gaps or repeats', async () => {
    const whole = (await list(`?customer=${customer.user.id}&limit=200`)).actions.map((a) => a.event_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`?customer=${customer.user.id}&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.actions.length).toBeLessThanOrEqual(5);
      seen.push(...page.actions.map((a) => a.event_id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(whole);
  });

  it('exports the filtered list as CSV', async () => {
    const res = await inject({
      method: 'GET',
      url: `/api/v1/admin/staff-actions?customer=${customer.user.id}&action=ban&format=csv`,
      headers: bearer(admin.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="staff-activity.csv"');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'at,action,action_code,maker_id,maker_email,maker_role,checker_id,checker_email,checker_role,customer_id,customer_email,detail,event_type,event_id,position',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `,Ban,ban,${worker.userId},activity-worker@example.com,WORKER,,,,${customer.user.id},activity-customer@example.com,"Banned until `,
    );
    // The ban's end in the format module's long form, in UTC and named (a comma: the cell is quoted).
    expect(lines[1]).toMatch(/,"Banned until \d\d [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC",/);
  });

  it('is for admins only: a worker and a manager are refused, and so is a customer', async () => {
    for (const token of [worker.access_token, manager.access_token, other.access_token]) {
      const res = await inject({ method: 'GET', url: '/api/v1/admin/staff-actions', headers: bearer(token) });
      expect([res.statusCode, res.json()]).toEqual([403, { error: STAFF_ACTIVITY_DENIED }]);
      const csv = await inject({ method: 'GET', url: '/api/v1/admin/staff-actions?format=csv', headers: bearer(token) });
      expect(csv.statusCode).toBe(403);
    }
    expect((await inject({ method: 'GET', url: '/api/v1/admin/staff-actions' })).statusCode).toBe(401);
  });

  it('checks the caller (its folder autohooks) before the query: a bad one gets 401 or 403, not 400', async () => {
    const bad = '/api/v1/admin/staff-actions?limit=nope&format=xml';
    expect((await inject({ method: 'GET', url: bad })).statusCode).toBe(401);
    const res = await inject({ method: 'GET', url: bad, headers: bearer(worker.access_token) });
    expect([res.statusCode, res.json()]).toEqual([403, { error: STAFF_ACTIVITY_DENIED }]);
    expect((await inject({ method: 'GET', url: bad, headers: bearer(admin.access_token) })).statusCode).toBe(400);
  });

  it('is a replayable read model: a rebuild from the log gives the same rows', async () => {
    const before = (await list('?limit=200')).actions;
    await replayProjections(t.app.ledger.database.projectionDb, t.app.ledger.store, [staffActionsProjection]);
    expect((await list('?limit=200')).actions).toEqual(before);
  });
});
