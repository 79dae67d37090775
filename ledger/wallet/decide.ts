import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { formatAmount, money } from '../money.js';
import { type RowType, type WalletEvent } from './events.js';
import { APPROVAL_MESSAGES, checkerRefusal, effectiveStatus, pendingRequestFor, type ProposedTransaction } from './approvals.js';
import { knowsTransaction, transactionStatus, type WalletState } from './state.js';
import { type WalletCommand, WalletError } from './commands.js';
import { requirePositive, requireNew, requireAvailable, feeFor, none, requireWithinCapacity, statusKind } from './rules.js';
import { decideSwap, decideStake } from './marketplace-decisions.js';
import { requireOpenPeriod } from './closed-period.js';

/**
 * The wallet decider's `decide`. Pure: reads the state, returns the events that record the
 * decision, or throws a WalletError. One case per command, the longer ones in functions of
 * their own (here and in marketplace-decisions.ts); the capacity check runs on every result.
 */
export function decide(command: WalletCommand, state: WalletState): WalletEvent[] {
  const events = decideEvents(command, state);
  requireWithinCapacity(state, events);
  return events;
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
      requireOpenPeriod(command.sentAt, command.closedThrough);
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
      const status = transactionStatus(state, command.transactionId);
      if (!status) throw new WalletError('not_found', 'Transaction not found.');
      const target = command.type === 'SettleTransaction' ? 'Complete' : 'Failed';
      if (status === target) return []; // already there: nothing to record
      const tx = state.transactions.get(command.transactionId);
      if (!tx) {
        throw new WalletError('invalid_state', `A ${status} transaction cannot change status; record a correcting transaction instead.`);
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
      if (!knowsTransaction(state, command.transactionId)) throw new WalletError('not_found', 'Transaction not found.');
      if (command.txType === undefined && command.note === undefined) return [];
      return [
        { type: 'wallet.transaction-edited', data: { transactionId: command.transactionId, type: command.txType, note: command.note } },
      ];
    }
  }
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
    const status = transactionStatus(state, command.transactionId);
    if (!status) throw new WalletError('not_found', 'Transaction not found.');
    const tx = state.transactions.get(command.transactionId);
    if (!tx)
      throw new WalletError('invalid_state', `A ${status} transaction cannot change status; record a correcting transaction instead.`);
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
