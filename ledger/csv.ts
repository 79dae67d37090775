/*
 * Every CSV the product writes (the customer's statement, the Staff activity list, the
 * operator CLI's --csv) goes through this one writer, so that no cell can attack the
 * spreadsheet that opens the file (docs/security.md, "CSV injection").
 */

/** What a spreadsheet may read as a formula or a command when a cell starts with it (OWASP: CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A plain decimal number, such as a signed amount (-12.5): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Whether a cell would start with a formula character, and is not a plain signed number. */
export function isFormulaLike(value: string): boolean {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value);
}

/**
 * One field of a CSV row. A value that a spreadsheet could take for a formula gets a single
 * quote in front (so it shows as text, the quote visible) and is quoted; any field holding a
 * comma, a double quote or a line break is quoted with its quotes doubled (RFC 4180). A plain
 * decimal number keeps its sign, so amounts stay numbers.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  if (isFormulaLike(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV row, ending with CRLF (RFC 4180). */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Rows as CSV text, every cell through csvCell, each row ending with CRLF (RFC 4180). */
export function csvText(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map(csvRow).join('');
}
