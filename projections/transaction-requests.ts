import { sql, type RawBuilder } from 'kysely';

/**
 * The request id a transaction row carries and the swap-pair rule, written once for the
 * transactions read model (projections/transactions.ts) and the customer's list
 * (server/transactions/list.ts).
 *
 * The expression index `transactions_user_req` (migration 0015) is on
 * `(user_id, <reqOf>) where is_hidden = false and <carriesReq>`. PostgreSQL uses it only
 * for a query that writes the same expression with the same constants, so the pattern is a
 * literal in the SQL, never a bind parameter, and a query that looks up a group's legs
 * writes `visibleLegs` as it is here. A change here needs a migration that recreates the index.
 */

/** '(Req ID: {uuid})' in a note (spec 002): a lowercase hexadecimal-and-dash token. */
export const REQ_ID_PATTERN = '\\(Req ID: ([0-9a-f-]+)\\)';
/** What a note must contain for the pattern to match (the LIKE of `carriesReq`). */
const REQ_ID_MARK = '(Req ID: ';

/** The request id a row carries: the swap's own, or one written in its note. */
export function reqOf(alias: string): RawBuilder<string | null> {
  return sql`coalesce(${sql.ref(`${alias}.request_id`)}::text, substring(${sql.ref(`${alias}.note`)} from ${sql.lit(REQ_ID_PATTERN)}))`;
}

/** A cheap necessary condition for `reqOf` to be non-null, tested before the regular expression. */
export function carriesReq(alias: string): RawBuilder<boolean> {
  return sql`(${sql.ref(`${alias}.request_id`)} is not null or ${sql.ref(`${alias}.note`)} like ${sql.lit(`%${REQ_ID_MARK}%`)})`;
}

/** `carriesReq` for a row in memory. */
export function mayCarryReq(row: { request_id: string | null; note: string | null }): boolean {
  return row.request_id !== null || (row.note?.includes(REQ_ID_MARK) ?? false);
}

/**
 * The visible legs of the group (`userId`, `req`) in `table` as `alias`, read through the
 * expression index: `from <table> <alias> where …`. `req` is the right side of `=`: a value,
 * or `any(<array>)` for several groups at once.
 */
export function visibleLegs(table: RawBuilder<unknown>, alias: string, userId: RawBuilder<unknown>, req: RawBuilder<unknown>) {
  return sql`${table} as ${sql.id(alias)}
    where ${sql.ref(`${alias}.user_id`)} = ${userId} and ${sql.ref(`${alias}.is_hidden`)} = false
      and ${carriesReq(alias)} and ${reqOf(alias)} = ${req}`;
}

/**
 * A group of legs (rows aggregated as `alias`) is a swap pair: exactly two visible legs
 * sharing the request id, one negative (spent) and one positive (received). Spec 001
 * section 4, spec 002 section 4.
 */
export function isPairGroup(alias: string): RawBuilder<boolean> {
  const amount = sql.ref(`${alias}.amount`);
  return sql`(count(*) = 2 and count(*) filter (where ${amount} < 0) = 1 and count(*) filter (where ${amount} > 0) = 1)`;
}
