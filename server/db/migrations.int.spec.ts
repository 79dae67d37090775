import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../../tests/support/test-database.js';
import { transactionPooler } from '../../tests/support/transaction-pooler.js';
import { migrateToLatest, migrationStatus } from '../../migrations/index.js';

describe('migrations behind a transaction pooler', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it.skipIf(!usingPostgres)(
    'leave no advisory lock on any server connection, so the next instance migrates at once',
    { timeout: 60_000 },
    async () => {
      database = await createTestDatabase({ migrate: false });
      const pooled = await transactionPooler(database.url!);
      try {
        const applied = await migrateToLatest(pooled.db);
        expect(applied[0]).toBe('0001_event_store');
        // What a session kept would show here, held by one of the pooler's server connections.
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`.execute(
          database.db,
        );
        expect(rows[0]!.n).toBe(0);
        // A second instance starting: it waits for no one (a lock left behind held it up to an hour).
        const again = await Promise.race([migrateToLatest(pooled.db), new Promise<'waited'>((r) => setTimeout(() => r('waited'), 10_000))]);
        expect(again).toEqual([]);
      } finally {
        await pooled.close();
      }
    },
  );

  it('apply all or nothing: a failing migration leaves every one before it pending too', async () => {
    database = await createTestDatabase({ migrate: false });
    // A table of the first migration's already there: that migration fails, none is applied.
    await sql`create table events (x int)`.execute(database.db);
    await expect(migrateToLatest(database.db)).rejects.toThrow(/events/);
    const status = await migrationStatus(database.db);
    expect(status.applied).toEqual([]);
    await sql`drop table events`.execute(database.db);
    expect((await migrateToLatest(database.db)).length).toBe(status.pending.length);
  });
});
