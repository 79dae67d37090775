import { Decimal } from 'decimal.js';

/**
 * Amounts are decimal strings in events and JSON and `numeric(38, 18)` in Postgres.
 * This clone keeps enough precision that no sum or product we make is ever rounded
 * by accident; rounding happens only where a rule says so (fees, quotes).
 */
export const Money = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });
export type Money = Decimal;

/** Digits after the point that the ledger stores (`numeric(38, 18)`). */
export const SCALE = 18;
/** Digits before the point that fit in `numeric(38, 18)`. */
export const MAX_INTEGER_DIGITS = 20;

export const ZERO = new Money(0);

export function money(value: string | number | Decimal): Decimal {
  return new Money(value);
}

/** The canonical string of an amount: no exponent, no trailing zeros, '-0' as '0'. */
export function formatAmount(value: Decimal): string {
  if (value.isZero()) return '0';
  return value.toFixed();
}

/** `formatAmount`'s output: no sign on zero, no leading or trailing zeros, no exponent. */
const CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/**
 * An amount's text in `formatAmount`'s form. Amounts in events are written that way, so
 * the common case is a test, not a parse; anything else (a `numeric` column's trailing
 * zeros, an exponent) goes through decimal.js. Throws, as `money` does, on a non-number.
 */
export function canonicalAmount(text: string): string {
  return CANONICAL.test(text) && text !== '-0' ? text : formatAmount(new Money(text));
}

/** True when an amount text starts with a minus sign (decimal.js's `isNegative`, so '-0' counts). */
export function isNegativeAmount(text: string): boolean {
  return text.charCodeAt(0) === 45; /* - */
}

/** The negation of a canonical amount text (`canonicalAmount`), exact, with no parse. */
export function negatedAmount(canonical: string): string {
  if (canonical === '0') return '0';
  return isNegativeAmount(canonical) ? canonical.slice(1) : `-${canonical}`;
}

/** The canonical sum of two amount texts. */
export function addAmounts(a: string, b: string): string {
  if (b === '0') return canonicalAmount(a);
  if (a === '0') return canonicalAmount(b);
  return formatAmount(new Money(a).plus(b));
}

const AMOUNT_SHAPE = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export type AmountCheck = { ok: true; value: Decimal } | { ok: false; reason: string };

/**
 * Reads an amount a client sent. Strings only (a JSON number may already have lost
 * digits), at most 18 decimals, within `numeric(38, 18)`.
 */
export function parseAmount(input: unknown, { allowNegative = false, allowZero = false } = {}): AmountCheck {
  if (typeof input !== 'string' || !AMOUNT_SHAPE.test(input.trim())) {
    return { ok: false, reason: 'must be a decimal number written as a string, like "0.015"' };
  }
  const text = input.trim();
  const [intPart, fracPart = ''] = text.replace('-', '').split('.');
  if (fracPart.length > SCALE) return { ok: false, reason: `must have at most ${SCALE} decimal places` };
  if (intPart!.length > MAX_INTEGER_DIGITS) return { ok: false, reason: 'is too large' };
  const value = new Money(text);
  if (!allowNegative && value.isNegative() && !value.isZero()) return { ok: false, reason: 'must not be negative' };
  if (!allowZero && value.isZero()) return { ok: false, reason: 'must be greater than 0' };
  return { ok: true, value };
}

/** Rounds to the stored scale, away from zero: a fee is never undercharged by rounding. */
export function roundFeeUp(value: Decimal): Decimal {
  return value.toDecimalPlaces(SCALE, Decimal.ROUND_UP);
}

const PLAIN_AMOUNT = /^-?\d+(?:\.\d+)?$/;
const TENS: bigint[] = [1n];
/** 10^n as a bigint. */
function ten(n: number): bigint {
  while (TENS.length <= n) TENS.push(TENS[TENS.length - 1]! * 10n);
  return TENS[n]!;
}

/**
 * Exact sums of amount texts in integers (bigint) of 10^-scale: several times faster than
 * decimal.js for the sums a replay folds, one per event. The scale starts at the ledger's
 * 18 decimals and grows, for every sum kept here, when an amount has more. `key` names a
 * sum; a new one starts at zero.
 */
export class AmountSums<K> {
  private scale = SCALE;
  private readonly sums = new Map<K, bigint>();

  /** Adds `text` (an amount; negated with `sign` -1) to the sum `key`. */
  add(key: K, text: string, sign: 1 | -1 = 1): void {
    const units = this.units(text);
    const sum = this.sums.get(key);
    const value = sign === 1 ? units : -units;
    this.sums.set(key, sum === undefined ? value : sum + value);
  }

  /** The canonical text of the sum `key` (`formatAmount`'s form); '0' for one never added to. */
  get(key: K): string {
    const n = this.sums.get(key) ?? 0n;
    if (n === 0n) return '0';
    const negative = n < 0n;
    const digits = (negative ? -n : n).toString().padStart(this.scale + 1, '0');
    const whole = digits.slice(0, digits.length - this.scale);
    const fraction = digits.slice(digits.length - this.scale).replace(/0+$/, '');
    return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
  }

  /** `text` in units of 10^-scale, exact (the scale grows first if the text has more decimals). */
  private units(text: string): bigint {
    if (!PLAIN_AMOUNT.test(text)) text = new Money(text).toFixed(); // an exponent, a '+': its plain digits
    const dot = text.indexOf('.');
    if (dot < 0) return BigInt(text) * ten(this.scale);
    const decimals = text.length - dot - 1;
    if (decimals > this.scale) this.rescale(decimals);
    return BigInt(text.slice(0, dot) + text.slice(dot + 1)) * ten(this.scale - decimals);
  }

  private rescale(scale: number): void {
    const factor = ten(scale - this.scale);
    for (const [key, n] of this.sums) this.sums.set(key, n * factor);
    this.scale = scale;
  }
}
