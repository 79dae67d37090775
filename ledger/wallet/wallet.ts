import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { canonicalAmount, formatAmount, MAX_INTEGER_DIGITS, money, roundFeeUp, ZERO } from '../money.js';
import { openedStatus, openedType, type RowType, type TransactionStatus, type TransactionType, type WalletEvent } from './events.js';
import { checkStakeAmount, estimatedEarnings, findStakePlan, STAKE_MESSAGES } from '../staking/plans.js';
import { quoteSwap, swapNote } from '../swap/quote.js';
import {
  APPROVAL_MESSAGES,
  checkerRefusal,
  effectiveStatus,
  evolveApprovals,
  pendingRequestFor,
  type ApprovalAction,
  type ApprovalEvent,
  type ApprovalState,
  type ProposedTransaction,
  type Valuation,
} from './approvals.js';

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
  /**
   * Canonical text, as in the event. Every transaction of a wallet stays in its state (and
   * in the command handler's cache of states), so it is kept small: a decimal.js instance
   * took about 190 bytes more than the event's own string.
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

export interface WalletState {
  transactions: Map<string, TransactionState>;
  assets: Map<AssetId, AssetBalance>;
  stakes: Map<string, StakeState>;
  /** Requests under the two-person rule (ledger/wallet/approvals.ts), by request id. */
  approvals: Map<string, ApprovalState>;
}

export function initialState(): WalletState {
  return { transactions: new Map(), assets: new Map(), stakes: new Map(), approvals: new Map() };
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
    case 'wallet.transaction-recorded':
    case 'wallet.swap-requested':
    case 'wallet.stake-opened':
    case 'wallet.stake-paid-out': {
      const d = event.data;
      const status = openedStatus(event)!;
      const type = openedType(event)!;
      const amount = money(d.amount);
      const tx: TransactionState = { assetId: d.assetId, amount: canonicalAmount(d.amount), status, type };
      if (event.type === 'wallet.swap-requested') tx.linkedTransactionId = event.data.linkedTransactionId;
      state.transactions.set(d.transactionId, tx);
      state.assets.set(d.assetId, applyAmount(assetBalance(state, d.assetId), amount, status, 1));
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
      const tx = state.transactions.get(event.data.transactionId);
      if (!tx) return state;
      const next: TransactionStatus = event.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed';
      const amount = money(tx.amount);
      let b = applyAmount(assetBalance(state, tx.assetId), amount, tx.status, -1);
      b = applyAmount(b, amount, next, 1);
      state.assets.set(tx.assetId, b);
      state.transactions.set(event.data.transactionId, { ...tx, status: next });
      return state;
    }
    case 'wallet.transaction-edited': {
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
      /** The staff member who entered it, and the request a second person approved (four eyes). */
      makerId?: string | null;
      approvalRequestId?: string | null;
      /** Staff ran it at once: the value that was below the limit. */
      valuation?: Valuation;
    } & NewTransactionFields)
  | {
      type: 'RequestSwap';
      requestId: string;
      fromTransactionId: string;
      toTransactionId: string;
      fromAssetId: AssetId;
      toAssetId: AssetId;
      fromAmount: Decimal;
      /** USD prices from the server's own feed, never from the client. */
      fromPrice: Decimal;
      toPrice: Decimal;
      sentAt: string;
    }
  | { type: 'OpenStake'; stakeId: string; assetId: AssetId; amount: Decimal; durationDays: number; rate: Decimal; sentAt: string }
  | { type: 'PayOutStake'; stakeId: string; transactionId: string; now: string }
  | { type: 'SettleTransaction'; transactionId: string; approvalRequestId?: string | null; valuation?: Valuation }
  | { type: 'FailTransaction'; transactionId: string; reason: string | null }
  | { type: 'EditTransaction'; transactionId: string; txType?: TransactionType; note?: string | null }
  | {
      type: 'RequestApproval';
      requestId: string;
      action: ApprovalAction;
      transactionId: string;
      assetId: AssetId;
      /** Signed: the effect on the wallet. */
      amount: Decimal;
      priceUsd: Decimal;
      limitUsd: Decimal;
      maker: { id: string; role: 'WORKER' | 'MANAGER' | 'ADMIN' };
      now: string;
      expiresAt: string;
      /** The manual transaction to record once approved; null for a settlement. */
      transaction: ProposedTransaction | null;
    }
  | {
      type: 'DecideApproval';
      requestId: string;
      approve: boolean;
      checker: { id: string; role: string };
      makerManagerId: string | null;
      reason: string;
      now: string;
    }
  | { type: 'ExpireApproval'; requestId: string; now: string };

