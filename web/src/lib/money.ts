import { Decimal } from 'decimal.js';
import { Dec } from '@ledger/display-amount.js';

/*
 * The format module (ledger/display-amount.ts) is shared with the server's texts and mails;
 * the screens, customer and staff, import its forms from here, so that every amount and date
 * reads the same wherever it is shown. What is left here is the screens' own: reading what
 * the customer types. Every amount goes through decimal.js, never a JS float.
 */
export {
  CRYPTO_DECIMALS,
  Dec,
  formatAmount,
  formatCrypto,
  formatDay,
  formatFullDateTime,
  formatListDate,
  formatListDateTime,
  formatPercent,
  formatShortDateTime,
  formatSigned,
  formatTransactionAmount,
  formatUsd,
  MISSING_AMOUNT,
  SIGNED_DECIMALS,
  toDecimal,
  USD_DECIMALS,
  ZERO,
} from '@ledger/display-amount.js';

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
