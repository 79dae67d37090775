import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from './staff-accounts.js';

/**
 * An address is told apart from another by the server's own normalisation (the reservation in
 * auth_email_index), never by the database's `lower()`, which folds some letters differently
 * (PostgreSQL with a UTF-8 locale turns 'İ' into 'i', JavaScript into 'i̇').
 */
describe('addresses that differ only in a letter the database folds its own way', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('are two accounts: both register, both sign in, the read tables keep moving, and staff find each', async () => {
    const dotless = await registeredCustomer(t, 'ix@example.com', 'first-pass-1', 'Plain I');
    // Answered once the users table shows it: before, the projector stopped at this event (a 500 after the wait).
    const dotted = await registeredCustomer(t, 'İx@example.com', 'second-pass-2', 'Dotted I');
    expect(dotted.user.email).toBe('İx@example.com');
    expect(dotted.user.id).not.toBe(dotless.user.id);

    // Each address signs in to its own account (before, the dotted one found no row).
    expect((await signIn(t, 'ix@example.com', 'first-pass-1')).user.id).toBe(dotless.user.id);
    expect((await signIn(t, 'İX@example.com', 'second-pass-2')).user.id).toBe(dotted.user.id);
    // A third registration after them still reaches the read tables.
    const later = await registeredCustomer(t, 'later@example.com');
    const me = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(later.access_token) });
    expect(me.json().email).toBe('later@example.com');

    const { password } = await createStaff(t.app.authServices.accounts, {
      email: 'searcher@example.com',
      fullName: 'Searching Worker',
      role: 'WORKER',
    });
    const first = await signIn(t, 'searcher@example.com', password);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'worker-own-pass-1' },
    });
    const worker = await signIn(t, 'searcher@example.com', 'worker-own-pass-1');
    const search = async (emailToSearch: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/functions/v1/search-user-by-email',
          headers: bearer(worker.access_token),
          payload: { emailToSearch },
        })
      ).json().user?.id ?? null;
    expect([await search('IX@example.com'), await search('İx@example.com')]).toEqual([dotless.user.id, dotted.user.id]);
    // Staff accounts are still not customers to find.
    expect(await search('searcher@example.com')).toBeNull();
  });
});
