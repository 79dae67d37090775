import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { formatAmount, money } from '../money.js';
import { type WalletEvent } from './events.js';
import {
  APPROVAL_MESSAGES,
  checkerRefusal,
  effectiveStatus,
  pendingRequestFor,
  requestHolding,
  type ApprovalAction,
  type ProposedTransaction,
  type Valuation,
  type WaitReason,
} from './approvals.js';
import { judgeStaffAction, type StaffAct } from './staff-rule.js';
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
    case 'RecordTransaction':
      return decideRecord(command, state);
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
      if (command.type === 'FailTransaction') return statusEvents(state, command.transactionId, { failed: command.reason });
      // A customer's swap converts within the wallet at the server's quote: its legs are not under
      // the rule. Anything else that staff settle pays out or credits money, whatever its label.
      if (state.swapLegs.has(command.transactionId) || !('staff' in command.by)) return statusEvents(state, command.transactionId, {});
      const act = command.by.staff;
      if (pendingRequestFor(state.approvals, command.transactionId, act.now))
        throw new WalletError('invalid_state', APPROVAL_MESSAGES.alreadyWaiting);
      const { valuation, reasons } = judgeStaffAction(state, act, money(tx.amount));
      if (reasons.length > 0)
        return [requestEvent(act, 'settle-transaction', command.transactionId, tx.assetId, money(tx.amount), valuation, reasons, null)];
      return statusEvents(state, command.transactionId, { valuation });
    }
    case 'EditTransaction': {
      if (!knowsTransaction(state, command.transactionId)) throw new WalletError('not_found', 'Transaction not found.');
      if (command.txType === undefined && command.note === undefined) return [];
      if (command.txType !== undefined) {
        // Only a customer's swap makes the type swap, and its legs keep it.
        const leg = state.swapLegs.has(command.transactionId);
        if ((command.txType === 'swap') !== leg) throw new WalletError('forbidden', APPROVAL_MESSAGES.swapType);
        // Waiting for or approved by a second person: its type is what was approved.
        const current = state.transactions.get(command.transactionId)?.type;
        if (command.txType !== current && requestHolding(state.approvals, command.transactionId, command.now))
          throw new WalletError('invalid_state', APPROVAL_MESSAGES.frozen);
      }
      return [
        { type: 'wallet.transaction-edited', data: { transactionId: command.transactionId, type: command.txType, note: command.note } },
      ];
    }
  }
}

/** A staff member's manual transaction: Complete ones run now or wait for a second person, as the rule decides. */
function decideRecord(command: Extract<WalletCommand, { type: 'RecordTransaction' }>, state: WalletState): WalletEvent[] {
  if (!command.amount.isFinite() || command.amount.isZero()) throw new WalletError('invalid_amount', 'Please enter a valid amount');
  if (command.amount.decimalPlaces() > 18) throw new WalletError('invalid_amount', 'Amounts can have at most 18 decimal places.');
  requireNew(state, command.transactionId);
  requireOpenPeriod(command.sentAt, command.closedThrough);
  if (command.amount.isNegative() && command.status !== 'Failed') {
    requireAvailable(state, command.assetId, command.amount, `Insufficient ${command.assetId} balance`);
  }
  const act = command.staff;
  if (!act) return [recordedEvent(proposalOf(command), command.transactionId, command.assetId, command.amount, {})];
  if (command.txType === 'swap') throw new WalletError('forbidden', APPROVAL_MESSAGES.swapType);
  const proposal = proposalOf(command);
  const makerId = act.maker.id;
  if (command.status !== 'Complete') return [recordedEvent(proposal, command.transactionId, command.assetId, command.amount, { makerId })];
  const { valuation, reasons } = judgeStaffAction(state, act, command.amount);
  if (reasons.length > 0)
    return [requestEvent(act, 'manual-transaction', command.transactionId, command.assetId, command.amount, valuation, reasons, proposal)];
  return [recordedEvent(proposal, command.transactionId, command.assetId, command.amount, { makerId, valuation })];
}

function proposalOf(command: Extract<WalletCommand, { type: 'RecordTransaction' }>): ProposedTransaction & { reason: string | null } {
  return {
    sentAt: command.sentAt,
    status: command.status,
    type: command.txType,
    note: command.note,
    senderAddress: command.senderAddress,
    txid: command.txid,
    isHidden: command.isHidden,
    reason: command.reason,
  };
}

