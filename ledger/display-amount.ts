import { Decimal } from 'decimal.js';

/*
 * The one format module: amounts, dates and times as people read them (spec 001 section 9,
 * "Display"; spec 002 section 9), shared by the screens (web/src/lib/money.ts re-exports it)
 * and the texts the server writes (notifications, event trail, mails), so a bell item, a mail
 * and a screen say the same thing the same way. Every amount goes through decimal.js, never a
 * JS float. Each place's precision has its named form below.
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

/** Decimals of a signed amount in the customer overview's recent transactions. */
export const SIGNED_DECIMALS = 4;
/** Decimals of a USD value. */
export const USD_DECIMALS = 2;
/** What an amount that is missing reads (spec 002). */
export const MISSING_AMOUNT = '--.--';

/** A crypto amount with 8 decimals and thousands separators (balances, the swap confirmation): '1,234.50000000'. */
export function formatCrypto(value: Decimal.Value | null | undefined): string {
  return groupThousands(fixed(toDecimal(value), CRYPTO_DECIMALS));
}

/** A USD value with 2 decimals and thousands separators: '$1,234.57', '-$0.50'. */
export function formatUsd(value: Decimal.Value | null | undefined): string {
  const text = groupThousands(fixed(toDecimal(value), USD_DECIMALS));
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** A signed amount with 4 decimals (the overview's recent transactions): '+0.2500', '-1,000.0000', '0.0000'. */
export function formatSigned(value: Decimal.Value | null | undefined, decimals = SIGNED_DECIMALS): string {
  const text = groupThousands(fixed(toDecimal(value), decimals));
  if (text.startsWith('-') || /^[0.,]+$/.test(text)) return text;
  return `+${text}`;
}

/** A 24 h change in percent with its sign: '+1.23%', '-0.40%'. */
export function formatPercent(value: Decimal.Value | null | undefined): string {
  return `${formatSigned(value, 2)}%`;
}

/**
 * A transaction's amount as the staff screens show it (spec 002: 2 to 8 decimals and a sign,
 * '--.--' when missing): '+5,000.00', '-0.00012345', '0.00'. With `signed: false` the amount
 * without its sign, as a sentence tells it ('You received 5,000.00 USDT': the bell, the mails).
 */
export function formatTransactionAmount(value: Decimal.Value | null | undefined, { signed = true } = {}): string {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return MISSING_AMOUNT;
  const d = toDecimal(value);
  const text = formatAmount(d.abs(), 2, CRYPTO_DECIMALS);
  if (!signed || /^[0.,]+$/.test(text)) return text;
  return d.isNegative() ? `-${text}` : `+${text}`;
}

// ------------------------------------------------------------------------- dates

/*
 * Dates and times, the same forms on every screen and in every mail (spec 001 section 9,
 * spec 002 section 9), built by hand: no Intl, whose first date format costs the customer
 * overview's first render ~20 ms, and no locale that could change a form.
 * - formatListDateTime, the short form: 'dd MMM yyyy | HH:mm' (lists, rows, history).
 * - formatFullDateTime, the long form: 'dd MMM yyyy, HH:mm:ss' (details, the mails).
 * - formatListDate: 'dd MMM yyyy' (a day: user lists, date filters).
 * - formatShortDateTime: 'dd MMM | HH:mm' (the overview's recent transactions, as spec 001 says).
 * - formatDay: 'dd MMM' (the balance chart's days).
 * A screen shows the viewer's time zone (the browser's); a mail, sent by the server that does not
 * know the reader's zone, shows UTC and says so: `{ zone: 'UTC' }` adds ' UTC'.
 */

export type DateInput = Date | string | number | null | undefined;
export type DateZone = { zone?: 'local' | 'UTC' };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad = (n: number) => String(n).padStart(2, '0');
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parts(value: DateInput, zone: DateZone['zone'] = 'local') {
  const date = toDate(value);
  if (!date) return null;
  const utc = zone === 'UTC';
  return {
    dd: pad(utc ? date.getUTCDate() : date.getDate()),
    MMM: MONTHS[utc ? date.getUTCMonth() : date.getMonth()]!,
    yyyy: String(utc ? date.getUTCFullYear() : date.getFullYear()),
    HH: pad(utc ? date.getUTCHours() : date.getHours()),
    mm: pad(utc ? date.getUTCMinutes() : date.getMinutes()),
    ss: pad(utc ? date.getUTCSeconds() : date.getSeconds()),
    zone: utc ? ' UTC' : '',
  };
}

/** A calendar day 'YYYY-MM-DD' as 'dd MMM' (the balance chart's days); the text as given when it is not such a day. */
export function formatDay(day: string): string {
  const match = CALENDAR_DAY.exec(day);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${match[3]} ${month}` : day;
}

/**
 * 'dd MMM yyyy' (e.g. '05 Mar 2025'); '' for no date. A calendar day 'YYYY-MM-DD' (a date
 * input's value) is that day, in no time zone.
 */
export function formatListDate(value: DateInput, { zone }: DateZone = {}): string {
  const day = typeof value === 'string' ? CALENDAR_DAY.exec(value) : null;
  const month = day ? MONTHS[Number(day[2]) - 1] : undefined;
  if (day && month) return `${day[3]} ${month} ${day[1]}`;
  const p = parts(value, zone);
  return p ? `${p.dd} ${p.MMM} ${p.yyyy}${p.zone}` : '';
}

/** 'dd MMM | HH:mm' (the overview's recent transactions); '' for no date. */
export function formatShortDateTime(value: DateInput, { zone }: DateZone = {}): string {
  const p = parts(value, zone);
  return p ? `${p.dd} ${p.MMM} | ${p.HH}:${p.mm}${p.zone}` : '';
}

/** The short form, 'dd MMM yyyy | HH:mm' (lists and history); '' for no date. */
export function formatListDateTime(value: DateInput, { zone }: DateZone = {}): string {
  const p = parts(value, zone);
  return p ? `${p.dd} ${p.MMM} ${p.yyyy} | ${p.HH}:${p.mm}${p.zone}` : '';
}

/** The long form, 'dd MMM yyyy, HH:mm:ss' (details and mails); '' for no date. */
export function formatFullDateTime(value: DateInput, { zone }: DateZone = {}): string {
  const p = parts(value, zone);
  return p ? `${p.dd} ${p.MMM} ${p.yyyy}, ${p.HH}:${p.mm}:${p.ss}${p.zone}` : '';
}
