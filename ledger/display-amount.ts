import { Decimal } from 'decimal.js';

/*
 * Amounts as people read them (spec 001 section 9, "Display"), shared by the screens
 * (web/src/lib/money.ts) and the texts the server writes (notifications), so a bell item and
 * a screen show the same number. Every amount goes through decimal.js, never a JS float.
 */

/** Enough precision for any sum or product the screens make; plain notation, never 1e-7. */
export const Dec = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 });
export type Dec = Decimal;

export const ZERO = new Dec(0);

/** Decimals of a crypto balance. */
export const CRYPTO_DECIMALS = 8;

/** A decimal from what the API sent (string or number); anything unreadable counts as 0. */
export function toDecimal(value: Decimal.Value | null | undefined): Decimal {
  if (value === null || value === undefined) return ZERO;
  if (typeof value === 'string' && value.trim() === '') return ZERO;
  try {
    const d = new Dec(value);
    return d.isFinite() ? d : ZERO;
  } catch {
    return ZERO;
  }
}

/** Thousands separators on a plain fixed-point string: '-1234567.5' as '-1,234,567.5'. */
export function groupThousands(fixed: string): string {
  const negative = fixed.startsWith('-');
  const body = negative ? fixed.slice(1) : fixed;
  const [int = '0', frac] = body.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/** '-0.00' reads oddly: a value that rounds to zero is shown without a sign. */
export function fixed(value: Decimal, decimals: number): string {
  const rounded = value.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
  return rounded.isZero() ? new Dec(0).toFixed(decimals) : rounded.toFixed(decimals);
}

/** Any other amount (fees, totals): 2 to 6 decimals, thousands separators: '1.01', '0.000101'. */
export function formatAmount(value: Decimal.Value | null | undefined, minDecimals = 2, maxDecimals = 6): string {
  const d = toDecimal(value).toDecimalPlaces(maxDecimals, Decimal.ROUND_HALF_UP);
  const places = Math.min(maxDecimals, Math.max(minDecimals, d.decimalPlaces()));
  return groupThousands(fixed(d, places));
}
