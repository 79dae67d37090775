import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { MAX_INTEGER_DIGITS, money, roundFeeUp } from '../money.js';
import { openedStatus, type RowType, type TransactionType, type WalletEvent } from './events.js';
import { type AssetBalance, type WalletState, assetBalance, availableBalance, applyAmount, knowsTransaction } from './state.js';
import { WalletError } from './commands.js';

/** The checks every money decision shares: amounts, uniqueness, available balance, the fee, and what the read tables can hold. */
/** Fee on deposits and withdrawals: 1% of the requested amount (spec 001 section 9). */
export const FEE_RATE = money('0.01');

export function requirePositive(amount: Decimal): void {
  if (!amount.isFinite() || amount.lte(0)) throw new WalletError('invalid_amount', 'Please enter a valid amount');
  if (amount.decimalPlaces() > 18) throw new WalletError('invalid_amount', 'Amounts can have at most 18 decimal places.');
}

export function requireNew(state: WalletState, transactionId: string): void {
  if (knowsTransaction(state, transactionId)) throw new WalletError('duplicate', 'This transaction already exists.');
}

export function requireAvailable(state: WalletState, assetId: AssetId, debit: Decimal, message: string): void {
  if (availableBalance(state, assetId).plus(debit).isNegative()) throw new WalletError('insufficient_balance', message);
}

export function feeFor(amount: Decimal): Decimal {
  return roundFeeUp(amount.times(FEE_RATE));
}

export const none = { note: null, senderAddress: null, recipientAddress: null, txid: null, isHidden: false, requestId: null } as const;

/**
 * `numeric(38, 18)` holds fewer than 10^20 before the point. An amount, or a total of the
 * wallet (balance, pending deposits, pending withdrawals), at or beyond it could not be stored
 * by the read models: their page would fail on every retry, and no read table would move on.
 */
const CAPACITY = money('1e20');
const AMOUNT_FIELDS = [
  'amount',
  'fee',
  'requestedAmount',
  'principal',
  'earnings',
  'estimatedEarnings',
  'netReceived',
  'fromAmount',
] as const;
export const CAPACITY_MESSAGE = 'This amount would take the wallet beyond the largest balance it can hold.';

/** Refuses events whose amounts, or the totals they would leave, the ledger cannot store. */
export function requireWithinCapacity(state: WalletState, events: WalletEvent[]): void {
  const after = new Map<AssetId, AssetBalance>();
  const balanceOf = (assetId: AssetId) => after.get(assetId) ?? assetBalance(state, assetId);
  for (const event of events) {
    const data = event.data as Partial<Record<(typeof AMOUNT_FIELDS)[number], unknown>>;
    for (const field of AMOUNT_FIELDS) {
      const value = data[field];
      if (typeof value === 'string' && integerDigits(value) > MAX_INTEGER_DIGITS) throw new WalletError('invalid_amount', CAPACITY_MESSAGE);
    }
    const status = openedStatus(event);
    if (status && 'assetId' in event.data && 'amount' in event.data) {
      const { assetId, amount } = event.data;
      after.set(assetId, applyAmount(balanceOf(assetId), money(amount), status, 1));
    } else if (event.type === 'wallet.transaction-settled' || event.type === 'wallet.transaction-failed') {
      const tx = state.transactions.get(event.data.transactionId);
      if (!tx) continue;
      const amount = money(tx.amount);
      const next = event.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed';
      after.set(tx.assetId, applyAmount(applyAmount(balanceOf(tx.assetId), amount, tx.status, -1), amount, next, 1));
    }
  }
  for (const b of after.values()) {
    if (b.balance.abs().gte(CAPACITY) || b.pendingDeposits.abs().gte(CAPACITY) || b.pendingWithdrawals.abs().gte(CAPACITY)) {
      throw new WalletError('invalid_amount', CAPACITY_MESSAGE);
    }
  }
}

/** Digits before the point of a canonical amount text (events hold only those). */
function integerDigits(text: string): number {
  const point = text.indexOf('.');
  return (point < 0 ? text.length : point) - (text.startsWith('-') ? 1 : 0);
}

/** The kind a status event carries; stake rows never change status, so they have none. */
export function statusKind(type: RowType): TransactionType | undefined {
  return type === 'stake' || type === 'stake_payout' ? undefined : type;
}
