import type { Decimal } from 'decimal.js';
import { ASSET_IDS, type AssetId } from '../assets.js';
import { formatAmount, money, ZERO } from '../money.js';
import type { RecordedEvent } from '../event-store/port.js';
import { csvText } from '../csv.js';
import { isWalletEventType, openedType, type WalletEvent } from '../wallet/events.js';
import { assetBalance, availableBalance, evolve, initialState } from '../wallet/wallet.js';
import { valueDate } from './value-date.js';

export { csvCell } from '../csv.js';

/**
 * One line of a statement. One sign rule: a positive amount came into the account, a negative
 * one left it. A movement is gross (what was deposited, withdrawn, swapped) and its fee is a
 * line of its own, so a deposit of 10 with a fee of 0.1 reads +10 then -0.1.
 */
export interface StatementLine {
  /** When the ledger recorded it. */
  bookingDate: string;
  /** When its money counts (a manual transaction's own date; otherwise the booking date). '' on a pending line. */
  valueDate: string;
  assetId: AssetId;
  transactionId: string | null;
  /** The transaction's type as the transaction list shows it now (after staff edits), or `fee`. */
  type: string;
  description: string;
  /** The chain's transaction id, or the request it belongs to. */
  reference: string;
  /** The address on the other side (sender of a credit, recipient of a debit). */
  counterparty: string;
  amount: string;
  /** The running balance after this line; '' on a pending line (it is not in the balance). */
  balance: string;
  eventId: string;
}

export interface StatementAsset {
  assetId: AssetId;
  opening: string;
  /** Gross movements in and out, and the fees, of the booked lines: opening + credits + debits + fees = closing. */
  credits: string;
  debits: string;
  fees: string;
  closing: string;
  /** Still pending at the end of the period (not in the balance): as the API's pendingDeposits and pendingWithdrawals. */
  pendingDeposits: string;
  pendingWithdrawals: string;
  /** Spendable at the end: closing plus pending withdrawals (negative). */
  available: string;
}

export interface Statement {
  userId: string;
  from: string;
  to: string;
  assets: StatementAsset[];
  /** Booked lines, per asset in booking order. */
  lines: StatementLine[];
  /** Transactions still pending at the end of the period, movement and fee lines as above. */
  pending: StatementLine[];
}

/** What the statement keeps of each transaction from the event that opened it. */
interface TxInfo {
  assetId: AssetId;
  amount: string;
  fee: string;
  reference: string;
  sender: string | null;
  recipient: string | null;
  openedAt: string;
  openedEvent: string;
}

const VERBS: Record<string, string> = {
  'wallet.transaction-settled': 'settled',
  'wallet.transaction-recorded': 'recorded',
};
/** Events whose description does not depend on the transaction's type. */
const FIXED: Record<string, string> = {
  'wallet.stake-opened': 'Stake opened',
  'wallet.stake-paid-out': 'Stake paid out',
};

/** How a hidden transaction's line reads in the customer's copy. */
export const BALANCE_ADJUSTMENT = 'Balance adjustment';

const label = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).replace('_', ' ');

/** A line before its type is known: types are read at the end, so a later staff edit shows as the transaction list shows it. */
interface Draft extends StatementLine {
  fee: boolean;
  masked: boolean;
  verb: string;
}

/**
 * A customer's statement for [from, to] (booking dates): per asset the opening balance, every
 * booked movement with its booking and value dates, reference and counterparty, its fee as a
 * line of its own and the running balance, the closing balance; then the transactions still
 * pending at `to` and the available balance. With `hideHidden` (the customer's own copy) a
 * transaction staff hid from the customer's view shows only as one "Balance adjustment" line
 * (its net amount, without id, type, reference or fee), so that the copy still adds up.
 */
