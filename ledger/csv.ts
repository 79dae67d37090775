/**
 * CSV cells for every file the app or the CLI writes (statements, journals, liabilities, staff
 * activity). A cell that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab
 * or a carriage return: OWASP "CSV injection") gets a leading apostrophe, so that it is shown as
 * text; a plain signed number (-12.5) stays a number, as finance files need their debits.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV text, CRLF line ends (RFC 4180), every cell through csvCell. */
export function csvText(rows: string[][]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
