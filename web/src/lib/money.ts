import { Decimal } from 'decimal.js';
import { CRYPTO_DECIMALS, Dec, fixed, groupThousands, toDecimal } from '@ledger/display-amount.js';

// The number formatting shared with the server's texts lives in the ledger; the screens import it from here.
export { CRYPTO_DECIMALS, Dec, formatAmount, toDecimal, ZERO } from '@ledger/display-amount.js';

/*
 * Amounts and dates as the customer screens show them (spec 001 section 9, "Display").
 * Every amount goes through decimal.js: the API sends decimal strings, and a JS float
 * never holds money here.
 */

/** Decimals of a signed amount in the overview's recent transactions. */
export const SIGNED_DECIMALS = 4;
/** Decimals of a USD value. */
export const USD_DECIMALS = 2;

/** A decimal from what the customer typed, or null when it is not a plain positive-or-zero number. */
export function parseAmountInput(text: string): Decimal | null {
  const t = text.trim();
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  return new Dec(t);
}

/**
 * What an amount input keeps of a keystroke or paste: digits and one decimal point
 * (the first one), nothing else.
 */
export function cleanAmountInput(text: string): string {
  let seenPoint = false;
  let out = '';
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if (ch === '.' && !seenPoint) {
      seenPoint = true;
      out += ch;
    }
  }
  return out;
}

/** A crypto amount with 8 decimals and thousands separators: '1,234.50000000'. */
export function formatCrypto(value: Decimal.Value | null | undefined): string {
  return groupThousands(fixed(toDecimal(value), CRYPTO_DECIMALS));
}

/** A USD value with 2 decimals and thousands separators: '$1,234.57', '-$0.50'. */
export function formatUsd(value: Decimal.Value | null | undefined): string {
  const text = groupThousands(fixed(toDecimal(value), USD_DECIMALS));
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** A signed amount with 4 decimals: '+0.2500', '-1,000.0000', '0.0000'. */
export function formatSigned(value: Decimal.Value | null | undefined, decimals = SIGNED_DECIMALS): string {
  const text = groupThousands(fixed(toDecimal(value), decimals));
  if (text.startsWith('-') || /^[0.,]+$/.test(text)) return text;
  return `+${text}`;
}

/** A 24 h change in percent with its sign: '+1.23%', '-0.40%'. */
export function formatPercent(value: Decimal.Value | null | undefined): string {
  return `${formatSigned(value, 2)}%`;
}

// ------------------------------------------------------------------------- dates

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parts(date: Date) {
  return {
    dd: pad(date.getDate()),
    MMM: MONTHS[date.getMonth()]!,
    yyyy: String(date.getFullYear()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
}

/**
 * A calendar day 'YYYY-MM-DD' as 'dd MMM' (the balance chart's days); the text as given when it
 * is not such a day. No Intl: a first Intl date format costs the overview's first render ~20 ms.
 */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${match[3]} ${month}` : day;
}

/** 'dd MMM | HH:mm' in local time (the overview's recent transactions); '' for no date. */
export function formatShortDateTime(value: Date | string | number | null | undefined): string {
  const date = toDate(value);
  if (!date) return '';
  const p = parts(date);
  return `${p.dd} ${p.MMM} | ${p.HH}:${p.mm}`;
}

/** 'dd MMM yyyy | HH:mm' in local time (the transaction list). */
export function formatListDateTime(value: Date | string | number | null | undefined): string {
  const date = toDate(value);
  if (!date) return '';
  const p = parts(date);
  return `${p.dd} ${p.MMM} ${p.yyyy} | ${p.HH}:${p.mm}`;
}

/** 'dd MMM yyyy, HH:mm:ss' in local time (the transaction detail). */
export function formatFullDateTime(value: Date | string | number | null | undefined): string {
  const date = toDate(value);
  if (!date) return '';
  const p = parts(date);
  return `${p.dd} ${p.MMM} ${p.yyyy}, ${p.HH}:${p.mm}:${p.ss}`;
}
