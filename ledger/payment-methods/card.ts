import { BANK_NAME_MAX, HOLDER_NAME_MAX, NOTES_MAX, type CardBrand } from './events.js';

/**
 * Pure checks of what a customer types into the add-payment-method form. A card check
 * returns only what may be stored (brand, last four, expiry, holder name, notes): the full
 * number and the CVV do not leave these functions.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(error: string): Checked<T> => ({ ok: false, error });

export const PAYMENT_METHOD_MESSAGES = {
  required: 'Please fill in all required fields',
  cardNumber: 'Card number is invalid.',
  expiryFormat: 'Expiry date must be MM/YY.',
  expired: 'Card has expired.',
  cvv: 'CVV is invalid.',
  holderNameTooLong: `Card holder name must be at most ${HOLDER_NAME_MAX} characters.`,
  bankNameTooLong: `Bank name must be at most ${BANK_NAME_MAX} characters.`,
  accountNumber: 'Account number is invalid.',
  notesTooLong: `Notes must be at most ${NOTES_MAX} characters.`,
  cardNumberElsewhere: 'The card number must not appear in other fields.',
  accountNumberElsewhere: 'The account number must not appear in other fields.',
  cardNumberInText: 'Notes and names must not contain a card number.',
} as const;
const M = PAYMENT_METHOD_MESSAGES;

// ------------------------------------------------------------------ card number

/** The digits of a number typed with optional spaces or dashes; null when anything else is in it. */
export function normaliseCardNumber(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d+$/.test(digits) ? digits : null;
}

/** The Luhn (mod 10) check digit test. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A prefix, or an inclusive range of prefixes of the same length. */
type Prefix = string | [number, number];