export function buildStatement(
  userId: string,
  events: RecordedEvent[],
  from: Date,
  to: Date,
  opts: { hideHidden?: boolean } = {},
): Statement {
  let state = initialState();
  const hidden = new Set<string>();
  const info = new Map<string, TxInfo>();
  const types = new Map<string, string>();
  const opening = new Map<AssetId, Decimal>();
  const drafts: Draft[] = [];
  let opened = false;
  const open = () => {
    if (opened) return;
    opened = true;
    for (const a of ASSET_IDS) if (state.assets.has(a)) opening.set(a, assetBalance(state, a).balance);
  };
  for (const e of events) {
    const t = e.recordedAt.getTime();
    if (t > to.getTime()) break;
    if (t >= from.getTime()) open();
    if (!isWalletEventType(e.type)) continue;
    const event = { type: e.type, data: e.data } as WalletEvent;
    const before = new Map(ASSET_IDS.map((a) => [a, assetBalance(state, a).balance]));
    state = evolve(state, event);
    const data = e.data as {
      transactionId?: string;
      assetId?: AssetId;
      amount?: string;
      fee?: string;
      isHidden?: boolean;
      txid?: string | null;
      requestId?: string | null;
      senderAddress?: string | null;
      recipientAddress?: string | null;
    };
    const openedAs = openedType(event);
    if (openedAs && data.transactionId) {
      types.set(data.transactionId, openedAs);
      info.set(data.transactionId, {
        assetId: data.assetId!,
        amount: data.amount!,
        fee: data.fee ?? '0',
        reference: data.txid || data.requestId || '',
        sender: data.senderAddress ?? null,
        recipient: data.recipientAddress ?? null,
        openedAt: e.recordedAt.toISOString(),
        openedEvent: e.eventId,
      });
      if (data.isHidden) hidden.add(data.transactionId);
    }
    if (event.type === 'wallet.transaction-edited' && event.data.type) types.set(event.data.transactionId, event.data.type);
    if (!opened) continue;
    for (const a of ASSET_IDS) {
      const after = assetBalance(state, a).balance;
      const change = after.minus(before.get(a)!);
      if (change.isZero()) continue;
      const id = data.transactionId ?? null;
      const tx = id ? info.get(id) : undefined;
      const masked = Boolean(opts.hideHidden && id && hidden.has(id));
      const fee = tx && tx.assetId === a && !masked && change.eq(tx.amount) ? money(tx.fee) : ZERO;
      const base = {
        bookingDate: e.recordedAt.toISOString(),
        valueDate: valueDate(e.type, e.data, e.recordedAt).toISOString(),
        assetId: a,
        transactionId: masked ? null : id,
        reference: masked ? '' : (tx?.reference ?? ''),
        counterparty: masked ? '' : ((change.isPositive() ? tx?.sender : tx?.recipient) ?? ''),
        eventId: e.eventId,
        masked,
        verb: FIXED[e.type] ?? VERBS[e.type] ?? 'changed',
        type: '',
        description: '',
      };
      // Gross movement, then its fee: the two sum to the change of the balance.
      const gross = change.plus(fee);
      drafts.push({ ...base, amount: formatAmount(gross), balance: formatAmount(before.get(a)!.plus(gross)), fee: false });
      if (!fee.isZero()) drafts.push({ ...base, amount: formatAmount(fee.negated()), balance: formatAmount(after), fee: true });
    }
  }
  open();

  const typeOf = (d: Draft, id: string | null) => (d.masked ? 'adjustment' : ((id ? types.get(id) : undefined) ?? 'adjustment'));
  const describe = (d: Draft, id: string | null): StatementLine => {
    const { fee, masked, verb, ...line } = d;
    const type = typeOf(d, id);
    const description = masked ? BALANCE_ADJUSTMENT : fee ? `Fee: ${label(type)}` : verb.includes(' ') ? verb : `${label(type)} ${verb}`;
    return { ...line, type: fee ? 'fee' : type, description };
  };
  const lines = drafts.map((d) => describe(d, d.transactionId));

  const pending: StatementLine[] = [];
  for (const [id, tx] of state.transactions) {
    const i = info.get(id);
    const masked = Boolean(opts.hideHidden && hidden.has(id));
    const fee = masked ? ZERO : money(i?.fee ?? '0');
    const amount = money(tx.amount);
    const base: Draft = {
      bookingDate: i?.openedAt ?? '',
      valueDate: '',
      assetId: tx.assetId,
      transactionId: masked ? null : id,
      reference: masked ? '' : (i?.reference ?? ''),
      counterparty: masked ? '' : ((amount.isPositive() ? i?.sender : i?.recipient) ?? ''),
      eventId: i?.openedEvent ?? '',
      masked,
      verb: 'pending',
      type: '',
      description: '',
      amount: formatAmount(amount.plus(fee)),
      balance: '',
      fee: false,
    };
    pending.push(describe(base, masked ? null : id));
    if (!fee.isZero()) pending.push(describe({ ...base, amount: formatAmount(fee.negated()), fee: true }, id));
  }

  const sum = (a: AssetId, pick: (l: StatementLine) => boolean) =>
    lines.filter((l) => l.assetId === a && pick(l)).reduce((s, l) => s.plus(l.amount), ZERO);
  const assets: StatementAsset[] = ASSET_IDS.filter((a) => opening.has(a) || state.assets.has(a) || lines.some((l) => l.assetId === a)).map(
    (a) => {
      const b = assetBalance(state, a);
      const movement = (l: StatementLine) => l.type !== 'fee';
      return {
        assetId: a,
        opening: formatAmount(opening.get(a) ?? ZERO),
        credits: formatAmount(sum(a, (l) => movement(l) && money(l.amount).isPositive())),
        debits: formatAmount(sum(a, (l) => movement(l) && money(l.amount).isNegative())),
        fees: formatAmount(sum(a, (l) => !movement(l))),
        closing: formatAmount(b.balance),
        pendingDeposits: formatAmount(b.pendingDeposits),
        pendingWithdrawals: formatAmount(b.pendingWithdrawals),
        available: formatAmount(availableBalance(state, a)),
      };
    },
  );
  return { userId, from: from.toISOString(), to: to.toISOString(), assets, lines, pending };
}

