import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { canonicalAmount, money, ZERO } from '../money.js';
import { openedStatus, openedType, type RowType, type TransactionStatus, type WalletEvent } from './events.js';
import { evolveApprovals, type ApprovalEvent, type ApprovalState, type Valuation } from './approvals.js';

const DAY_MS = 86_400_000;

/** The wallet's state and how each event changes it: balances per asset in their buckets, the transactions, stakes and approval requests. */
export interface AssetBalance {
  /** Sum of Complete amounts. */
  balance: Decimal;
  /** Sum of Pending positive amounts. */
  pendingDeposits: Decimal;
  /** Sum of Pending negative amounts (zero or negative). */
  pendingWithdrawals: Decimal;
}

/** An open (Pending) transaction: what settling or failing it needs. */
export interface TransactionState {
  assetId: AssetId;
  /**
   * Canonical text, as in the event: a decimal.js instance took about 190 bytes more than the
   * event's own string, and the command handler caches many states.
   */
  amount: string;
  status: TransactionStatus;
  type: RowType;
  /** The other leg of a swap: the two change status together. */
  linkedTransactionId?: string;
}

export interface StakeState {
  assetId: AssetId;
  principal: Decimal;
  earnings: Decimal;
  durationDays: number;
  rate: string;
  maturesAt: string;
  paid: boolean;
}

/** A closed transaction keeps only its final status: no decision reads more of it. */
export type ClosedStatus = Exclude<TransactionStatus, 'Pending'>;

export interface WalletState {
  /** The open transactions (Pending), by id. */
  transactions: Map<string, TransactionState>;
  /**
   * The closed transactions this state knows of, by id: every one when folded from the first
   * event; after a snapshot, those closed since and those a command named (the snapshot keeps
   * the others beside it, ledger/wallet/archive.ts). A cold load so reads what is open, not the
   * wallet's whole history.
   */
  closed: Map<string, ClosedStatus>;
  /** Ids in `closed` not yet known to be kept beside a snapshot; the next snapshot writes them. */
  unarchived: Set<string>;
  assets: Map<AssetId, AssetBalance>;
  stakes: Map<string, StakeState>;
  /** Requests under the two-person rule (ledger/wallet/approvals.ts), by request id. */
  approvals: Map<string, ApprovalState>;
  /**
   * Staff actions that moved this wallet's money alone (no second person), within a day of the
   * newest: the customer's rolling daily sum (ledger/wallet/staff-rule.ts).
   */
  staffSolo: StaffSolo[];
  /**
   * The legs of the customer's swaps, open or closed: the only transactions whose type is swap
   * and whose settlement converts rather than credits or pays out (the type label can be edited,
   * this cannot).
   */
  swapLegs: Set<string>;
}

export interface StaffSolo {
  at: string;
  valueUsd: string;
  makerId: string;
}

export function initialState(): WalletState {
  return {
    transactions: new Map(),
    closed: new Map(),
    unarchived: new Set(),
    assets: new Map(),
    stakes: new Map(),
    approvals: new Map(),
    staffSolo: [],
    swapLegs: new Set(),
  };
}

/** Keeps a staff action that ran alone, and forgets those more than a day older than it. */
function rememberSolo(state: WalletState, valuation: Valuation | undefined): void {
  if (!valuation?.valuedAt || !valuation.makerId) return;
  const since = Date.parse(valuation.valuedAt) - DAY_MS;
  state.staffSolo = state.staffSolo.filter((s) => Date.parse(s.at) > since);
  state.staffSolo.push({ at: valuation.valuedAt, valueUsd: valuation.valueUsd, makerId: valuation.makerId });
}

/** The status of a transaction of this wallet, open or closed; undefined when the state does not know it. */
export function transactionStatus(state: WalletState, transactionId: string): TransactionStatus | undefined {
  return state.transactions.get(transactionId)?.status ?? state.closed.get(transactionId);
}

/** Whether the id names a transaction this state knows of, open or closed. */
export function knowsTransaction(state: WalletState, transactionId: string): boolean {
  return state.transactions.has(transactionId) || state.closed.has(transactionId);
}