/** The event of a manual transaction, with who entered it and how it passed the rule (its valuation, or the approved request). */
function recordedEvent(
  t: ProposedTransaction & { reason?: string | null },
  transactionId: string,
  assetId: AssetId,
  amount: Decimal,
  rule: { makerId?: string; approvalRequestId?: string; valuation?: Valuation },
): WalletEvent {
  return {
    type: 'wallet.transaction-recorded',
    data: {
      transactionId,
      assetId,
      amount: formatAmount(amount),
      fee: '0',
      sentAt: t.sentAt,
      note: t.note,
      senderAddress: t.senderAddress,
      recipientAddress: null,
      txid: t.txid,
      isHidden: t.isHidden,
      requestId: null,
      paymentMethodId: null,
      type: t.type,
      status: t.status,
      reason: t.reason === undefined ? t.note : t.reason,
      ...(rule.makerId ? { makerId: rule.makerId } : {}),
      ...(rule.approvalRequestId ? { approvalRequestId: rule.approvalRequestId } : {}),
      ...(rule.valuation ? { valuation: rule.valuation } : {}),
    },
  };
}

/** Settles or fails an open transaction; a swap's legs move together, in one append. */
function statusEvents(
  state: WalletState,
  transactionId: string,
  how: { failed?: string | null; approvalRequestId?: string; valuation?: Valuation },
): WalletEvent[] {
  const tx = state.transactions.get(transactionId)!;
  const ids = [transactionId];
  const linked = tx.linkedTransactionId ? state.transactions.get(tx.linkedTransactionId) : undefined;
  if (tx.linkedTransactionId && linked && linked.status === 'Pending') ids.push(tx.linkedTransactionId);
  const failing = how.failed !== undefined;
  return ids.map((id): WalletEvent => {
    const row = state.transactions.get(id)!;
    const base = {
      transactionId: id,
      assetId: row.assetId,
      amount: row.amount,
      kind: statusKind(row.type),
      ...(!failing && how.approvalRequestId ? { approvalRequestId: how.approvalRequestId } : {}),
      ...(!failing && how.valuation ? { valuation: how.valuation } : {}),
    };
    return failing
      ? { type: 'wallet.transaction-failed', data: { ...base, reason: how.failed ?? null } }
      : { type: 'wallet.transaction-settled', data: base };
  });
}

/** A staff action that must wait for a second person: recorded as a request, moving nothing yet. */
function requestEvent(
  act: StaffAct,
  action: ApprovalAction,
  transactionId: string,
  assetId: AssetId,
  amount: Decimal,
  valuation: Valuation,
  reasons: WaitReason[],
  transaction: ProposedTransaction | null,
): WalletEvent {
  const expiresAt = new Date(Date.parse(act.now) + act.policy.expiryHours * 3_600_000).toISOString();
  return {
    type: 'wallet.approval-requested',
    data: {
      requestId: act.requestId,
      action,
      transactionId,
      assetId,
      amount: formatAmount(amount),
      priceUsd: valuation.priceUsd,
      valueUsd: valuation.valueUsd,
      limitUsd: valuation.limitUsd,
      makerId: act.maker.id,
      makerRole: act.maker.role,
      expiresAt,
      transaction: transaction
        ? {
            sentAt: transaction.sentAt,
            status: transaction.status,
            type: transaction.type,
            note: transaction.note,
            senderAddress: transaction.senderAddress,
            txid: transaction.txid,
            isHidden: transaction.isHidden,
          }
        : null,
      reasons,
      ...(valuation.dailyLimitUsd ? { dailyLimitUsd: valuation.dailyLimitUsd } : {}),
    },
  };
}

/** A second person's approval (with its effect, in the same append) or rejection. */
function decideApproval(command: Extract<WalletCommand, { type: 'DecideApproval' }>, state: WalletState): WalletEvent[] {
  const a = state.approvals.get(command.requestId);
  if (!a) throw new WalletError('not_found', APPROVAL_MESSAGES.notFound);
  const refusal = checkerRefusal(a.request, command.checker, command.makerManagerId, {
    controllers: command.makerControllers,
    days: command.separationDays,
    now: command.now,
  });
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
  let effect: WalletEvent[];
  if (r.action === 'manual-transaction' && r.transaction) {
    const amount = money(r.amount);
    requireNew(state, r.transactionId);
    requireOpenPeriod(r.transaction.sentAt, command.closedThrough);
    if (amount.isNegative() && r.transaction.status !== 'Failed')
      requireAvailable(state, r.assetId, amount, `Insufficient ${r.assetId} balance`);
    effect = [recordedEvent(r.transaction, r.transactionId, r.assetId, amount, { makerId: r.makerId, approvalRequestId: r.requestId })];
  } else {
    const tx = state.transactions.get(r.transactionId);
    if (!tx) throw new WalletError('invalid_state', 'This transaction is no longer pending: the request cannot be approved.');
    effect = statusEvents(state, r.transactionId, { approvalRequestId: r.requestId });
  }
  return [{ type: 'wallet.approval-approved', data: decision }, ...effect];
}
