import { sql, type Kysely, type Transaction } from 'kysely';

/**
 * Bulk writes as one statement on both drivers: `insert into t (…) select … from unnest($1::type[], …)`,
 * one array parameter per column. It is an ordinary unnamed statement, so it runs on any
 * server connection a pooler hands out (PgBouncer in transaction mode), where a COPY's
 * protocol or a named statement would need the same connection.
 */
export interface InsertColumn<R> {
  name: string;
  /** The column's SQL type (`uuid`, `text`, `numeric`, `timestamptz`, `text[]`, …). */
  type: string;
  /** The row's value: a string, a boolean, null, or for an array column a list of strings. */
  value: (row: R) => string | boolean | null | readonly (string | null)[];
}

/** An element that array_in would read otherwise unless quoted: empty, NULL, or with a delimiter, quote, backslash or space. */
const NEEDS_QUOTES = /^$|^null$|[{}",\\\s]/i;

/**
 * A list as a PostgreSQL array literal, built in one pass: an element is quoted (and its
 * quotes and backslashes escaped) only when array_in would otherwise read it as NULL or
 * split it. A replay writes every page's columns this way: the driver's own conversion of a
 * JS array quoted and escaped each element and built the text by repeated concatenation,
 * most of a replay's allocations (docs/performance.md).
 */
export function arrayLiteral(values: readonly (string | null)[]): string {
  return `{${values.map(element).join(',')}}`;
}

function element(v: string | null): string {
  if (v === null) return 'NULL';
  if (!NEEDS_QUOTES.test(v)) return v;
  return `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Writes `rows` into `table` (`schema.table`) on `db`'s connection, inside its transaction if any. */
export async function insertRows<R>(
  db: Kysely<any> | Transaction<any>,
  table: string,
  columns: readonly InsertColumn<R>[],
  rows: readonly R[],
): Promise<void> {
  if (rows.length === 0) return;
  // Each column travels as one array literal (an array column's rows as literals of a text[], cast back per row).
  const nested = columns.map((c) => c.type.endsWith('[]'));
  const params = columns.map((c, i) => {
    const values = rows.map((r) => {
      const v = c.value(r);
      return nested[i] ? arrayLiteral(v as readonly (string | null)[]) : typeof v === 'boolean' ? String(v) : (v as string | null);
    });
    return sql`${arrayLiteral(values)}::${sql.raw(nested[i] ? 'text' : c.type)}[]`;
  });
  const names = columns.map((_, i) => `c${i}`);
  const select = columns.map((c, i) => (nested[i] ? sql`${sql.ref(`v.${names[i]}`)}::${sql.raw(c.type)}` : sql.ref(`v.${names[i]}`)));
  await sql`
    insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c.name)))})
    select ${sql.join(select)} from unnest(${sql.join(params)}) as v (${sql.join(names.map((n) => sql.id(n)))})`.execute(db);
}
