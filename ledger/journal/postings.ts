import type { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { addAmounts, canonicalAmount, isNegativeAmount, money, negatedAmount, ZERO } from '../money.js';
import type { TransactionStatus, WalletEvent, WalletEventType } from '../wallet/events.js';
import { customerAccount, houseAccount, staffAdjustmentsAccount, worldAccount, type AccountName } from './accounts.js';

/**
 * One leg of a journal entry: value into (positive) or out of (negative) an account. The
 * amount is canonical text (`canonicalAmount`): most legs are an event's own amount or its
 * negation, so a replay posts them without parsing or formatting a number; only sums are
 * computed with decimal.js.
 */
export interface Posting {
  account: AccountName;
  assetId: AssetId;
  amount: string;
}

/** What the journal keeps of a transaction between its opening and its last status change. */
export interface JournalTransaction {
  transactionId: string;
  assetId: AssetId;
  /** Signed, fee included: the effect on the wallet (as in the events); canonical text. */
  amount: string;
  fee: string;
  kind: string;
  status: TransactionStatus;
  /**
   * Set on a manual transaction: the staff member who entered it ('' when the log does not
   * name them). Its counterparty is then that staff member's adjustments account, whatever
   * its type, and stays so when it settles later.
   */
  staffId?: string;
}

export interface PostingContext {
  userId: string;
  /** The transaction as the journal last saw it, for status changes. */
  transaction(transactionId: string): JournalTransaction | undefined;
}

export interface PostingResult {
  postings: Posting[];
  /** The transaction's state after this event, for the journal to remember. */
  transaction?: JournalTransaction;
}

type Rule<T extends WalletEventType> = (data: Extract<WalletEvent, { type: T }>['data'], ctx: PostingContext) => PostingResult;

/** The account on the far side of a completed transaction: the maker's for a manual one, else by its type. */
export function counterparty(kind: string, staffId?: string): AccountName {
  if (staffId !== undefined) return staffAdjustmentsAccount(staffId || null);
  switch (kind) {
    case 'adjustment':
      return houseAccount('adjustments');
    case 'swap':
      return houseAccount('swap-conversion');
    default:
      return worldAccount('external');
  }
}

function leg(account: AccountName, assetId: AssetId, amount: string): Posting {
  return { account, assetId, amount };
}

/** As decimal.js's `isPositive` on the same value: zero counts as positive. */
const isPositive = (canonical: string) => !isNegativeAmount(canonical);

/**
 * Money arriving in or leaving `from` for good: a credit lands in available with the fee
 * to the house and the gross from the counterparty; a debit leaves `from` (available, or
 * the hold of a pending withdrawal), the fee to the house and the rest to the counterparty.
 */
function complete(userId: string, tx: JournalTransaction, from: 'available' | 'pending-out'): Posting[] {
  const a = tx.assetId;
  // A credit's counterparty gives amount + fee; a debit's (amount negative) gets -amount - fee.
  const wallet = customerAccount(userId, isPositive(tx.amount) ? 'available' : from);
  return [
    leg(wallet, a, tx.amount),
    leg(houseAccount('fees'), a, tx.fee),
    leg(counterparty(tx.kind, tx.staffId), a, negatedAmount(addAmounts(tx.amount, tx.fee))),
  ];
}

/**
 * A Pending credit is announced (pending-in against in-transit); a Pending debit is held.
 * `undo`: the same legs reversed (the transaction leaves Pending).
 */
function announce(userId: string, tx: JournalTransaction, undo = false): Posting[] {
  const a = tx.assetId;
  const amount = undo ? negatedAmount(tx.amount) : tx.amount;
  const other = undo ? tx.amount : negatedAmount(tx.amount);
  return isPositive(tx.amount)
    ? [leg(customerAccount(userId, 'pending-in'), a, amount), leg(worldAccount('in-transit'), a, other)]
    : [leg(customerAccount(userId, 'available'), a, amount), leg(customerAccount(userId, 'pending-out'), a, other)];
}

function open(userId: string, tx: JournalTransaction): Posting[] {
  if (tx.status === 'Pending') return announce(userId, tx);
  if (tx.status === 'Complete') return complete(userId, tx, 'available');
  return []; // a Failed transaction moves nothing
}

function opened(
  data: { transactionId: string; assetId: AssetId; amount: string; fee: string },
  kind: string,
  status: TransactionStatus,
): JournalTransaction {
  return {
    transactionId: data.transactionId,
    assetId: data.assetId,
    amount: canonicalAmount(data.amount),
    fee: canonicalAmount(data.fee),
    kind,
    status,
  };
}

/** Settling or failing a Pending transaction; anything else moves nothing (the decider refuses it). */
function statusChange(data: { transactionId: string; kind?: string }, ctx: PostingContext, to: 'Complete' | 'Failed'): PostingResult {
  const tx = ctx.transaction(data.transactionId);
  if (!tx || tx.status !== 'Pending') return { postings: [] };
  const now: JournalTransaction = { ...tx, kind: data.kind ?? tx.kind, status: to };
  const undo = announce(ctx.userId, tx, true);
  if (to === 'Failed') return { postings: undo, transaction: now };
  // A settled credit leaves transit and lands in available; a settled debit leaves the hold.
  const postings = isPositive(now.amount) ? [...undo, ...complete(ctx.userId, now, 'available')] : complete(ctx.userId, now, 'pending-out');
  return { postings, transaction: now };
}

/**
 * The posting rule of every wallet event type, in one place. A type missing here is
 * reported by `ledger verify` and fails postings.unit.spec.ts.
 */
export const POSTING_RULES: { [T in WalletEventType]?: Rule<T> } = {
  'wallet.deposit-requested': (d, ctx) => {
    const tx = opened(d, 'deposit', 'Pending');
    return { postings: open(ctx.userId, tx), transaction: tx };
  },
  'wallet.withdrawal-requested': (d, ctx) => {
    const tx = opened(d, 'withdrawal', 'Pending');
    return { postings: open(ctx.userId, tx), transaction: tx };
  },
  'wallet.send-requested': (d, ctx) => {
    const tx = opened(d, 'send', 'Pending');
    return { postings: open(ctx.userId, tx), transaction: tx };
  },
  'wallet.transaction-recorded': (d, ctx) => {
    const tx: JournalTransaction = { ...opened(d, d.type, d.status), staffId: d.makerId ?? '' };
    return { postings: open(ctx.userId, tx), transaction: tx };
  },
  // Each leg on its own asset: the from-leg is held like a withdrawal and, when settled, pays
  // its fee to the house and the rest into swap conversion; the to-leg comes out of swap
  // conversion like a deposit. Both legs settle or fail together (one event each).
  'wallet.swap-requested': (d, ctx) => {
    const tx = opened(d, 'swap', 'Pending');
    return { postings: open(ctx.userId, tx), transaction: tx };
  },
  // The principal moves from available into the customer's staked account.
  'wallet.stake-opened': (d, ctx) => {
    const principal = canonicalAmount(d.principal);
    return {
      postings: [
        leg(customerAccount(ctx.userId, 'available'), d.assetId, negatedAmount(principal)),
        leg(customerAccount(ctx.userId, 'staked'), d.assetId, principal),
      ],
      transaction: opened(d, 'stake', 'Complete'),
    };
  },
  // At maturity the principal leaves staked and the earnings are paid by the house.
  'wallet.stake-paid-out': (d, ctx) => {
    const principal = canonicalAmount(d.principal);
    const earnings = canonicalAmount(d.earnings);
    return {
      postings: [
        leg(customerAccount(ctx.userId, 'staked'), d.assetId, negatedAmount(principal)),
        leg(houseAccount('staking-rewards'), d.assetId, negatedAmount(earnings)),
        leg(customerAccount(ctx.userId, 'available'), d.assetId, addAmounts(principal, earnings)),
      ],
      transaction: opened(d, 'stake_payout', 'Complete'),
    };
  },
  'wallet.transaction-settled': (d, ctx) => statusChange(d, ctx, 'Complete'),
  'wallet.transaction-failed': (d, ctx) => statusChange(d, ctx, 'Failed'),
  // A new type or note reclassifies nothing already posted: money moved under the type it had then.
  'wallet.transaction-edited': (d, ctx) => {
    const tx = ctx.transaction(d.transactionId);
    return { postings: [], transaction: tx && d.type ? { ...tx, kind: d.type } : undefined };
  },
  // A request under the two-person rule moves nothing; its approval's effect is its own event.
  'wallet.approval-requested': () => ({ postings: [] }),
  'wallet.approval-approved': () => ({ postings: [] }),
  'wallet.approval-rejected': () => ({ postings: [] }),
  'wallet.approval-expired': () => ({ postings: [] }),
};

export function hasPostingRule(type: string): boolean {
  return Object.prototype.hasOwnProperty.call(POSTING_RULES, type);
}

/** The postings of one wallet event, without zero legs; null when its type has no rule. */
export function postingsFor(type: string, data: unknown, ctx: PostingContext): PostingResult | null {
  const rule = (POSTING_RULES as Record<string, ((d: unknown, c: PostingContext) => PostingResult) | undefined>)[type];
  if (!rule) return null;
  const result = rule(data, ctx);
  // The rules build a new result each time: dropping its zero legs in place changes nothing else.
  if (result.postings.some((p) => p.amount === '0')) result.postings = result.postings.filter((p) => p.amount !== '0');
  return result;
}

/** Per asset, the sum of the postings where it is not zero (empty when they balance). */
export function imbalances(postings: Posting[]): Map<AssetId, Decimal> {
  const sums = new Map<AssetId, Decimal>();
  for (const p of postings) sums.set(p.assetId, (sums.get(p.assetId) ?? ZERO).plus(money(p.amount)));
  for (const [asset, sum] of sums) if (sum.isZero()) sums.delete(asset);
  return sums;
}
