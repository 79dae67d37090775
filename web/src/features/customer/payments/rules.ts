import type { Decimal } from 'decimal.js';
import { feeFor } from '@ledger/contract/payments.js';
import type { PaymentKind } from './api/requests.js';

/** The withdrawal and deposit fee as the ledger charges it: 1% of the amount, rounded up (spec 001 section 9). */
export function feeOf(amount: Decimal): Decimal {
  return feeFor(amount);
}

/** Withdrawal total = amount + fee (what leaves the wallet); deposit total = amount (the fee comes out of what is credited). */
export function totalOf(kind: PaymentKind, amount: Decimal): Decimal {
  return kind === 'withdrawal' ? amount.plus(feeFor(amount)) : amount;
}

export const PAYMENT_MESSAGES = {
  amount: 'Please enter a valid amount',
  token: 'Please select a token',
  method: 'Please select a payment method',
  noCards: 'No credit cards available. Please add one.',
  noMethods: 'No payment methods available. Please add one.',
  noDeposits: 'You do not have permission to make deposits.',
  noWithdrawals: 'You do not have permission to make withdrawals.',
  loadMethods: 'Failed to load payment methods.',
  insufficientInline: (total: string, asset: string) => `Insufficient balance (with fee: ${total} ${asset})`,
  insufficient: (asset: string) => `Insufficient ${asset} balance`,
  failed: (kind: PaymentKind) => `Failed to process ${kind}`,
  success: (kind: PaymentKind) => `${kind === 'deposit' ? 'Deposit' : 'Withdrawal'} request submitted successfully!`,
} as const;
