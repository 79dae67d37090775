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

/** A list as a PostgreSQL array literal, each element quoted (unnest cannot take a ragged two-dimensional array). */
export function arrayLiteral(values: readonly (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}

/** Writes `rows` into `table` (`schema.table`) on `db`'s connection, inside its transaction if any. */
export async function insertRows<R>(db: Kysely<any> | Transaction<any>, table: string, columns: readonly InsertColumn<R>[], rows: readonly R[]): Promise<void> {
  if (rows.length === 0) return;
  // An array column travels as a text[] of array literals and is cast back per row.
  const nested = columns.map((c) => c.type.endsWith('[]'));
  const params = columns.map((c, i) => {
    const values = rows.map(c.value);
    const list = nested[i] ? values.map((v) => arrayLiteral(v as readonly (string | null)[])) : values;
    return sql`${list}::${sql.raw(nested[i] ? 'text' : c.type)}[]`;
  });
  const names = columns.map((_, i) => `c${i}`);
  const select = columns.map((c, i) => (nested[i] ? sql`${sql.ref(`v.${names[i]}`)}::${sql.raw(c.type)}` : sql.ref(`v.${names[i]}`)));
  await sql`
    insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c.name)))})
    select ${sql.join(select)} from unnest(${sql.join(params)}) as v (${sql.join(names.map((n) => sql.id(n)))})`.execute(db);
}