export const STATEMENT_CSV_COLUMNS = [
  'section',
  'booking_date',
  'value_date',
  'asset',
  'transaction_id',
  'type',
  'description',
  'reference',
  'counterparty',
  'amount',
  'balance',
] as const;

/**
 * The statement as CSV, per asset: the opening row, the booked lines with the running
 * balance, the closing row, the pending lines and the available balance.
 */
export function statementCsv(s: Statement): string {
  const rows: string[][] = [[...STATEMENT_CSV_COLUMNS]];
  const row = (section: string, l: StatementLine) => [
    section,
    l.bookingDate,
    l.valueDate,
    l.assetId,
    l.transactionId ?? '',
    l.type,
    l.description,
    l.reference,
    l.counterparty,
    l.amount,
    l.balance,
  ];
  for (const a of s.assets) {
    rows.push(['opening', s.from, s.from, a.assetId, '', '', 'Opening balance', '', '', '', a.opening]);
    for (const l of s.lines.filter((x) => x.assetId === a.assetId)) rows.push(row('booked', l));
    rows.push(['closing', s.to, s.to, a.assetId, '', '', 'Closing balance', '', '', '', a.closing]);
    for (const l of s.pending.filter((x) => x.assetId === a.assetId)) rows.push(row('pending', l));
    rows.push(['available', s.to, s.to, a.assetId, '', '', 'Available balance', '', '', '', a.available]);
  }
  return csvText(rows);
}

/** Checks, per asset, opening + credits + debits + fees = closing and that the running balance ends at the closing. */
export function statementAddsUp(s: Statement): boolean {
  return s.assets.every((a) => {
    const own = s.lines.filter((l) => l.assetId === a.assetId);
    const last = own.length ? own[own.length - 1]!.balance : a.opening;
    return money(a.opening).plus(a.credits).plus(a.debits).plus(a.fees).eq(a.closing) && money(last).eq(a.closing);
  });
}
