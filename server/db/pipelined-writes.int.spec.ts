import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../../tests/support/test-database.js';

/** The read models' transactions on PostgreSQL: writes sent without waiting (server/db/pipelined-writes.ts). */
describe.runIf(usingPostgres)('pipelined writes (projectionDb, PostgreSQL)', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('runs the writes in order and answers reads after them; a failed write rolls back the whole transaction with its own error', async () => {
    database = await createTestDatabase({ migrate: false });
    const db = database.projectionDb as Kysely<any>;
    await sql`create table items (id int primary key, label text)`.execute(database.db);
    const seen = await db.transaction().execute(async (trx) => {
      await sql`insert into items (id, label) values (1, 'one')`.execute(trx);
      await sql`update items set label = 'first' where id = 1`.execute(trx);
      await sql`insert into items (id, label) values (2, 'two')`.execute(trx);
      return (await sql<{ id: number; label: string }>`select id, label from items order by id`.execute(trx)).rows;
    });
    expect(seen).toEqual([
      { id: 1, label: 'first' },
      { id: 2, label: 'two' },
    ]);

    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into items (id, label) values (3, 'three')`.execute(trx);
        await sql`insert into items (id, label) values (1, 'again')`.execute(trx);
        await sql`insert into items (id, label) values (4, 'four')`.execute(trx);
      }),
    ).rejects.toThrow(/duplicate key/);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into items (id, label) values (5, 'five')`.execute(trx);
        await sql`insert into items (id, label) values ('not a number', 'x')`.execute(trx);
        await sql`select 1`.execute(trx);
      }),
    ).rejects.toThrow(/integer/);
    const { rows } = await sql<{ id: number }>`select id from items order by id`.execute(database.db);
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
  });
});
