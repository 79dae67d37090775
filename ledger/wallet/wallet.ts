import type { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { formatAmount, money, roundFeeUp, ZERO } from '../money.js';
import { openedType, type TransactionStatus, type TransactionType, type WalletEvent } from './events.js';

/** Fee on deposits and withdrawals: 1% of the requested amount (spec 001 section 9). */
export const FEE_RATE = money('0.01');

export interface AssetBalance {
  /** Sum of Complete amounts. */
  balance: Decimal;
  /** Sum of Pending positive amounts. */
  pendingDeposits: Decimal;
  /** Sum of Pending negative amounts (zero or negative). */
  pendingWithdrawals: Decimal;
}

interface TransactionState {
  assetId: AssetId;
  amount: Decimal;
  status: TransactionStatus;
  type: TransactionType;
}

export interface WalletState {
  transactions: Map<string, TransactionState>;
  assets: Map<AssetId, AssetBalance>;
}

export function initialState(): WalletState {
  return { transactions: new Map(), assets: new Map() };
}

export function assetBalance(state: WalletState, assetId: AssetId): AssetBalance {
  return state.assets.get(assetId) ?? { balance: ZERO, pendingDeposits: ZERO, pendingWithdrawals: ZERO };
}

/** Spendable now: balance plus pending withdrawals (which are negative). */
export function availableBalance(state: WalletState, assetId: AssetId): Decimal {
  const a = assetBalance(state, assetId);
  return a.balance.plus(a.pendingWithdrawals);
}

/** What the overview shows: balance plus everything pending either way. */
export function effectiveBalance(state: WalletState, assetId: AssetId): Decimal {
  const a = assetBalance(state, assetId);
  return a.balance.plus(a.pendingDeposits).plus(a.pendingWithdrawals);
}

/** Moves `amount` into or out of the bucket its status counts in. */
function applyAmount(b: AssetBalance, amount: Decimal, status: TransactionStatus, sign: 1 | -1): AssetBalance {
  const delta = sign === 1 ? amount : amount.negated();
  if (status === 'Complete') return { ...b, balance: b.balance.plus(delta) };
  if (status === 'Pending') {
    return amount.isNegative()
      ? { ...b, pendingWithdrawals: b.pendingWithdrawals.plus(delta) }
      : { ...b, pendingDeposits: b.pendingDeposits.plus(delta) };
  }
  return b; // Failed counts nowhere
}

/**
 * Folds one event into the state. For speed on long streams it updates the state it is
 * given and returns it: a fold owns its state (`fold` starts from a fresh one), and
 * `decide` never changes the state it reads.
 */
export function evolve(state: WalletState, event: WalletEvent): WalletState {
  switch (event.type) {
    case 'wallet.deposit-requested':
    case 'wallet.withdrawal-requested':
    case 'wallet.send-requested':
    case 'wallet.transaction-recorded': {
      const d = event.data;
      const status: TransactionStatus = event.type === 'wallet.transaction-recorded' ? event.data.status : 'Pending';
      const type: TransactionType = openedType(event)!;
      const amount = money(d.amount);
      state.transactions.set(d.transactionId, { assetId: d.assetId, amount, status, type });
      state.assets.set(d.assetId, applyAmount(assetBalance(state, d.assetId), amount, status, 1));
      return state;
    }
    case 'wallet.transaction-settled':
    case 'wallet.transaction-failed': {
      const tx = state.transactions.get(event.data.transactionId);
      if (!tx) return state;
      const next: TransactionStatus = event.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed';
      let b = applyAmount(assetBalance(state, tx.assetId), tx.amount, tx.status, -1);
      b = applyAmount(b, tx.amount, next, 1);
      state.assets.set(tx.assetId, b);
      state.transactions.set(event.data.transactionId, { ...tx, status: next });
      return state;
    }
    case 'wallet.transaction-edited': {
      const tx = state.transactions.get(event.data.transactionId);
      if (tx && event.data.type) state.transactions.set(event.data.transactionId, { ...tx, type: event.data.type });
      return state;
    }
  }
}

export function fold(events: Iterable<WalletEvent>, state: WalletState = initialState()): WalletState {
  for (const e of events) state = evolve(state, e);
  return state;
}

// ---------------------------------------------------------------------------- commands

interface NewTransactionFields {
  transactionId: string;
  assetId: AssetId;
  sentAt: string;
}

export type WalletCommand =
  | ({ type: 'RequestDeposit'; amount: Decimal; paymentMethodId: string } & NewTransactionFields)
  | ({ type: 'RequestWithdrawal'; amount: Decimal; paymentMethodId: string } & NewTransactionFields)
  | ({ type: 'RequestSend'; amount: Decimal; recipientAddress: string } & NewTransactionFields)
  | ({
      type: 'RecordTransaction';
      /** Signed: positive credits the wallet, negative debits it. */
      amount: Decimal;
      status: TransactionStatus;
      txType: TransactionType;
      note: string | null;
      senderAddress: string | null;
      txid: string | null;
      isHidden: boolean;
      reason: string | null;
    } & NewTransactionFields)
  | { type: 'SettleTransaction'; transactionId: string }
  | { type: 'FailTransaction'; transactionId: string; reason: string | null }
  | { type: 'EditTransaction'; transactionId: string; txType?: TransactionType; note?: string | null };

export type WalletErrorCode = 'insufficient_balance' | 'invalid_amount' | 'not_found' | 'invalid_state' | 'duplicate';

/** A refusal the caller can show: `message` is written for the person who asked. */
export class WalletError extends Error {
  constructor(
    readonly code: WalletErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WalletError';
  }
}

function requirePositive(amount: Decimal): void {
  if (!amount.isFinite() || amount.lte(0)) throw new WalletError('invalid_amount', 'Please enter a valid amount');
  if (amount.decimalPlaces() > 18) throw new WalletError('invalid_amount', 'Amounts can have at most 18 decimal places.');
}

function requireNew(state: WalletState, transactionId: string): void {
  if (state.transactions.has(transactionId)) throw new WalletError('duplicate', 'This transaction already exists.');
}

function requireAvailable(state: WalletState, assetId: AssetId, debit: Decimal, message: string): void {
  if (availableBalance(state, assetId).plus(debit).isNegative()) throw new WalletError('insufficient_balance', message);
}

export function feeFor(amount: Decimal): Decimal {
  return roundFeeUp(amount.times(FEE_RATE));
}

const none = { note: null, senderAddress: null, recipientAddress: null, txid: null, isHidden: false, requestId: null } as const;

/** Pure: reads the state, returns the events that record the decision, or throws a WalletError. */
export function decide(command: WalletCommand, state: WalletState): WalletEvent[] {
  switch (command.type) {
    case 'RequestDeposit': {
      requirePositive(command.amount);
      requireNew(state, command.transactionId);
      // The card is charged the amount asked for; the fee comes out of it.
      const fee = feeFor(command.amount);
      const credited = command.amount.minus(fee);
      return [
        {
          type: 'wallet.deposit-requested',
          data: {
            ...none,
            transactionId: command.transactionId,
            assetId: command.assetId,
            requestedAmount: formatAmount(command.amount),
            amount: formatAmount(credited),
            fee: formatAmount(fee),
            sentAt: command.sentAt,
            paymentMethodId: command.paymentMethodId,
          },
        },
      ];
    }
    case 'RequestWithdrawal': {
      requirePositive(command.amount);
      requireNew(state, command.transactionId);
      // The fee comes on top: amount x 1.01 leaves the wallet.
      const fee = feeFor(command.amount);
      const debit = command.amount.plus(fee).negated();
      requireAvailable(state, command.assetId, debit, `Insufficient ${command.assetId} balance`);
      return [
        {
          type: 'wallet.withdrawal-requested',
          data: {
            ...none,
            transactionId: command.transactionId,
            assetId: command.assetId,
            requestedAmount: formatAmount(command.amount),
            amount: formatAmount(debit),
            fee: formatAmount(fee),
            sentAt: command.sentAt,
            paymentMethodId: command.paymentMethodId,
          },
        },
      ];
    }
    case 'RequestSend': {
      requirePositive(command.amount);
      requireNew(state, command.transactionId);
      const debit = command.amount.negated();
      requireAvailable(state, command.assetId, debit, 'Insufficient funds, this wallet might not have enough balance to send or pending transactions.');
      return [
        {
          type: 'wallet.send-requested',
          data: {
            ...none,
            transactionId: command.transactionId,
            assetId: command.assetId,
            amount: formatAmount(debit),
            fee: '0',
            sentAt: command.sentAt,
            recipientAddress: command.recipientAddress,
            paymentMethodId: null,
          },
        },
      ];
    }
    case 'RecordTransaction': {
      if (!command.amount.isFinite() || command.amount.isZero()) throw new WalletError('invalid_amount', 'Please enter a valid amount');
      if (command.amount.decimalPlaces() > 18) throw new WalletError('invalid_amount', 'Amounts can have at most 18 decimal places.');
      requireNew(state, command.transactionId);
      if (command.amount.isNegative() && command.status !== 'Failed') {
        requireAvailable(state, command.assetId, command.amount, `Insufficient ${command.assetId} balance`);
      }
      return [
        {
          type: 'wallet.transaction-recorded',
          data: {
            transactionId: command.transactionId,
            assetId: command.assetId,
            amount: formatAmount(command.amount),
            fee: '0',
            sentAt: command.sentAt,
            note: command.note,
            senderAddress: command.senderAddress,
            recipientAddress: null,
            txid: command.txid,
            isHidden: command.isHidden,
            requestId: null,
            paymentMethodId: null,
            type: command.txType,
            status: command.status,
            reason: command.reason,
          },
        },
      ];
    }
    case 'SettleTransaction':
    case 'FailTransaction': {
      const tx = state.transactions.get(command.transactionId);
      if (!tx) throw new WalletError('not_found', 'Transaction not found.');
      const target = command.type === 'SettleTransaction' ? 'Complete' : 'Failed';
      if (tx.status === target) return []; // already there: nothing to record
      if (tx.status !== 'Pending') {
        throw new WalletError('invalid_state', `A ${tx.status} transaction cannot change status; record a correcting transaction instead.`);
      }
      const base = { transactionId: command.transactionId, assetId: tx.assetId, amount: formatAmount(tx.amount), kind: tx.type };
      return command.type === 'SettleTransaction'
        ? [{ type: 'wallet.transaction-settled', data: base }]
        : [{ type: 'wallet.transaction-failed', data: { ...base, reason: command.reason } }];
    }
    case 'EditTransaction': {
      if (!state.transactions.has(command.transactionId)) throw new WalletError('not_found', 'Transaction not found.');
      if (command.txType === undefined && command.note === undefined) return [];
      return [{ type: 'wallet.transaction-edited', data: { transactionId: command.transactionId, type: command.txType, note: command.note } }];
    }
  }
}
