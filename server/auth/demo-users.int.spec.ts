import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn, type TestApp } from '../../tests/support/test-app.js';
import { ensureDemoUsers } from './staff-accounts.js';

/** The demo accounts of a development start: one of each role, the worker in the manager's team. */
describe('demo accounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("the demo worker reports to the demo manager, so the manager's All Users and the worker list show them at once", async () => {
    const text = await ensureDemoUsers(t.database.db, t.app.authServices.accounts, t.dataDir);
    expect(text).toContain('(the worker reports to the manager)');
    const staff = await t.database.db
      .selectFrom('users')
      .select(['id', 'role', 'manager_id'])
      .where('role', 'in', ['WORKER', 'MANAGER'])
      .execute();
    const manager = staff.find((u) => u.role === 'MANAGER')!;
    expect(staff.find((u) => u.role === 'WORKER')!.manager_id).toBe(manager.id);
    // The manager's own worker list (spec 002) has the demo worker without any set-up.
    const password = /MANAGER\s+manager@demo\.wallet-ledger\.local\s+password: (\S+)/.exec(text!)![1]!;
    const session = await signIn(t, 'manager@demo.wallet-ledger.local', password);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(session.access_token),
      payload: { password: 'manager-own-pass-1' },
    });
    const again = await signIn(t, 'manager@demo.wallet-ledger.local', 'manager-own-pass-1');
    const workers = await t.app.inject({
      method: 'POST',
      url: '/api/v1/rpc/get_worker_info',
      headers: bearer(again.access_token),
      payload: { p_manager_id: manager.id },
    });
    expect(JSON.stringify(workers.json())).toContain('worker@demo.wallet-ledger.local');
  });
});
