import type { Decimal } from 'decimal.js';
import { Dec } from '../../../lib/money.js';
import type { PaymentKind } from './api/requests.js';

/** The withdrawal and deposit fee: 1% of the amount (spec 001 section 9). */
export const FEE_RATE = new Dec('0.01');

export function feeOf(amount: Decimal): Decimal {
  return amount.times(FEE_RATE);
}

/** Withdrawal total = amount x 1.01; deposit total = amount (the fee comes out of what is credited). */
export function totalOf(kind: PaymentKind, amount: Decimal): Decimal {
  return kind === 'withdrawal' ? amount.times(FEE_RATE.plus(1)) : amount;
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
