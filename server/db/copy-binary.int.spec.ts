import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { copyBinaryRows, copyRows, copyValue, CopyText } from './copy-from.js';
import { CopyBinary, isoMicros } from './copy-binary.js';

/** One row of every type the binary writer has, and how the text format writes the same values. */
interface Row {
  id: string;
  n: bigint;
  label: string | null;
  amount: string;
  flag: boolean;
  at: Date;
  sent: string;
  tags: string[];
  amounts: string[];
}

const COLUMNS = ['id', 'n', 'label', 'amount', 'flag', 'at', 'sent', 'tags', 'amounts'];
const TABLE = (name: string) => sql.raw(`create table ${name} (
  k serial primary key, id uuid, n int8, label text, amount numeric(38, 18), flag boolean, at timestamptz, sent timestamptz,
  tags text[], amounts numeric(38, 18)[])`);

/** An array literal for COPY's text format: every element quoted. */
const arrayText = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

function asText(rows: Row[]): CopyText {
  const out = new CopyText();
  for (const r of rows) {
    out.row([r.id, r.n.toString(), r.label, r.amount, r.flag, r.at.toISOString(), r.sent, arrayText(r.tags), arrayText(r.amounts)]);
  }
  return out;
}

function asBinary(rows: Row[]): CopyBinary {
  const out = new CopyBinary();
  for (const r of rows) {
    const sent = isoMicros(r.sent);
    if (sent === null) throw new Error(`isoMicros does not read ${r.sent}`);
    out.row(COLUMNS.length).uuid(r.id).int8(r.n).text(r.label).numeric(r.amount).bool(r.flag).timestamp(r.at).timestampMicros(sent)
      .textArray(r.tags, (t) => t).numericArray(r.amounts, (a) => a);
  }
  return out;
}

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** Decimal texts as amounts arrive, and other forms numeric_in reads: leading zeros, a bare zero, an exponent. */
const amount = fc.oneof(
  fc.tuple(fc.boolean(), digits(1, 20), fc.option(digits(1, 24), { nil: undefined })).map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === undefined ? '' : `.${f}`}`),
  fc.constantFrom('0', '-0', '0.000', '-0.0', '10000', '0.0001', '9999.9999', '1e-7', '-2.5E+3', '.5', '123456789012345678.000000000000000001'),
);
const text = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('', 'tab\there', 'two\nlines\r\n', 'back\\slash \\N', 'NULL', '"quoted"'));
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** RFC 3339 texts the event schema accepts: seconds always, any fraction, Z or an offset. */
const iso = fc
  .tuple(
    fc.integer({ min: 1800, max: 2200 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.option(digits(1, 12), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 59 })), { nil: undefined }),
  )
  .map(([y, mo, d, h, mi, s, frac, off]) =>
    `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac === undefined ? '' : `.${frac}`}${off === undefined ? 'Z' : `${off[0]}${pad(off[1], 2)}:${pad(off[2], 2)}`}`,
  );
const row: fc.Arbitrary<Row> = fc.record({
  id: fc.uuid().map((u) => (Math.random() < 0.5 ? u.toUpperCase() : u)),
  n: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  label: fc.option(text, { nil: null }),
  amount,
  flag: fc.boolean(),
  at: fc.date({ min: new Date('0100-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
  sent: iso,
  tags: fc.array(text, { maxLength: 4 }),
  amounts: fc.array(amount, { maxLength: 4 }),
});

describe('COPY in the binary format (CopyBinary)', () => {
  let database: TestDatabase;
  let db: Kysely<any>;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    db = database.db;
    await TABLE('as_text').execute(db);
    await TABLE('as_binary').execute(db);
  });
  afterAll(() => database.close());

  /** Both tables' rows as PostgreSQL prints them, in the order they were written. */
  const stored = async (name: string) =>
    (await sql<{ r: string }>`select (${sql.raw(`${name}.id, n, label, amount, flag, at, sent, tags, amounts`)})::text as r from ${sql.table(name)} order by k`.execute(db)).rows.map((x) => x.r);

  it('stores exactly what the text format stores, for every type it writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 30 }), async (rows) => {
        await sql`truncate as_text, as_binary restart identity`.execute(db);
        await db.transaction().execute(async (trx) => {
          await copyRows(trx, 'public.as_text', COLUMNS, asText(rows).bytes());
          await copyBinaryRows(trx, 'public.as_binary', COLUMNS, asBinary(rows));
        });
        const [a, b] = [await stored('as_text'), await stored('as_binary')];
        expect(b).toEqual(a);
        expect(b).toHaveLength(rows.length);
      }),
      { numRuns: 60 },
    );
  });

  it('writes NULL for a null uuid or text, and nothing for no rows', async () => {
    await sql`truncate as_binary restart identity`.execute(db);
    const out = new CopyBinary().row(3).uuid(null).text(null).null();
    await db.transaction().execute((trx) => copyBinaryRows(trx, 'public.as_binary', ['id', 'label', 'amount'], out));
    const { rows } = await sql<{ id: null; label: null; amount: null }>`select id, label, amount from as_binary`.execute(db);
    expect(rows).toEqual([{ id: null, label: null, amount: null }]);
    await copyBinaryRows(db, 'public.as_binary', ['id'], new CopyBinary());
    expect((await sql<{ n: number }>`select count(*)::int as n from as_binary`.execute(db)).rows[0]!.n).toBe(1);
  });

  it('refuses a row the server cannot read, rolls back with its transaction, and leaves the connection usable', async () => {
    await sql`truncate as_binary restart identity`.execute(db);
    await db.connection().execute(async (conn) => {
      // A value of the wrong width for its column: three bytes of text where the table has a uuid.
      await expect(copyBinaryRows(conn, 'public.as_binary', ['id'], new CopyBinary().row(1).text('abc'))).rejects.toThrow(/insufficient data|binary data format/);
      await expect(
        conn.transaction().execute(async (trx) => {
          await copyBinaryRows(trx, 'public.as_binary', ['label'], new CopyBinary().row(1).text('kept until the rollback'));
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await copyBinaryRows(conn, 'public.as_binary', ['label'], new CopyBinary().row(1).text('after the errors'));
    });
    const { rows } = await sql<{ label: string }>`select label from as_binary`.execute(db);
    expect(rows).toEqual([{ label: 'after the errors' }]);
  });
});

describe('CopyBinary and isoMicros on their own', () => {
  it('refuses what is no uuid or no number, and any write after the bytes were taken', () => {
    for (const bad of ['', 'not-a-uuid', 'b239c1ed-5f4b-45d5-afcb-3903cf05e64', 'b239c1ed_5f4b-45d5-afcb-3903cf05e647', 'g239c1ed-5f4b-45d5-afcb-3903cf05e647', 'b239c1ed-5f4b-45d5-afcb-3903cf05e6ä7']) {
      expect(() => new CopyBinary().row(1).uuid(bad), bad).toThrow(/invalid uuid/);
    }
    for (const bad of ['', '-', 'abc', '1.2.3', '1,5']) expect(() => new CopyBinary().row(1).numeric(bad), bad).toThrow();
    const out = new CopyBinary().row(1).bool(true);
    out.bytes();
    expect(() => out.row(1)).toThrow(/already taken/);
  });

  it('reads RFC 3339 timestamps to the microsecond and nothing else', () => {
    expect(isoMicros('2026-11-25T10:20:30.123Z')).toBe(Date.parse('2026-11-25T10:20:30.123Z') * 1000);
    expect(isoMicros('2026-11-25T10:20:30Z')).toBe(Date.parse('2026-11-25T10:20:30Z') * 1000);
    expect(isoMicros('2026-11-25T10:20:30.1234567+01:30')).toBe((Date.parse('2026-11-25T08:50:30Z') + 123) * 1000 + 457);
    expect(isoMicros('2024-02-29T00:00:00.000Z')).toBe(Date.parse('2024-02-29T00:00:00Z') * 1000);
    for (const other of ['2026-11-25', '2026-11-25T10:20Z', '2026-11-25 10:20:30Z', '2026-11-25T10:20:30', '2025-02-29T00:00:00.000Z', '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z', '2026-11-25T24:00:00Z', '2026-11-25T10:20:30+16:00', '0050-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', 'yesterday']) {
      expect(isoMicros(other), other).toBeNull();
    }
  });
});
