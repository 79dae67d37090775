import type { Decimal } from 'decimal.js';
import { ASSET_IDS, type AssetId } from '../assets.js';
import { formatAmount, money, ZERO } from '../money.js';
import type { RecordedEvent } from '../event-store/port.js';
import { isWalletEventType, openedType, type RowType, type WalletEvent } from '../wallet/events.js';
import { assetBalance, evolve, initialState } from '../wallet/wallet.js';
import { csvRow } from '../csv.js';

export interface StatementLine {
  at: string;
  assetId: AssetId;
  transactionId: string | null;
  type: string;
  description: string;
  /** The change to the balance (signed, fee included). */
  amount: string;
  fee: string;
  balanceAfter: string;
  eventId: string;
}

export interface StatementAsset {
  assetId: AssetId;
  opening: string;
  credits: string;
  debits: string;
  closing: string;
  /** Still pending at the end of the period (not in the balance). */
  pendingDeposits: string;
  pendingWithdrawals: string;
}

export interface Statement {
  userId: string;
  from: string;
  to: string;
  assets: StatementAsset[];
  lines: StatementLine[];
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

/**
 * A customer's statement for [from, to]: per asset the opening balance, every change to
 * the balance (the spec's balance, the sum of Complete amounts) with the balance after it,
 * and the closing balance. Opening + credits + debits = closing, per asset. With
 * `hideHidden` (the customer's own copy) a transaction staff hid from the customer's view
 * shows only as a "Balance adjustment" line (its amount and the balance after it, without
 * its id, type, fee or note), so that the customer's copy still reconciles line by line.
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
  const fees = new Map<string, string>();
  const types = new Map<string, RowType>();
  const opening = new Map<AssetId, Decimal>();
  const credits = new Map<AssetId, Decimal>();
  const debits = new Map<AssetId, Decimal>();
  const lines: StatementLine[] = [];
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
    const data = e.data as { transactionId?: string; fee?: string; isHidden?: boolean };
    const openedAs = openedType(event);
    if (openedAs && data.transactionId) types.set(data.transactionId, openedAs);
    if (event.type === 'wallet.transaction-edited' && event.data.type) types.set(event.data.transactionId, event.data.type);
    if (data.transactionId && data.fee !== undefined) fees.set(data.transactionId, data.fee);
    if (data.transactionId && data.isHidden) hidden.add(data.transactionId);
    if (!opened) continue;
    for (const a of ASSET_IDS) {
      const after = assetBalance(state, a).balance;
      const change = after.minus(before.get(a)!);
      if (change.isZero()) continue;
      const type = (data.transactionId ? types.get(data.transactionId) : undefined) ?? 'adjustment';
      (change.isPositive() ? credits : debits).set(a, ((change.isPositive() ? credits : debits).get(a) ?? ZERO).plus(change));
      const masked = opts.hideHidden && data.transactionId !== undefined && hidden.has(data.transactionId);
      lines.push({
        at: e.recordedAt.toISOString(),
        assetId: a,
        transactionId: masked ? null : (data.transactionId ?? null),
        type: masked ? 'adjustment' : type,
        description: masked ? BALANCE_ADJUSTMENT : (FIXED[e.type] ?? `${label(type)} ${VERBS[e.type] ?? 'changed'}`),
        amount: formatAmount(change),
        fee: masked ? '0' : (fees.get(data.transactionId ?? '') ?? '0'),
        balanceAfter: formatAmount(after),
        eventId: e.eventId,
      });
    }
  }
  open();
  const assets: StatementAsset[] = ASSET_IDS.filter((a) => opening.has(a) || credits.has(a) || debits.has(a)).map((a) => {
    const b = assetBalance(state, a);
    return {
      assetId: a,
      opening: formatAmount(opening.get(a) ?? ZERO),
      credits: formatAmount(credits.get(a) ?? ZERO),
      debits: formatAmount(debits.get(a) ?? ZERO),
      closing: formatAmount(b.balance),
      pendingDeposits: formatAmount(b.pendingDeposits),
      pendingWithdrawals: formatAmount(b.pendingWithdrawals),
    };
  });
  return { userId, from: from.toISOString(), to: to.toISOString(), assets, lines };
}

/** The statement as CSV: opening and closing rows per asset around its lines. */
export function statementCsv(s: Statement): string {
  const rows: string[][] = [['date', 'asset', 'transaction_id', 'type', 'description', 'amount', 'fee', 'balance_after']];
  for (const a of s.assets) {
    rows.push([s.from, a.assetId, '', 'opening', 'Opening balance', '', '', a.opening]);
    for (const l of s.lines.filter((x) => x.assetId === a.assetId)) {
      rows.push([l.at, l.assetId, l.transactionId ?? '', l.type, l.description, l.amount, l.fee, l.balanceAfter]);
    }
    rows.push([s.to, a.assetId, '', 'closing', 'Closing balance', '', '', a.closing]);
  }
  return rows.map(csvRow).join('');
}

/** Checks opening + credits + debits = closing for every asset of a statement. */
export function statementAddsUp(s: Statement): boolean {
  return s.assets.every((a) => money(a.opening).plus(a.credits).plus(a.debits).eq(a.closing));
}
