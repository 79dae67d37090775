import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../../tests/support/test-database.js';
import { copyRows } from './copy-from.js';

interface Row {
  id: number;
  label: string | null;
  tags: string[] | null;
  doc: unknown;
  amount: string | null;
}

describe.runIf(usingPostgres)('pipelined transactions (PostgreSQL)', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** A database with one pooled connection, and a count of the answers that connection waited for. */
  async function setup() {
    database = await createTestDatabase({ migrate: false, poolSize: 1 });
    const db = database.projectionDb as Kysely<any>;
    await sql`create table items (id int primary key, label text, tags text[], doc jsonb, amount numeric(38, 18))`.execute(db);
    const roundTrips = { count: 0 };
    const counted = new WeakSet<object>();
    database.pool!.on('acquire', (client) => {
      const connection = (client as unknown as { connection: { on(e: string, f: () => void): void } }).connection;
      if (counted.has(connection)) return;
      counted.add(connection);
      connection.on('readyForQuery', () => roundTrips.count++);
    });
    const rows = async () =>
      (await sql<Row>`select id, label, tags, doc, amount::text as amount from items order by id`.execute(database!.db)).rows;
    return { db, roundTrips, rows };
  }

  const insert = (db: Kysely<any>, id: number, label: string | null, amount: string | null = null) =>
    sql`insert into items (id, label, tags, doc, amount) values (${id}, ${label}, ${['a', 'b "c"']}, ${JSON.stringify({ label, n: [1, 2] })}::jsonb, ${amount}::numeric)`.execute(db);

  it('sends the writes with the next read or the commit, in order, in one round trip each', async () => {
    const { db, roundTrips, rows } = await setup();
    const seen = await db.transaction().execute(async (trx) => {
      roundTrips.count = 0;
      await insert(trx, 1, 'one', '0.000000000000000001');
      await insert(trx, 2, "tw'o\n", null);
      await sql`update items set label = 'one, edited' where id = 1`.execute(trx);
      await copyRows(trx, 'public.items', ['id', 'label'], '3\tcopied\n4\t\\N\n');
      // begin and the four writes: nothing sent yet.
      expect(roundTrips.count).toBe(0);
      const read = await sql<{ id: number; label: string | null }>`select id, label from items order by id`.execute(trx);
      expect(roundTrips.count).toBe(1);
      await sql`delete from items where id = 4`.execute(trx);
      await insert(trx, 5, 'five', '12.5');
      expect(roundTrips.count).toBe(1);
      return read.rows;
    });
    // The commit took the delete and the insert with it.
    expect(roundTrips.count).toBe(2);
    expect(seen).toEqual([
      { id: 1, label: 'one, edited' },
      { id: 2, label: "tw'o\n" },
      { id: 3, label: 'copied' },
      { id: 4, label: null },
    ]);
    expect(await rows()).toEqual([
      { id: 1, label: 'one, edited', tags: ['a', 'b "c"'], doc: { label: 'one', n: [1, 2] }, amount: '0.000000000000000001' },
      { id: 2, label: "tw'o\n", tags: ['a', 'b "c"'], doc: { label: "tw'o\n", n: [1, 2] }, amount: null },
      { id: 3, label: 'copied', tags: null, doc: null, amount: null },
      { id: 5, label: 'five', tags: ['a', 'b "c"'], doc: { label: 'five', n: [1, 2] }, amount: '12.500000000000000000' },
    ]);
  });

  it('sends nothing for a transaction that ends before anything had to be sent', async () => {
    const { db, roundTrips, rows } = await setup();
    roundTrips.count = 0;
    await db.transaction().execute(async () => {});
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, 1, 'held, then dropped');
        throw new Error('given up');
      }),
    ).rejects.toThrow('given up');
    expect(roundTrips.count).toBe(0);
    expect(await rows()).toEqual([]);
  });

  it('answers a query, a WITH and a write with RETURNING at once, with their rows', async () => {
    const { db } = await setup();
    const answered = await db.transaction().execute(async (trx) => {
      await insert(trx, 1, 'one');
      const returned = (await sql<{ id: number }>`insert into items (id) values (2), (3) returning id`.execute(trx)).rows;
      const counted = (await sql<{ n: string }>`with held as (select id from items) select count(*) as n from held`.execute(trx)).rows;
      return { returned, counted };
    });
    expect(answered).toEqual({ returned: [{ id: 2 }, { id: 3 }], counted: [{ n: '3' }] });
  });

  it('fails the transaction where a held write fails: nothing of it is kept, the connection stays usable', async () => {
    const { db, rows } = await setup();
    await insert(db, 1, 'before');
    // A duplicate key in the middle of the held writes: the commit reports it.
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, 2, 'held, then rolled back');
        await insert(trx, 1, 'duplicate');
        await insert(trx, 3, 'never run');
      }),
    ).rejects.toThrow(/duplicate key/);
    // A bad value reported by the read that follows it.
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, 4, 'held');
        await sql`insert into items (id, amount) values (5, ${'not a number'}::numeric)`.execute(trx);
        await sql`select 1`.execute(trx);
      }),
    ).rejects.toThrow(/numeric/);
    // A value that cannot be sent (circular JSON): nothing goes on the wire.
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, 7, 'held');
        await sql`insert into items (id, doc) values (8, ${circular}::jsonb)`.execute(trx);
        await sql`select 1`.execute(trx);
      }),
    ).rejects.toThrow(/circular/i);
    // The caller gives up: its held writes are dropped.
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, 6, 'dropped');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // One pooled connection saw all of that and still works, statements named or not.
    for (let i = 0; i < 4; i++) {
      await db.transaction().execute(async (trx) => {
        await insert(trx, 10 + i, `after ${i}`);
      });
    }
    expect((await rows()).map((r) => [r.id, r.label])).toEqual([
      [1, 'before'],
      [10, 'after 0'],
      [11, 'after 1'],
      [12, 'after 2'],
      [13, 'after 3'],
    ]);
  });

  it('keeps a statement named by a pipeline that failed after parsing it', async () => {
    const { db, rows } = await setup();
    const upsert = (trx: Kysely<any>, id: number) =>
      sql`insert into items (id, label) values (${id}, ${`item ${id}`}) on conflict (id) do update set label = excluded.label`.execute(trx);
    // The statement is named from its second use; here it is parsed, then the pipeline fails.
    await db.transaction().execute(async (trx) => upsert(trx, 1));
    await expect(
      db.transaction().execute(async (trx) => {
        await upsert(trx, 2);
        await sql`insert into items (id) values (${'x'}::int)`.execute(trx);
      }),
    ).rejects.toThrow(/integer/);
    // Parsing the same name again would fail with "prepared statement … already exists".
    await db.transaction().execute(async (trx) => {
      await upsert(trx, 3);
      await upsert(trx, 4);
    });
    expect((await rows()).map((r) => r.id)).toEqual([1, 3, 4]);
  });
});
