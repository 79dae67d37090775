import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../../tests/support/test-database.js';

/**
 * The server ends a connection while a transaction holds it (a restart, an operator ending
 * the backend): that transaction fails, the process goes on, and the next one gets a new
 * connection. Without a listener on the checked-out client, node-postgres' 'error' event
 * ended the process.
 */
describe.runIf(usingPostgres)('a connection lost mid-transaction (PostgreSQL)', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  for (const through of ['db', 'projectionDb'] as const) {
    it(`fails only that transaction, through ${through}`, async () => {
      database = await createTestDatabase({ migrate: false, poolSize: 1 });
      const db = database[through] as Kysely<any>;
      await sql`create table items (id int primary key)`.execute(database.db);
      await expect(
        db.transaction().execute(async (trx) => {
          await sql`insert into items (id) values (1)`.execute(trx);
          await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
        }),
        // PostgreSQL's words, the socket's, or behind PgBouncer its own; or the client's when the rollback finds the connection closed.
      ).rejects.toThrow(/terminat|server conn crashed|connection error|ECONNRESET/);
      await db.transaction().execute(async (trx) => {
        await sql`insert into items (id) values (2)`.execute(trx);
      });
      const { rows } = await sql<{ id: number }>`select id from items order by id`.execute(database.db);
      expect(rows).toEqual([{ id: 2 }]);
    });
  }
});