interface BrandRule {
  brand: CardBrand;
  prefixes: Prefix[];
  lengths: number[];
  cvvLength: number;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Issuer ranges, most specific first. Co-branded ranges follow the scheme that routes them. */
const BRAND_RULES: BrandRule[] = [
  { brand: 'American Express', prefixes: ['34', '37'], lengths: [15], cvvLength: 4 },
  { brand: 'Diners Club', prefixes: [[300, 305], '3095', '36', [38, 39]], lengths: range(14, 19), cvvLength: 3 },
  { brand: 'JCB', prefixes: [[3528, 3589]], lengths: range(16, 19), cvvLength: 3 },
  { brand: 'Visa', prefixes: ['4'], lengths: [13, 16, 19], cvvLength: 3 },
  {
    brand: 'Mastercard',
    prefixes: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
    cvvLength: 3,
  },
  { brand: 'Discover', prefixes: ['6011', [644, 649], '65'], lengths: range(16, 19), cvvLength: 3 },
  { brand: 'UnionPay', prefixes: ['62'], lengths: range(16, 19), cvvLength: 3 },
  {
    brand: 'Maestro',
    prefixes: ['5018', '5020', '5038', '5893', '6304', '6759', '6761', '6762', '6763'],
    lengths: range(12, 19),
    cvvLength: 3,
  },
];
const UNKNOWN_RULE: BrandRule = { brand: 'Unknown', prefixes: [], lengths: range(12, 19), cvvLength: 3 };

function matches(digits: string, prefix: Prefix): boolean {
  if (typeof prefix === 'string') return digits.startsWith(prefix);
  const [from, to] = prefix;
  const width = String(from).length;
  if (digits.length < width) return false;
  const head = Number(digits.slice(0, width));
  return head >= from && head <= to;
}

function ruleFor(digits: string): BrandRule {
  return BRAND_RULES.find((r) => r.prefixes.some((p) => matches(digits, p))) ?? UNKNOWN_RULE;
}

/** The scheme a card number belongs to, from its leading digits; 'Unknown' when no range is clear. */
export function detectBrand(digits: string): CardBrand {
  return ruleFor(digits).brand;
}

/** The digits of the security code on a card of this brand: 4 for American Express, else 3. */
export function cvvLength(brand: CardBrand): number {
  return (BRAND_RULES.find((r) => r.brand === brand) ?? UNKNOWN_RULE).cvvLength;
}

/** A typed card number: digits only (spaces and dashes allowed), a length its brand issues, and the Luhn check. */
export function checkCardNumber(input: string): Checked<{ digits: string; brand: CardBrand; last4: string }> {
  const digits = normaliseCardNumber(input);
  if (!digits) return fail(M.cardNumber);
  const rule = ruleFor(digits);
  if (!rule.lengths.includes(digits.length) || !luhnValid(digits)) return fail(M.cardNumber);
  return ok({ digits, brand: rule.brand, last4: digits.slice(-4) });
}

// ------------------------------------------------------------------ expiry and CVV

/**
 * 'MM/YY' with a real month, not before the current month (a card is valid through the
 * end of its expiry month). Months are compared in UTC.
 */
export function checkExpiry(input: string, now: Date): Checked<string> {
  const m = /^(\d{2})\/(\d{2})$/.exec(input.trim());
  if (!m) return fail(M.expiryFormat);
  const month = Number(m[1]);
  if (month < 1 || month > 12) return fail(M.expiryFormat);
  const year = 2000 + Number(m[2]);
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (year < thisYear || (year === thisYear && month < thisMonth)) return fail(M.expired);
  return ok(`${m[1]}/${m[2]}`);
}

/** The shape of a security code for the brand. Only checked: never kept. */
export function checkCvv(input: string, brand: CardBrand): boolean {
  const cvv = input.trim();
  return /^\d+$/.test(cvv) && cvv.length === cvvLength(brand);
}

// ------------------------------------------------------------------ whole forms

type Text = string | null | undefined;

const blank = (v: Text) => v === undefined || v === null || v.trim() === '';

function optionalNotes(notes: Text): Checked<string | null> {
  const text = notes?.trim() ?? '';
  if (text.length > NOTES_MAX) return fail(M.notesTooLong);
  return ok(text === '' ? null : text);
}

// ------------------------------------------------------------------ free text

/**
 * Free text (holder name, bank name, notes) is recorded in the log and shown to staff, so it
 * must carry no card or account number. One check for every such field: `ownNumber` is the
 * normalised card or account number of the method being added, when there is one.
 */
export type FreeTextProblem = 'own-number' | 'card-number';

/** Text as it reads: compatibility forms folded (fullwidth digits become 0-9), invisible format characters dropped. */
const readable = (text: string) => text.normalize('NFKC').replace(/\p{Cf}/gu, '');

/** Digit groups joined by exactly one character that is neither a letter nor a digit. */
const DIGIT_RUN = /\d+(?:[^\p{L}\p{N}]\d+)*/gu;
const CARD_MIN = 13;
const CARD_MAX = 19;

/**
 * True when the text holds something that reads as a payment card number: 13 to 19 digits
 * that pass the Luhn check, unbroken or in groups joined by single separators (spaces,
 * dashes, dots, slashes...). Any run of whole groups counts, so a number followed by its
 * expiry or CVV is still found; an unbroken digit string longer than 19 (a reference) is not.
 */
export function holdsCardLikeNumber(text: string): boolean {
  for (const [run] of readable(text).matchAll(DIGIT_RUN)) {
    const groups = run.split(/\D/);
    for (let from = 0; from < groups.length; from++) {
      let digits = '';
      for (let to = from; to < groups.length && digits.length + groups[to]!.length <= CARD_MAX; to++) {
        digits += groups[to];
        if (digits.length >= CARD_MIN && luhnValid(digits)) return true;
      }
    }
  }
  return false;
}

/**
 * True when `ownNumber` (normalised: digits, or letters and digits) is in the text with any
 * separators between its characters, or, for a number of at least 8 digits, when its digits
 * appear in order with anything but digits between them.
 */
function holdsOwnNumber(text: string, ownNumber: string): boolean {
  const upper = readable(text).toUpperCase();
  if (upper.replace(/[^0-9A-Z]/g, '').includes(ownNumber)) return true;
  const digits = ownNumber.replace(/\D/g, '');
  return digits.length >= 8 && upper.replace(/\D/g, '').includes(digits);
}

/** What is wrong with a free-text field of a payment method, or null when it may be kept. */
export function freeTextProblem(text: string | null, ownNumber?: string): FreeTextProblem | null {
  if (text === null) return null;
  if (ownNumber !== undefined && holdsOwnNumber(text, ownNumber)) return 'own-number';
  return holdsCardLikeNumber(text) ? 'card-number' : null;
}

/** The refusal for the first free-text field with a problem; `ownMessage` names the method's own number. */
function checkFreeText(texts: (string | null)[], ownNumber: string, ownMessage: string): string | null {
  for (const text of texts) {
    const problem = freeTextProblem(text, ownNumber);
    if (problem) return problem === 'own-number' ? ownMessage : M.cardNumberInText;
  }
  return null;
}

export interface CardForm {
  cardNumber?: Text;
  cardHolderName?: Text;
  expiryDate?: Text;
  cvv?: Text;
  notes?: Text;
}

/** What is kept of a card. */
export interface CheckedCard {
  cardBrand: CardBrand;
  last4: string;
  expiryDate: string;
  cardHolderName: string;
  notes: string | null;
}

export function checkCard(form: CardForm, now: Date): Checked<CheckedCard> {
  if (blank(form.cardNumber) || blank(form.cardHolderName) || blank(form.expiryDate) || blank(form.cvv)) return fail(M.required);
  const number = checkCardNumber(form.cardNumber!);
  if (!number.ok) return fail(number.error);
  const expiry = checkExpiry(form.expiryDate!, now);
  if (!expiry.ok) return fail(expiry.error);
  if (!checkCvv(form.cvv!, number.value.brand)) return fail(M.cvv);
  const cardHolderName = form.cardHolderName!.trim();
  if (cardHolderName.length > HOLDER_NAME_MAX) return fail(M.holderNameTooLong);
  const notes = optionalNotes(form.notes);
  if (!notes.ok) return fail(notes.error);
  // Free text is stored and shown: it must carry neither the number it sits beside nor any other.
  // A CVV is not looked for: three digits are too common in notes to refuse them.
  const refused = checkFreeText([cardHolderName, notes.value], number.value.digits, M.cardNumberElsewhere);
  if (refused) return fail(refused);
  return ok({ cardBrand: number.value.brand, last4: number.value.last4, expiryDate: expiry.value, cardHolderName, notes: notes.value });
}

export interface BankAccountForm {
  bank_name?: Text;
  account_number?: Text;
  notes?: Text;
}

/** What is kept of a bank account; `accountNumber` only ever goes to encrypted storage. */
export interface CheckedBankAccount {
  bankName: string;
  accountNumber: string;
  bankLast4: string;
  notes: string | null;
}

/** An account number or IBAN: letters and digits (spaces and dashes allowed), 4 to 34 long, with at least one digit. */
export function normaliseAccountNumber(input: string): string | null {
  const value = input.replace(/[\s-]/g, '').toUpperCase();
  return /^[0-9A-Z]{4,34}$/.test(value) && /\d/.test(value) ? value : null;
}

export function checkBankAccount(form: BankAccountForm): Checked<CheckedBankAccount> {
  if (blank(form.bank_name) || blank(form.account_number)) return fail(M.required);
  const bankName = form.bank_name!.trim();
  if (bankName.length > BANK_NAME_MAX) return fail(M.bankNameTooLong);
  const accountNumber = normaliseAccountNumber(form.account_number!);
  if (!accountNumber) return fail(M.accountNumber);
  const notes = optionalNotes(form.notes);
  if (!notes.ok) return fail(notes.error);
  const refused = checkFreeText([bankName, notes.value], accountNumber, M.accountNumberElsewhere);
  if (refused) return fail(refused);
  return ok({ bankName, accountNumber, bankLast4: accountNumber.slice(-4), notes: notes.value });
}
