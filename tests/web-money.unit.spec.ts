import { describe, expect, it } from 'vitest';
import {
  cleanAmountInput,
  formatAmount,
  formatCrypto,
  formatFullDateTime,
  formatListDate,
  formatListDateTime,
  formatPercent,
  formatTransactionAmount,
  formatDay,
  formatShortDateTime,
  formatSigned,
  formatUsd,
  parseAmountInput,
  toDecimal,
} from '../web/src/lib/money.js';

// The client's display rules (spec 001 section 9); web/ is outside vitest's include, so the spec sits here.

describe('amounts', () => {
  it('shows crypto with 8 decimals and thousands separators', () => {
    expect(formatCrypto('0')).toBe('0.00000000');
    expect(formatCrypto('1234567.123456789')).toBe('1,234,567.12345679');
    expect(formatCrypto('-0.000000001')).toBe('0.00000000');
    expect(formatCrypto('-2.5')).toBe('-2.50000000');
    expect(formatCrypto(null)).toBe('0.00000000');
    expect(formatCrypto('not a number')).toBe('0.00000000');
  });

  it('keeps every digit of a long decimal string (no float in between)', () => {
    // 0.1 + 0.2 as floats is 0.30000000000000004.
    expect(toDecimal('0.1').plus('0.2').toFixed()).toBe('0.3');
    expect(formatCrypto('12345678901234567.12345678')).toBe('12,345,678,901,234,567.12345678');
  });

  it('shows USD with 2 decimals, a dollar sign and thousands separators', () => {
    expect(formatUsd('1234.565')).toBe('$1,234.57');
    expect(formatUsd('0')).toBe('$0.00');
    expect(formatUsd('-0.5')).toBe('-$0.50');
    expect(formatUsd('97000')).toBe('$97,000.00');
  });

  it('shows the overview amounts with a sign and 4 decimals', () => {
    expect(formatSigned('0.25')).toBe('+0.2500');
    expect(formatSigned('-1000')).toBe('-1,000.0000');
    expect(formatSigned('0')).toBe('0.0000');
    expect(formatSigned('-0.00001')).toBe('0.0000');
  });

  it('shows other amounts with 2 to 6 decimals', () => {
    expect(formatAmount('1.01')).toBe('1.01');
    expect(formatAmount('101')).toBe('101.00');
    expect(formatAmount('0.000101')).toBe('0.000101');
    expect(formatAmount('0.0000001')).toBe('0.00');
    expect(formatAmount('1.2345678')).toBe('1.234568');
    expect(formatAmount('1010.5')).toBe('1,010.50');
  });

  it('shows a 24 h change with its sign', () => {
    expect(formatPercent(1.234)).toBe('+1.23%');
    expect(formatPercent(-0.4)).toBe('-0.40%');
  });

  it('computes the withdrawal total as amount x 1.01 exactly', () => {
    expect(toDecimal('0.1').times('1.01').toFixed()).toBe('0.101');
    expect(formatAmount(toDecimal('33.33').times('1.01'))).toBe('33.6633');
  });
});

describe('amount input', () => {
  it('keeps digits and the first decimal point only', () => {
    expect(cleanAmountInput('12a.3.4')).toBe('12.34');
    expect(cleanAmountInput('-5,5')).toBe('55');
    expect(cleanAmountInput('.5')).toBe('.5');
    expect(cleanAmountInput('1e5')).toBe('15');
  });

  it('reads a typed amount, or null when it is not a number', () => {
    expect(parseAmountInput('1.5')?.toFixed()).toBe('1.5');
    expect(parseAmountInput('.5')?.toFixed()).toBe('0.5');
    expect(parseAmountInput('5.')?.toFixed()).toBe('5');
    expect(parseAmountInput('')).toBeNull();
    expect(parseAmountInput('.')).toBeNull();
    expect(parseAmountInput('1.2.3')).toBeNull();
    expect(parseAmountInput('-1')).toBeNull();
  });
});

describe('dates', () => {
  // Local time, as the screens show it.
  const date = new Date(2025, 2, 5, 14, 7, 9);

  it("formats a calendar day as 'dd MMM' whatever the time zone, and leaves anything else as it is", () => {
    expect(formatDay('2026-12-06')).toBe('06 Dec');
    expect(formatDay('2026-01-31')).toBe('31 Jan');
    expect(formatDay('2026-13-01')).toBe('2026-13-01');
    expect(formatDay('yesterday')).toBe('yesterday');
  });

  it("formats 'dd MMM | HH:mm' for the overview", () => {
    expect(formatShortDateTime(date)).toBe('05 Mar | 14:07');
  });

  it("formats 'dd MMM yyyy | HH:mm' for the list", () => {
    expect(formatListDateTime(date)).toBe('05 Mar 2025 | 14:07');
  });

  it("formats 'dd MMM yyyy, HH:mm:ss' for the detail", () => {
    expect(formatFullDateTime(date)).toBe('05 Mar 2025, 14:07:09');
    expect(formatFullDateTime(date.toISOString())).toBe('05 Mar 2025, 14:07:09');
  });

  it('gives an empty text for a missing or broken date', () => {
    expect(formatListDateTime(null)).toBe('');
    expect(formatFullDateTime('yesterday-ish')).toBe('');
    expect(formatListDate(undefined)).toBe('');
  });

  it("formats 'dd MMM yyyy' for a day; a date input's 'YYYY-MM-DD' is that day in no time zone", () => {
    expect(formatListDate(date)).toBe('05 Mar 2025');
    expect(formatListDate('2026-12-06')).toBe('06 Dec 2026');
  });

  it('names the zone when a text is in UTC (the mails): the same forms, then UTC', () => {
    const utc = new Date(Date.UTC(2026, 11, 6, 4, 33, 41));
    expect(formatFullDateTime(utc, { zone: 'UTC' })).toBe('06 Dec 2026, 04:33:41 UTC');
    expect(formatListDateTime(utc, { zone: 'UTC' })).toBe('06 Dec 2026 | 04:33 UTC');
    expect(formatListDate(utc, { zone: 'UTC' })).toBe('06 Dec 2026 UTC');
  });
});

describe("a transaction's amount (staff screens, the bell, the mails)", () => {
  it("shows 2 to 8 decimals, thousands separators and the sign; '--.--' when missing", () => {
    expect(formatTransactionAmount('5000')).toBe('+5,000.00');
    expect(formatTransactionAmount('-0.000123456789')).toBe('-0.00012346');
    expect(formatTransactionAmount('1234.5')).toBe('+1,234.50');
    expect(formatTransactionAmount('0')).toBe('0.00');
    expect(formatTransactionAmount('-0.000000001')).toBe('0.00');
    expect(formatTransactionAmount(null)).toBe('--.--');
    expect(formatTransactionAmount('')).toBe('--.--');
  });

  it('leaves the sign out in a sentence', () => {
    expect(formatTransactionAmount('-5000', { signed: false })).toBe('5,000.00');
    expect(formatTransactionAmount('0.5', { signed: false })).toBe('0.50');
  });
});
