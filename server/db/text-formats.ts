/**
 * SQL expressions that write values in the answers' formats, so that the server passes them
 * on instead of parsing and formatting them again (docs/decisions.md, "The transactions page is
 * formatted by the query").
 */

/** `to_char` pattern of `Date.prototype.toISOString` (both keep milliseconds, dropping the rest). */
const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** A timestamptz as `toISOString` writes it: UTC with milliseconds (null stays null). */
export function isoTimeText(column: string): string {
  return `to_char(${column} at time zone 'UTC', ${ISO_UTC})`;
}

/** A numeric as `formatAmount` writes it: no trailing zeros, no exponent. */
export function amountText(column: string): string {
  return `trim_scale(${column})::text`;
}
