import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, RANDOM_PAGE_COST, type Database } from './database.js';

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

  it.runIf(process.env.DATABASE_URL)("is 1.1 on PostgreSQL unless DATABASE_URL's options set another", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    expect(await pageCost(await openDatabase({ databaseUrl: url.toString(), poolSize: 1 }))).toBe(RANDOM_PAGE_COST);
    url.searchParams.set('options', '-c random_page_cost=4');
    expect(await pageCost(await openDatabase({ databaseUrl: url.toString(), poolSize: 1 }))).toBe('4');
  });
});
