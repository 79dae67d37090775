import { describe, expect, it } from 'vitest';
import {
  checkBankAccount,
  checkCard,
  checkCardNumber,
  checkCvv,
  checkExpiry,
  detectBrand,
  freeTextProblem,
  holdsCardLikeNumber,
  luhnValid,
  normaliseAccountNumber,
  normaliseCardNumber,
  PAYMENT_METHOD_MESSAGES as M,
} from './card.js';

const NOW = new Date('2026-03-15T12:00:00Z');

describe('card number', () => {
  it('accepts spaces and dashes, nothing else', () => {
    expect(normaliseCardNumber('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(normaliseCardNumber(' 4242424242424242 ')).toBe('4242424242424242');
    expect(normaliseCardNumber('4242.4242.4242.4242')).toBeNull();
    expect(normaliseCardNumber('4242a24242424242')).toBeNull();
    expect(normaliseCardNumber('')).toBeNull();
  });

  it('passes the Luhn check for real test numbers and fails it when one digit changes', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('79927398710')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it.each([
    ['4242424242424242', 'Visa'],
    ['4111111111111111', 'Visa'],
    ['4222222222222', 'Visa'],
    ['5555555555554444', 'Mastercard'],
    ['5105105105105100', 'Mastercard'],
    ['2223003122003222', 'Mastercard'],
    ['2221000000000009', 'Mastercard'],
    ['2720990000000007', 'Mastercard'],
    ['378282246310005', 'American Express'],
    ['371449635398431', 'American Express'],
    ['6011111111111117', 'Discover'],
    ['6011000990139424', 'Discover'],
    ['6445644564456445', 'Discover'],
    ['3530111333300000', 'JCB'],
    ['3566002020360505', 'JCB'],
    ['30569309025904', 'Diners Club'],
    ['38520000023237', 'Diners Club'],
    ['36227206271667', 'Diners Club'],
    ['3056930009020004', 'Diners Club'],
    ['6200000000000005', 'UnionPay'],
    ['6304000000000000', 'Maestro'],
    ['6759649826438453', 'Maestro'],
    ['1234567812345670', 'Unknown'],
  ])('%s is a valid %s', (number, brand) => {
    expect(detectBrand(number)).toBe(brand);
    expect(checkCardNumber(number)).toEqual({ ok: true, value: { digits: number, brand, last4: number.slice(-4) } });
  });

  it('tells Mastercard 2-series from its neighbours', () => {
    expect(detectBrand('2220990000000000')).toBe('Unknown');
    expect(detectBrand('2221000000000000')).toBe('Mastercard');
    expect(detectBrand('2720999999999999')).toBe('Mastercard');
    expect(detectBrand('2721000000000000')).toBe('Unknown');
    expect(detectBrand('5000000000000000')).toBe('Unknown');
    expect(detectBrand('5600000000000000')).toBe('Unknown');
  });

  it('refuses a Luhn-invalid number, a length the brand does not issue, and non-digits', () => {
    const refused = { ok: false, error: M.cardNumber };
    expect(checkCardNumber('4242424242424241')).toEqual(refused);
    expect(checkCardNumber('424242424242424')).toEqual(refused); // Visa has no 15-digit cards
    expect(checkCardNumber('37828224631000')).toEqual(refused); // Amex is 15 digits
    expect(checkCardNumber('55555555555544440')).toEqual(refused); // Mastercard is 16
    expect(checkCardNumber('42424242')).toEqual(refused);
    expect(checkCardNumber('4242-4242-4242-424x')).toEqual(refused);
    expect(checkCardNumber('4242 4242 4242 4242')).toMatchObject({ ok: true, value: { brand: 'Visa', last4: '4242' } });
  });
});

describe('expiry', () => {
  it('takes MM/YY with a real month', () => {
    expect(checkExpiry('12/30', NOW)).toEqual({ ok: true, value: '12/30' });
    expect(checkExpiry(' 04/27 ', NOW)).toEqual({ ok: true, value: '04/27' });
    for (const bad of ['1/27', '01/2027', '0127', '13/27', '00/27', 'ab/cd', '']) {
      expect(checkExpiry(bad, NOW)).toEqual({ ok: false, error: M.expiryFormat });
    }
  });

  it('a card is good through its expiry month and expired the month after', () => {
    expect(checkExpiry('03/26', NOW).ok).toBe(true);
    expect(checkExpiry('03/26', new Date('2026-03-31T23:59:59Z')).ok).toBe(true);
    expect(checkExpiry('03/26', new Date('2026-04-01T00:00:00Z'))).toEqual({ ok: false, error: M.expired });
    expect(checkExpiry('02/26', NOW)).toEqual({ ok: false, error: M.expired });
    expect(checkExpiry('12/25', NOW)).toEqual({ ok: false, error: M.expired });
    expect(checkExpiry('01/27', NOW).ok).toBe(true);
  });
});

describe('CVV', () => {
  it('is 3 digits, or 4 for American Express', () => {
    expect(checkCvv('123', 'Visa')).toBe(true);
    expect(checkCvv('1234', 'Visa')).toBe(false);
    expect(checkCvv('12', 'Mastercard')).toBe(false);
    expect(checkCvv('12a', 'Visa')).toBe(false);
    expect(checkCvv('1234', 'American Express')).toBe(true);
    expect(checkCvv('123', 'American Express')).toBe(false);
    expect(checkCvv('123', 'Unknown')).toBe(true);
  });
});

describe('the card form', () => {
  const form = {
    cardNumber: '4242 4242 4242 4242',
    cardHolderName: ' Ada Lovelace ',
    expiryDate: '12/30',
    cvv: '123',
    notes: ' personal ',
  };

  it('keeps brand, last four, expiry, holder name and notes: no full number, no CVV', () => {
    const result = checkCard(form, NOW);
    expect(result).toEqual({
      ok: true,
      value: { cardBrand: 'Visa', last4: '4242', expiryDate: '12/30', cardHolderName: 'Ada Lovelace', notes: 'personal' },
    });
    const kept = JSON.stringify(result);
    expect(kept).not.toContain('4242424242424242');
    expect(kept).not.toContain('123');
  });

  it('empty notes are none', () => {
    expect(checkCard({ ...form, notes: '  ' }, NOW)).toMatchObject({ ok: true, value: { notes: null } });
    expect(checkCard({ ...form, notes: undefined }, NOW)).toMatchObject({ ok: true, value: { notes: null } });
  });

  it.each([
    [{ cardNumber: '' }, M.required],
    [{ cardHolderName: '   ' }, M.required],
    [{ expiryDate: undefined }, M.required],
    [{ cvv: null }, M.required],
    [{ cardNumber: '4242 4242 4242 4241' }, M.cardNumber],
    [{ expiryDate: '2/30' }, M.expiryFormat],
    [{ expiryDate: '02/26' }, M.expired],
    [{ cvv: '12' }, M.cvv],
    [{ cvv: '1234' }, M.cvv],
    [{ cardHolderName: 'x'.repeat(101) }, M.holderNameTooLong],
    [{ notes: 'x'.repeat(501) }, M.notesTooLong],
    [{ notes: 'my card 4242-4242-4242-4242' }, M.cardNumberElsewhere],
    [{ cardHolderName: '4242424242424242' }, M.cardNumberElsewhere],
    // The card's own number with any separators, or letters, between its digits.
    [{ notes: 'my card 4242.4242.4242.4242' }, M.cardNumberElsewhere],
    [{ notes: '4242/4242/4242/4242' }, M.cardNumberElsewhere],
    [{ notes: '4242_4242_4242_4242' }, M.cardNumberElsewhere],
    [{ notes: '4242 / 4242 / 4242 / 4242' }, M.cardNumberElsewhere],
    [{ notes: 'four 4242 then 4242 and 4242, 4242' }, M.cardNumberElsewhere],
    [{ notes: '\uFF14\uFF12\uFF14\uFF12\uFF14\uFF12\uFF14\uFF12\uFF14\uFF12\uFF14\uFF12\uFF14\uFF12\uFF14\uFF12' }, M.cardNumberElsewhere],
    [{ cardHolderName: 'Ada 4242.4242.4242.4242' }, M.cardNumberElsewhere],
    // Any other card number.
    [{ notes: 'spare 5555.5555.5555.4444' }, M.cardNumberInText],
    [{ notes: 'old one 4000 0566 5566 5556 12/30 123' }, M.cardNumberInText],
    [{ cardHolderName: 'Ada 5555/5555/5555/4444' }, M.cardNumberInText],
  ])('refuses %j with its message', (change, message) => {
    expect(checkCard({ ...form, ...change }, NOW)).toEqual({ ok: false, error: message });
  });

  it('notes with numbers that are not card numbers are kept, and so is a CVV-like group', () => {
    for (const notes of [
      'order ref 1234567890123456', // 16 digits, not Luhn-valid
      'order 1234-5678-9012-3456',
      'ref 98765432109876543210123', // one unbroken 23-digit reference
      'limit 5000, renew 12/30, desk 739',
      'ends 4242',
    ]) {
      expect(checkCard({ ...form, notes }, NOW)).toMatchObject({ ok: true, value: { notes } });
    }
  });

  it('an American Express card needs a 4-digit CVV', () => {
    expect(checkCard({ ...form, cardNumber: '3782 822463 10005', cvv: '1234' }, NOW)).toMatchObject({
      ok: true,
      value: { cardBrand: 'American Express', last4: '0005' },
    });
    expect(checkCard({ ...form, cardNumber: '378282246310005', cvv: '123' }, NOW)).toEqual({ ok: false, error: M.cvv });
  });
});

describe('the bank account form', () => {
  it('keeps bank name, last four and notes, and hands the normalised number over for encryption', () => {
    expect(checkBankAccount({ bank_name: ' First Bank ', account_number: '0123-4567 8901', notes: '' })).toEqual({
      ok: true,
      value: { bankName: 'First Bank', accountNumber: '012345678901', bankLast4: '8901', notes: null },
    });
    expect(checkBankAccount({ bank_name: 'Deutsche Bank', account_number: 'de89 3704 0044 0532 0130 00' })).toMatchObject({
      ok: true,
      value: { accountNumber: 'DE89370400440532013000', bankLast4: '3000' },
    });
  });

  it("a missing bank name or account number is the spec's 'Please fill in all required fields'", () => {
    expect(checkBankAccount({ bank_name: '', account_number: '12345678' })).toEqual({ ok: false, error: M.required });
    expect(checkBankAccount({ bank_name: 'First Bank', account_number: '  ' })).toEqual({ ok: false, error: M.required });
    expect(checkBankAccount({})).toEqual({ ok: false, error: M.required });
  });

  it('refuses an account number that is not one, a long bank name, and the number in notes', () => {
    expect(normaliseAccountNumber('12')).toBeNull();
    expect(normaliseAccountNumber('ABCDEFGH')).toBeNull();
    expect(normaliseAccountNumber('1234/5678')).toBeNull();
    expect(checkBankAccount({ bank_name: 'First Bank', account_number: '12#45678' })).toEqual({ ok: false, error: M.accountNumber });
    expect(checkBankAccount({ bank_name: 'x'.repeat(101), account_number: '12345678' })).toEqual({ ok: false, error: M.bankNameTooLong });
    expect(checkBankAccount({ bank_name: 'First Bank', account_number: '12345678', notes: 'acct 1234 5678' })).toEqual({
      ok: false,
      error: M.accountNumberElsewhere,
    });
  });

  it('refuses its own number with any separators, and any card number, in the bank name or notes', () => {
    const bank = { bank_name: 'First Bank', account_number: 'GB29 NWBK 6016 1331 9268 19' };
    for (const notes of ['GB29.NWBK.6016.1331.9268.19', 'gb29/nwbk/6016/1331/9268/19', 'digits 29 60 16 13 31 92 68 19']) {
      expect(checkBankAccount({ ...bank, notes })).toEqual({ ok: false, error: M.accountNumberElsewhere });
    }
    expect(checkBankAccount({ bank_name: 'First Bank', account_number: '12345678', notes: '12x34y56z78' })).toEqual({
      ok: false,
      error: M.accountNumberElsewhere,
    });
    expect(checkBankAccount({ ...bank, notes: 'backup card 4242.4242.4242.4242' })).toEqual({ ok: false, error: M.cardNumberInText });
    expect(checkBankAccount({ ...bank, notes: 'card 5555555555554444' })).toEqual({ ok: false, error: M.cardNumberInText });
    expect(checkBankAccount({ ...bank, bank_name: 'Visa 4242/4242/4242/4242' })).toEqual({ ok: false, error: M.cardNumberInText });
    expect(checkBankAccount({ ...bank, notes: 'order ref 1234567890123456' })).toMatchObject({
      ok: true,
      value: { notes: 'order ref 1234567890123456' },
    });
  });
});

describe('free text', () => {
  it('finds a Luhn-valid 13 to 19 digits, unbroken or in groups joined by single separators', () => {
    for (const text of [
      '4242424242424242',
      'x4242-4242-4242-4242.',
      '4242.4242.4242.4242',
      '4242/4242/4242/4242',
      '3782 822463 10005',
      '4222222222222', // 13 digits
      'ref 12 4242 4242 4242 4242 12/30', // whole groups inside a longer run
      '4242\u200B4242\u200B4242\u200B4242', // invisible separators
    ]) {
      expect(holdsCardLikeNumber(text), text).toBe(true);
    }
    for (const text of [
      '1234567890123456', // not Luhn-valid
      '4242424242424241',
      '424242424242', // 12 digits
      '98765432109876543210123', // unbroken and longer than 19
      '4242  4242  4242  4242', // two separators part the groups
      '4242 abcd 4242 4242 4242',
      '',
    ]) {
      expect(holdsCardLikeNumber(text), text).toBe(false);
    }
  });

  it('names its own number first, then any card number', () => {
    expect(freeTextProblem(null, '4242424242424242')).toBeNull();
    expect(freeTextProblem('4242 4242 4242 4242', '4242424242424242')).toBe('own-number');
    expect(freeTextProblem('4242 4242 4242 4242')).toBe('card-number');
    expect(freeTextProblem('salary')).toBeNull();
  });
});
