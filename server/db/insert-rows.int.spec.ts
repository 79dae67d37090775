import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { arrayLiteral, insertRows, type InsertColumn } from './insert-rows.js';

interface Row {
  id: string;
  label: string | null;
  amount: string;
  at: string;
  done: boolean;
  tags: (string | null)[];
}

const COLUMNS: InsertColumn<Row>[] = [
  { name: 'id', type: 'uuid', value: (r) => r.id },
  { name: 'label', type: 'text', value: (r) => r.label },
  { name: 'amount', type: 'numeric', value: (r) => r.amount },
  { name: 'at', type: 'timestamptz', value: (r) => r.at },
  { name: 'done', type: 'boolean', value: (r) => r.done },
  { name: 'tags', type: 'text[]', value: (r) => r.tags },
];

describe('insertRows (one insert from unnest, on both databases)', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('writes every value as given: quotes, backslashes, tabs, new lines, nulls, ragged arrays', async () => {
    database = await createTestDatabase({ migrate: false });
    const db = database.db as Kysely<any>;
    await sql`create table items (id uuid primary key, label text, amount numeric(38, 18), at timestamptz, done boolean, tags text[])`.execute(
      db,
    );
    const rows: Row[] = [
      {
        id: '00000000-0000-4000-8000-000000000001',
        label: 'a "quoted", {braced} \\ back\tslash\nline',
        amount: '0.000000000000000001',
        at: '2026-01-02T03:04:05.123456Z',
        done: true,
        tags: ['x', 'y, "z"', 'NULL', '{}'],
      },
      {
        id: '00000000-0000-4000-8000-000000000002',
        label: null,
        amount: '12345678901234567890.5',
        at: '1999-12-31T23:59:59Z',
        done: false,
        tags: [null],
      },
      { id: '00000000-0000-4000-8000-000000000003', label: '', amount: '-1', at: '2026-06-01T00:00:00+02:00', done: false, tags: [] },
      {
        id: '00000000-0000-4000-8000-000000000004',
        label: 'null',
        amount: '2',
        at: '2026-06-01T00:00:00Z',
        done: true,
        tags: ['', ' lead', 'trail ', 'null', 'Null', 'plain', 'é'],
      },
    ];
    await db.transaction().execute((trx) => insertRows(trx, 'public.items', COLUMNS, rows));
    const { rows: back } = await sql<Record<string, unknown>>`
      select id, label, amount::text, to_char(at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as at, done, tags from items order by id`.execute(
      db,
    );
    expect(back).toEqual([
      {
        id: rows[0]!.id,
        label: rows[0]!.label,
        amount: '0.000000000000000001',
        at: '2026-01-02 03:04:05.123456',
        done: true,
        tags: ['x', 'y, "z"', 'NULL', '{}'],
      },
      {
        id: rows[1]!.id,
        label: null,
        amount: '12345678901234567890.500000000000000000',
        at: '1999-12-31 23:59:59.000000',
        done: false,
        tags: [null],
      },
      { id: rows[2]!.id, label: '', amount: '-1.000000000000000000', at: '2026-05-31 22:00:00.000000', done: false, tags: [] },
      {
        id: rows[3]!.id,
        label: 'null',
        amount: '2.000000000000000000',
        at: '2026-06-01 00:00:00.000000',
        done: true,
        tags: ['', ' lead', 'trail ', 'null', 'Null', 'plain', 'é'],
      },
    ]);
  });

  it('writes nothing for no rows, and nothing at all when one row is refused', async () => {
    database = await createTestDatabase({ migrate: false });
    const db = database.db as Kysely<any>;
    await sql`create table items (id uuid primary key, label text, amount numeric(38, 18), at timestamptz, done boolean, tags text[])`.execute(
      db,
    );
    await insertRows(db, 'public.items', COLUMNS, []);
    const ok = {
      id: '00000000-0000-4000-8000-000000000001',
      label: 'fine',
      amount: '1',
      at: '2026-01-01T00:00:00Z',
      done: false,
      tags: [],
    };
    await expect(
      insertRows(db, 'public.items', COLUMNS, [ok, { ...ok, id: '00000000-0000-4000-8000-000000000002', amount: 'not a number' }]),
    ).rejects.toThrow(/numeric/);
    await expect(insertRows(db, 'public.items', COLUMNS, [ok, ok])).rejects.toThrow(/duplicate key/);
    expect((await sql<{ n: number }>`select count(*)::int as n from items`.execute(db)).rows[0]!.n).toBe(0);
  });

  it('quotes array elements so that none is read as NULL or split', () => {
    expect(arrayLiteral(['a,b', 'NULL', null, 'x"y\\'])).toBe('{"a,b","NULL",NULL,"x\\"y\\\\"}');
    expect(arrayLiteral(['', 'null', ' x', 'BTC', '-1.01'])).toBe('{"","null"," x",BTC,-1.01}');
  });
});