function close(state: WalletState, transactionId: string, status: ClosedStatus): void {
  state.transactions.delete(transactionId);
  state.closed.set(transactionId, status);
  state.unarchived.add(transactionId);
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

/** One of an asset's three sums (AssetBalance). */
export type BalanceBucket = keyof AssetBalance;

/**
 * Where an amount counts for its transaction's status (spec 001 section 9): Complete in the
 * balance, Pending in pending deposits when positive and pending withdrawals when negative,
 * Failed nowhere. The wallet's state and the balances read model both sum by this rule.
 */
export function bucketFor(status: TransactionStatus, isNegative: boolean): BalanceBucket | null {
  if (status === 'Complete') return 'balance';
  if (status === 'Pending') return isNegative ? 'pendingWithdrawals' : 'pendingDeposits';
  return null;
}

/** Moves `amount` into or out of the bucket its status counts in. */
export function applyAmount(b: AssetBalance, amount: Decimal, status: TransactionStatus, sign: 1 | -1): AssetBalance {
  const bucket = bucketFor(status, amount.isNegative());
  if (!bucket) return b;
  return { ...b, [bucket]: b[bucket].plus(sign === 1 ? amount : amount.negated()) };
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
    case 'wallet.transaction-recorded':
    case 'wallet.swap-requested':
    case 'wallet.stake-opened':
    case 'wallet.stake-paid-out': {
      const d = event.data;
      const status = openedStatus(event)!;
      const type = openedType(event)!;
      const amount = money(d.amount);
      if (event.type === 'wallet.swap-requested') state.swapLegs.add(d.transactionId);
      if (status === 'Pending') {
        const tx: TransactionState = { assetId: d.assetId, amount: canonicalAmount(d.amount), status, type };
        if (event.type === 'wallet.swap-requested') tx.linkedTransactionId = event.data.linkedTransactionId;
        state.transactions.set(d.transactionId, tx);
      } else close(state, d.transactionId, status);
      state.assets.set(d.assetId, applyAmount(assetBalance(state, d.assetId), amount, status, 1));
      if (event.type === 'wallet.transaction-recorded' && !event.data.approvalRequestId) rememberSolo(state, event.data.valuation);
      if (event.type === 'wallet.stake-opened') {
        const e = event.data;
        state.stakes.set(e.stakeId, {
          assetId: e.assetId,
          principal: money(e.principal),
          earnings: money(e.estimatedEarnings),
          durationDays: e.durationDays,
          rate: e.rate,
          maturesAt: e.maturesAt,
          paid: false,
        });
      } else if (event.type === 'wallet.stake-paid-out') {
        const stake = state.stakes.get(event.data.stakeId);
        if (stake) state.stakes.set(event.data.stakeId, { ...stake, paid: true });
      }
      return state;
    }
    case 'wallet.transaction-settled':
    case 'wallet.transaction-failed': {
      // Only an open transaction changes status: `decide` records nothing for a closed one.
      const tx = state.transactions.get(event.data.transactionId);
      if (!tx) return state;
      if (event.type === 'wallet.transaction-settled' && !event.data.approvalRequestId) rememberSolo(state, event.data.valuation);
      const next: ClosedStatus = event.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed';
      const amount = money(tx.amount);
      let b = applyAmount(assetBalance(state, tx.assetId), amount, tx.status, -1);
      b = applyAmount(b, amount, next, 1);
      state.assets.set(tx.assetId, b);
      close(state, event.data.transactionId, next);
      return state;
    }
    case 'wallet.transaction-edited': {
      // A closed transaction's type is read by nothing the wallet decides (the statement keeps its own).
      const tx = state.transactions.get(event.data.transactionId);
      if (tx && event.data.type) state.transactions.set(event.data.transactionId, { ...tx, type: event.data.type });
      return state;
    }
    case 'wallet.approval-requested':
    case 'wallet.approval-approved':
    case 'wallet.approval-rejected':
    case 'wallet.approval-expired':
      evolveApprovals(state.approvals, event as ApprovalEvent);
      return state;
  }
}

export function fold(events: Iterable<WalletEvent>, state: WalletState = initialState()): WalletState {
  for (const e of events) state = evolve(state, e);
  return state;
}

// ---------------------------------------------------------------------------- commands
