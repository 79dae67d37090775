import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { DatabaseBusyError, StatementNames } from './pool.js';
import { createTestDatabase, throughPooler, usingPostgres } from '../../tests/support/test-database.js';

describe('statement names', () => {
  it('names a statement with values by its text, the same every time; one without values stays unnamed', () => {
    const names = new StatementNames();
    const a = names.nameOf('select * from users where id = $1', ['x']);
    expect(a).toMatch(/^k[0-9a-f]{20}$/);
    expect(names.nameOf('select * from users where id = $1', ['y'])).toBe(a);
    expect(names.nameOf('select * from users where email = $1', ['y'])).not.toBe(a);
    expect(names.nameOf('create table t (id int); create index on t (id)', [])).toBeUndefined();
  });

  it('names at most its bound of distinct texts; the rest go unnamed, the named ones keep their name', () => {
    const names = new StatementNames(3);
    const first = ['a', 'b', 'c'].map((c) => names.nameOf(`select ${c} where $1`, [1]));
    expect(first.every(Boolean)).toBe(true);
    expect(names.nameOf('select d where $1', [1])).toBeUndefined();
    expect(names.nameOf('select a where $1', [1])).toBe(first[0]);
    expect(names.size).toBe(3);
  });
});

describe.runIf(usingPostgres)('checking out a connection on PostgreSQL', () => {
  it('fails with DatabaseBusyError (a 503) when none is free within the checkout timeout, and works again once one is', async () => {
    const test = await createTestDatabase();
    await test.release();
    const database = await openDatabase({ databaseUrl: test.url!, poolSize: 1, checkoutTimeoutMs: 300 });
    try {
      const held = database.db.transaction().execute((trx) => sql`select pg_sleep(1.5)`.execute(trx));
      await new Promise((r) => setTimeout(r, 100));
      await expect(sql`select 1`.execute(database.db)).rejects.toBeInstanceOf(DatabaseBusyError);
      await expect(sql`select 1`.execute(database.projectionDb)).resolves.toBeTruthy();
      await held;
      expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
      await test.close();
    }
  });
});

// Not through PgBouncer: there the read-only setting stays on PgBouncer's server connection,
// which the next client connection gets again (PgBouncer's own server checks cover a failover).
describe.runIf(usingPostgres && !throughPooler)('a connection that reaches a standby (PostgreSQL)', () => {
  // After a failover a pooled connection may reach a server that is read-only now; the pool
  // must close it rather than hand it to the next request. `default_transaction_read_only`
  // on the one connection stands in for the demoted server.
  for (const through of ['db', 'projectionDb'] as const) {
    it(`is closed after its read-only error, and the next transaction gets a new one, through ${through}`, async () => {
      const test = await createTestDatabase({ migrate: false });
      await test.release();
      const database = await openDatabase({ databaseUrl: test.url!, poolSize: 1 });
      try {
        const db = database[through];
        await sql`create table items (id int primary key)`.execute(db);
        const insert = (id: number) =>
          db.transaction().execute(async (trx) => {
            await sql`insert into items (id) values (${id})`.execute(trx);
            return (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
          });
        await sql`set default_transaction_read_only = on`.execute(db);
        const pidBefore = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
        await expect(insert(1)).rejects.toMatchObject({ code: '25006' });
        const pidAfter = await insert(2);
        expect(pidAfter).not.toBe(pidBefore);
        const { rows } = await sql<{ id: number }>`select id from items order by id`.execute(db);
        expect(rows).toEqual([{ id: 2 }]);
      } finally {
        await database.close();
        await test.close();
      }
    });
  }
});

describe.runIf(usingPostgres)('prepared statements on PostgreSQL (DB_PREPARED_STATEMENTS)', () => {
  const prepared = async (on: boolean) => {
    const test = await createTestDatabase();
    await test.release();
    const database = await openDatabase({ databaseUrl: test.url!, poolSize: 1, preparedStatements: on });
    try {
      // One connection: the second and third reads run where the first was prepared.
      const read = (email: string) => database.db.selectFrom('users').select('id').where('email', '=', email).execute();
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) expect(await read(email)).toEqual([]);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db);
      return rows.map((r) => r.statement);
    } finally {
      await database.close();
      await test.close();
    }
  };

  it('on: a read is prepared once on its server connection and run again from there', async () => {
    const statements = await prepared(true);
    expect(statements.filter((s) => /from "users" where "email" = \$1/.test(s))).toHaveLength(1);
  });

  it('off (the default, safe behind any transaction pooler): nothing is prepared', async () => {
    expect(await prepared(false)).toEqual([]);
  });
});
