import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { COPY_NULL, copyFromBlob, copyRows, CopyText, copyValue, isCopyFromStdin } from './copy-from.js';

const LABELS = ['plain', 'tab\there', 'two\nlines\r\n', 'back\\slash \\N', 'naïve ✓', ''];

describe('copy from stdin through Kysely', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function setup() {
    database = await createTestDatabase({ migrate: false });
    const db = database.db;
    await sql`create table copied (id int primary key, label text, tags text[], amount numeric(38, 18))`.execute(db);
    return db;
  }

  it('writes the rows exactly, escapes included, on the caller connection and inside its transaction', async () => {
    const db = await setup();
    const labels = LABELS;
    const lines = labels.map((label, i) => `${i}\t${copyValue(label)}\t${copyValue('{a,"b c","d\\"e",NULL}')}\t${i}.5\n`).join('') + `99\t${COPY_NULL}\t${COPY_NULL}\t${COPY_NULL}\n`;
    await db.transaction().execute(async (trx) => copyRows(trx, 'public.copied', ['id', 'label', 'tags', 'amount'], lines));
    const { rows } = await sql<{ id: number; label: string | null; tags: (string | null)[] | null; amount: string | null }>`
      select id, label, tags, amount::text as amount from copied order by id`.execute(db);
    expect(rows).toEqual([
      ...labels.map((label, i) => ({ id: i, label, tags: ['a', 'b c', 'd"e', null], amount: `${i}.500000000000000000` })),
      { id: 99, label: null, tags: null, amount: null },
    ]);
  });

  it('writes the same rows built with CopyText, thousands of them (its buffer grows past its first size)', async () => {
    const db = await setup();
    const rows = new CopyText();
    const expected: { id: number; label: string | null; tags: (string | null)[] | null; amount: string | null }[] = [];
    for (let i = 0; i < 3000; i++) {
      const label = `${LABELS[i % LABELS.length]} ${i}`;
      rows.row([String(i), label, '{a,"b c","d\\"e",NULL}', `${i}.5`]);
      expected.push({ id: i, label, tags: ['a', 'b c', 'd"e', null], amount: `${i}.500000000000000000` });
    }
    rows.row(['99999', null, null, null]);
    expected.push({ id: 99999, label: null, tags: null, amount: null });
    expect(rows.length).toBeGreaterThan(16 * 1024);
    await db.transaction().execute(async (trx) => copyRows(trx, 'public.copied', ['id', 'label', 'tags', 'amount'], rows.bytes()));
    const { rows: stored } = await sql<{ id: number; label: string | null; tags: (string | null)[] | null; amount: string | null }>`
      select id, label, tags, amount::text as amount from copied order by id`.execute(db);
    expect(stored).toEqual(expected);
  });

  it('rolls back with its transaction, reports a bad row or a refused statement, and leaves the connection usable', async () => {
    const db = await setup();
    await expect(
      db.transaction().execute(async (trx) => {
        await copyRows(trx, 'public.copied', ['id', 'label'], '1\tkept until the rollback\n');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // One connection throughout: the one that saw the errors writes the last row.
    await db.connection().execute(async (conn) => {
      await expect(copyRows(conn, 'public.copied', ['id', 'label'], '2\tfine\nnot a number\tbad\n')).rejects.toThrow(/integer/);
      await expect(copyRows(conn, 'public.copied', ['id', 'label'], '3\tone\n3\tagain\n')).rejects.toThrow(/duplicate key/);
      // Refused before it starts: the rows sent with the statement are dropped, not read as statements.
      await expect(copyRows(conn, 'public.copied', ['id', 'no_such_column'], '5\tnever\n')).rejects.toThrow(/no_such_column/);
      await expect(copyRows(conn, 'public.no_such_table', ['id'], '6\n')).rejects.toThrow(/no_such_table/);
      await copyRows(conn, 'public.copied', ['id', 'label'], '4\tafter the errors\n');
      await copyRows(conn, 'public.copied', ['id', 'label'], '');
    });
    const { rows } = await sql<{ id: number; label: string }>`select id, label from copied order by id`.execute(db);
    expect(rows).toEqual([{ id: 4, label: 'after the errors' }]);
  });

  it('recognises only copy … from stdin with one string or bytes parameter', () => {
    expect(isCopyFromStdin('copy "public"."t" ("a", "b") from stdin', ['1\t2\n'])).toBe(true);
    expect(isCopyFromStdin('copy "public"."t" ("a", "b") from stdin', [Buffer.from('1\t2\n')])).toBe(true);
    expect(isCopyFromStdin('copy t from stdin', [])).toBe(false);
    expect(isCopyFromStdin('copy t from stdin', [1])).toBe(false);
    expect(isCopyFromStdin('copy t to stdout', ['x'])).toBe(false);
    expect(isCopyFromStdin('select $1', ['copy t from stdin'])).toBe(false);
    expect(isCopyFromStdin('copy t from stdin; drop table t', ['x'])).toBe(false);
    expect(isCopyFromStdin('copy "public"."t" ("a") from stdin with (format binary)', [Buffer.from('PGCOPY')])).toBe(true);
    expect(isCopyFromStdin('copy t from stdin with (format csv)', ['x'])).toBe(false);
    expect(copyFromBlob('copy "public"."t" ("a") from stdin with (format binary)')).toBe(`copy "public"."t" ("a") from '/dev/blob' with (format binary)`);
    expect(copyFromBlob('copy t from stdin')).toBe(`copy t from '/dev/blob'`);
  });
});
