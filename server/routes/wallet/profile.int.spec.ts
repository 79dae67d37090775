import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { profileDetails } from './queries.js';

describe('profile details', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('keeps every digit of an amount and answers defaults for a user without a profile row', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const id = randomUUID();
    const now = new Date();
    await db
      .insertInto('users')
      .values({
        id,
        email: 'digits@example.com',
        full_name: 'D',
        role: 'USER',
        email_confirmed_at: now,
        banned_until: null,
        requires_password_change: false,
        active_mfa_method: null,
        created_at: now,
        last_sign_in_at: null,
        manager_id: null,
        updated_at: now,
      } as never)
      .execute();
    await db
      .insertInto('balances')
      .values({
        user_id: id,
        asset_id: 'ETH',
        balance: '12345678901234567890.123456789012345678',
        pending_deposits: '0.000000000000000001',
        pending_withdrawals: '-0.1',
        updated_at: now,
      } as never)
      .execute();

    await db
      .insertInto('balances')
      .values({
        user_id: id,
        asset_id: 'SOL',
        balance: '1.500000000000000000',
        pending_deposits: '0.000000000000000000',
        pending_withdrawals: '100',
        updated_at: now,
      } as never)
      .execute();

    const details = await profileDetails(db, id);
    expect(details?.balances.ETH).toBe('12345678901234567890.123456789012345678');
    expect(details?.pendingDeposits.ETH).toBe('0.000000000000000001');
    expect(details?.pendingWithdrawals.ETH).toBe('-0.1');
    expect(details?.balances.BTC).toBe('0');
    // Written as formatAmount writes them: no trailing zeros, zero as 0.
    expect([details?.balances.SOL, details?.pendingDeposits.SOL, details?.pendingWithdrawals.SOL]).toEqual(['1.5', '0', '100']);
    expect([details?.created_at, details?.banned_until]).toEqual([now.toISOString(), null]);
    const until = new Date('2031-02-03T04:05:06.789Z');
    await db
      .updateTable('users')
      .set({ banned_until: until } as never)
      .where('id', '=', id)
      .execute();
    expect((await profileDetails(db, id))?.banned_until).toBe(until.toISOString());
    expect(details).toMatchObject({
      user_id: id,
      email: 'digits@example.com',
      kyc_status: 'not_started',
      addresses: {},
      can_send: true,
      send_disabled_note: null,
      assigned_worker_id: null,
    });
    expect(await profileDetails(db, randomUUID())).toBeNull();
  });
});
