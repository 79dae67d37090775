import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import type { DB } from './schema.js';
import { compiledOnce } from './compiled-once.js';

describe('compiledOnce', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("builds the statement once and runs its text with each call's parameters", async () => {
    let builds = 0;
    const statement = compiledOnce((db: Kysely<DB>, a: string, b: number) => {
      builds++;
      return db.selectNoFrom([sql<string>`${a}::text`.as('a'), sql<number>`${b}::int`.as('b')]);
    });
    const db = database.db;
    expect((await statement(db, 'x', 1)).rows).toEqual([{ a: 'x', b: 1 }]);
    expect((await statement(db, 'y', 2)).rows).toEqual([{ a: 'y', b: 2 }]);
    expect(builds).toBe(1);
  });

  it('refuses a statement that does not take its arguments as its parameters, in order', async () => {
    const inlined = compiledOnce((db: Kysely<DB>, a: string) => db.selectFrom('users').select('id').where('email', '=', sql.lit(a)));
    await expect(inlined(database.db, 'x@example.com')).rejects.toThrow(/each once and in order/);
    const swapped = compiledOnce((db: Kysely<DB>, a: string, b: string) =>
      db.selectFrom('users').select('id').where('email', '=', b).where('full_name', '=', a),
    );
    await expect(swapped(database.db, 'a', 'b')).rejects.toThrow(/each once and in order/);
  });
});
