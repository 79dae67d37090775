import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, RANDOM_PAGE_COST, type Database } from './database.js';
import { createTestDatabase, usingPostgres } from '../../tests/support/test-database.js';

describe("the planner's page cost", () => {
  const pageCost = async (database: Database) => {
    try {
      return (await sql<{ random_page_cost: string }>`show random_page_cost`.execute(database.db)).rows[0]!.random_page_cost;
    } finally {
      await database.close();
    }
  };

  it('is 1.1 on the embedded database', async () => {
    expect(await pageCost(await openDatabase({ inMemory: true }))).toBe(RANDOM_PAGE_COST);
  });

  it.runIf(usingPostgres)('is 1.1 on every PostgreSQL connection opened after the migrations, with no startup option', async () => {
    const test = await createTestDatabase();
    try {
      await test.release();
      // New connections, from a URL without options (behind PgBouncer, none may be sent).
      const url = new URL(test.url!);
      expect(url.searchParams.has('options')).toBe(false);
      const again = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
      const costs = await Promise.all(
        [1, 2, 3, 4].map(() =>
          again.db
            .transaction()
            .execute(
              async (trx) =>
                (await sql<{ c: string }>`select current_setting('random_page_cost') as c, pg_sleep(0.05)`.execute(trx)).rows[0]!.c,
            ),
        ),
      );
      await again.close();
      expect(costs).toEqual([RANDOM_PAGE_COST, RANDOM_PAGE_COST, RANDOM_PAGE_COST, RANDOM_PAGE_COST]);
    } finally {
      await test.close();
    }
  });
});