export type WalletErrorCode = 'insufficient_balance' | 'invalid_amount' | 'not_found' | 'invalid_state' | 'duplicate' | 'forbidden';

export const SWAP_MESSAGES = {
  sameToken: 'From and to tokens must differ.',
  insufficient: 'Insufficient balance',
  invalidAmount: 'Please ensure you have entered a valid amount and have sufficient balance.',
} as const;

const DAY_MS = 86_400_000;

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
  const events = decideEvents(command, state);
  requireWithinCapacity(state, events);
  return events;
}

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
function requireWithinCapacity(state: WalletState, events: WalletEvent[]): void {
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

function decideEvents(command: WalletCommand, state: WalletState): WalletEvent[] {
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
      requireAvailable(
        state,
        command.assetId,
        debit,
        'Insufficient funds, this wallet might not have enough balance to send or pending transactions.',
      );
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
            ...(command.makerId ? { makerId: command.makerId } : {}),
            ...(command.approvalRequestId ? { approvalRequestId: command.approvalRequestId } : {}),
            ...(command.valuation ? { valuation: command.valuation } : {}),
          },
        },
      ];
    }
    case 'RequestApproval':
      return decideRequestApproval(command, state);
    case 'DecideApproval':
      return decideApproval(command, state);
    case 'ExpireApproval': {
      const a = state.approvals.get(command.requestId);
      if (!a) throw new WalletError('not_found', APPROVAL_MESSAGES.notFound);
      if (a.status !== 'pending' || effectiveStatus(a, command.now) !== 'expired') return [];
      return [
        {
          type: 'wallet.approval-expired',
          data: { requestId: command.requestId, makerId: a.request.makerId, expiresAt: a.request.expiresAt },
        },
      ];
    }
    case 'RequestSwap':
      return decideSwap(command, state);
    case 'OpenStake':
      return decideStake(command, state);
    case 'PayOutStake': {
      const stake = state.stakes.get(command.stakeId);
      if (!stake) throw new WalletError('not_found', 'Stake not found.');
      if (stake.paid) return []; // paid once already: a second run of the schedule records nothing
      if (Date.parse(command.now) < Date.parse(stake.maturesAt)) throw new WalletError('invalid_state', 'This stake has not matured yet.');
      requireNew(state, command.transactionId);
      return [
        {
          type: 'wallet.stake-paid-out',
          data: {
            ...none,
            transactionId: command.transactionId,
            assetId: stake.assetId,
            amount: formatAmount(stake.principal.plus(stake.earnings)),
            fee: '0',
            sentAt: stake.maturesAt,
            note: `Stake payout: ${stake.durationDays} days at ${stake.rate}% APY`,
            paymentMethodId: null,
            stakeId: command.stakeId,
            principal: formatAmount(stake.principal),
            earnings: formatAmount(stake.earnings),
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
      // A swap's legs move together: settling or failing one records both, in one append.
      const ids = [command.transactionId];
      const linked = tx.linkedTransactionId ? state.transactions.get(tx.linkedTransactionId) : undefined;
      if (tx.linkedTransactionId && linked && linked.status === 'Pending') ids.push(tx.linkedTransactionId);
      return ids.map((transactionId): WalletEvent => {
        const row = state.transactions.get(transactionId)!;
        const base = {
          transactionId,
          assetId: row.assetId,
          amount: row.amount,
          kind: statusKind(row.type),
          ...(command.type === 'SettleTransaction' && command.approvalRequestId ? { approvalRequestId: command.approvalRequestId } : {}),
          ...(command.type === 'SettleTransaction' && command.valuation ? { valuation: command.valuation } : {}),
        };
        return command.type === 'SettleTransaction'
          ? { type: 'wallet.transaction-settled', data: base }
          : { type: 'wallet.transaction-failed', data: { ...base, reason: command.reason } };
      });
    }
    case 'EditTransaction': {
      if (!state.transactions.has(command.transactionId)) throw new WalletError('not_found', 'Transaction not found.');
      if (command.txType === undefined && command.note === undefined) return [];
      return [
        { type: 'wallet.transaction-edited', data: { transactionId: command.transactionId, type: command.txType, note: command.note } },
      ];
    }
  }
}

/** The kind a status event carries; stake rows never change status, so they have none. */
function statusKind(type: RowType): TransactionType | undefined {
  return type === 'stake' || type === 'stake_payout' ? undefined : type;
}

function decideSwap(command: Extract<WalletCommand, { type: 'RequestSwap' }>, state: WalletState): WalletEvent[] {
  if (command.fromAssetId === command.toAssetId) throw new WalletError('invalid_amount', SWAP_MESSAGES.sameToken);
  if (!command.fromAmount.isFinite() || command.fromAmount.lte(0) || command.fromAmount.decimalPlaces() > 18) {
    throw new WalletError('invalid_amount', SWAP_MESSAGES.invalidAmount);
  }
  requireNew(state, command.fromTransactionId);
  requireNew(state, command.toTransactionId);
  // Available for a swap = max(0, balance + pending withdrawals).
  const available = Decimal.max(ZERO, availableBalance(state, command.fromAssetId));
  if (command.fromAmount.gt(available)) throw new WalletError('insufficient_balance', SWAP_MESSAGES.insufficient);
  const quote = quoteSwap(command.fromAmount, command.fromPrice, command.toPrice);
  if (money(quote.netReceived).lte(0)) throw new WalletError('invalid_amount', SWAP_MESSAGES.invalidAmount);
  const shared = {
    ...none,
    sentAt: command.sentAt,
    note: swapNote(command.fromAssetId, command.toAssetId, command.requestId),
    requestId: command.requestId,
    paymentMethodId: null,
    fromAssetId: command.fromAssetId,
    toAssetId: command.toAssetId,
    fromAmount: quote.fromAmount,
    netReceived: quote.netReceived,
    fromPrice: quote.fromPrice,
    toPrice: quote.toPrice,
    rate: quote.rate,
    feeUsd: quote.feeUsd,
  };
  return [
    {
      type: 'wallet.swap-requested',
      data: {
        ...shared,
        transactionId: command.fromTransactionId,
        assetId: command.fromAssetId,
        amount: formatAmount(command.fromAmount.negated()),
        fee: quote.fee,
        leg: 'from',
        linkedTransactionId: command.toTransactionId,
      },
    },
    {
      type: 'wallet.swap-requested',
      data: {
        ...shared,
        transactionId: command.toTransactionId,
        assetId: command.toAssetId,
        amount: quote.netReceived,
        fee: '0',
        leg: 'to',
        linkedTransactionId: command.fromTransactionId,
      },
    },
  ];
}

function decideStake(command: Extract<WalletCommand, { type: 'OpenStake' }>, state: WalletState): WalletEvent[] {
  const plan = findStakePlan(command.assetId, command.durationDays);
  if (!plan) throw new WalletError('invalid_amount', STAKE_MESSAGES.missing);
  // The rate comes from the catalogue; a client that sent another one is refused, not corrected.
  if (!command.rate.isFinite() || !command.rate.eq(plan.rate)) throw new WalletError('invalid_amount', STAKE_MESSAGES.missing);
  if (command.amount.isFinite() && command.amount.decimalPlaces() > 18)
    throw new WalletError('invalid_amount', 'Amounts can have at most 18 decimal places.');
  requireNew(state, command.stakeId);
  const available = Decimal.max(ZERO, availableBalance(state, command.assetId));
  const check = checkStakeAmount(plan, command.assetId, command.amount, available);
  if (!check.ok) {
    const code = check.message.startsWith('Insufficient') ? 'insufficient_balance' : 'invalid_amount';
    throw new WalletError(code, check.message);
  }
  const maturesAt = new Date(Date.parse(command.sentAt) + command.durationDays * DAY_MS).toISOString();
  return [
    {
      type: 'wallet.stake-opened',
      data: {
        ...none,
        transactionId: command.stakeId,
        assetId: command.assetId,
        amount: formatAmount(command.amount.negated()),
        fee: '0',
        sentAt: command.sentAt,
        note: `Stake: ${plan.days} days at ${plan.rate}% APY`,
        paymentMethodId: null,
        stakeId: command.stakeId,
        principal: formatAmount(command.amount),
        durationDays: plan.days,
        rate: plan.rate,
        maturesAt,
        estimatedEarnings: estimatedEarnings(command.amount, plan.rate, plan.days),
      },
    },
  ];
}

/** The manual transaction a request would record, as the wallet's own command. */
function manualCommand(r: {
  transactionId: string;
  assetId: AssetId;
  amount: Decimal;
  makerId: string;
  requestId: string | null;
  transaction: ProposedTransaction;
}): Extract<WalletCommand, { type: 'RecordTransaction' }> {
  const t = r.transaction;
  return {
    type: 'RecordTransaction',
    transactionId: r.transactionId,
    assetId: r.assetId,
    sentAt: t.sentAt,
    amount: r.amount,
    status: t.status,
    txType: t.type,
    note: t.note,
    senderAddress: t.senderAddress,
    txid: t.txid,
    isHidden: t.isHidden,
    reason: t.note,
    makerId: r.makerId,
    approvalRequestId: r.requestId,
  };
}

/** Kinds whose settlement the rule covers: money arriving or leaving, not a swap's conversion. */
const SETTLEMENTS_UNDER_RULE: ReadonlySet<RowType> = new Set(['deposit', 'withdrawal', 'send', 'adjustment']);

/** Records a staff action above the limit as waiting; the action itself is checked as if it ran now. */
function decideRequestApproval(command: Extract<WalletCommand, { type: 'RequestApproval' }>, state: WalletState): WalletEvent[] {
  if (state.approvals.has(command.requestId)) throw new WalletError('duplicate', 'This request already exists.');
  if (pendingRequestFor(state.approvals, command.transactionId, command.now))
    throw new WalletError('invalid_state', APPROVAL_MESSAGES.alreadyWaiting);
  let amount = command.amount;
  if (command.action === 'manual-transaction') {
    if (!command.transaction) throw new WalletError('invalid_state', 'A manual transaction needs its fields.');
    decideEvents(manualCommand({ ...command, makerId: command.maker.id, requestId: null, transaction: command.transaction }), state);
  } else {
    const tx = state.transactions.get(command.transactionId);
    if (!tx) throw new WalletError('not_found', 'Transaction not found.');
    if (tx.status !== 'Pending')
      throw new WalletError('invalid_state', `A ${tx.status} transaction cannot change status; record a correcting transaction instead.`);
    if (!SETTLEMENTS_UNDER_RULE.has(tx.type) || tx.assetId !== command.assetId)
      throw new WalletError('invalid_state', 'This transaction does not need a second approval.');
    amount = money(tx.amount);
  }
  const valueUsd = amount.abs().times(command.priceUsd);
  return [
    {
      type: 'wallet.approval-requested',
      data: {
        requestId: command.requestId,
        action: command.action,
        transactionId: command.transactionId,
        assetId: command.assetId,
        amount: formatAmount(amount),
        priceUsd: formatAmount(command.priceUsd),
        valueUsd: formatAmount(valueUsd.toDecimalPlaces(18)),
        limitUsd: formatAmount(command.limitUsd),
        makerId: command.maker.id,
        makerRole: command.maker.role,
        expiresAt: command.expiresAt,
        transaction: command.action === 'manual-transaction' ? command.transaction : null,
      },
    },
  ];
}

/** A second person's approval (with its effect, in the same append) or rejection. */
function decideApproval(command: Extract<WalletCommand, { type: 'DecideApproval' }>, state: WalletState): WalletEvent[] {
  const a = state.approvals.get(command.requestId);
  if (!a) throw new WalletError('not_found', APPROVAL_MESSAGES.notFound);
  const refusal = checkerRefusal(a.request, command.checker, command.makerManagerId);
  if (refusal) throw new WalletError('forbidden', refusal);
  const status = effectiveStatus(a, command.now);
  if (status !== 'pending') throw new WalletError('invalid_state', APPROVAL_MESSAGES[status]);
  const reason = command.reason.trim();
  if (!reason) throw new WalletError('invalid_amount', APPROVAL_MESSAGES.reasonRequired);
  const r = a.request;
  const decision = {
    requestId: r.requestId,
    makerId: r.makerId,
    checkerId: command.checker.id,
    checkerRole: command.checker.role as 'MANAGER' | 'ADMIN',
    reason,
  };
  if (!command.approve) return [{ type: 'wallet.approval-rejected', data: decision }];
  const effect =
    r.action === 'manual-transaction' && r.transaction
      ? decideEvents(
          manualCommand({
            transactionId: r.transactionId,
            assetId: r.assetId,
            amount: money(r.amount),
            makerId: r.makerId,
            requestId: r.requestId,
            transaction: r.transaction,
          }),
          state,
        )
      : decideEvents({ type: 'SettleTransaction', transactionId: r.transactionId, approvalRequestId: r.requestId }, state);
  return [{ type: 'wallet.approval-approved', data: decision }, ...effect];
}
