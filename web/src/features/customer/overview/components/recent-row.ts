import type { Transaction } from '@/features/customer/shared/api/transactions.js';
import { toDecimal } from '@/lib/money.js';

/** One row of the recent list: a single transaction, or the two halves of a swap merged. */
export type RecentRow =
  { kind: 'single'; key: string; transaction: Transaction } | { kind: 'swap'; key: string; from: Transaction; to: Transaction };

/**
 * Two transactions of one swap request (one negative, one positive) become one row
 * (spec 001 section 4); everything else stays as it is, in order.
 */
export function mergeSwaps(transactions: Transaction[]): RecentRow[] {
  const rows: RecentRow[] = [];
  const used = new Set<string>();
  for (const t of transactions) {
    if (used.has(t.id)) continue;
    const partner =
      t.request_id && t.type === 'swap'
        ? transactions.find(
            (o) =>
              o.id !== t.id &&
              !used.has(o.id) &&
              o.type === 'swap' &&
              o.request_id === t.request_id &&
              toDecimal(o.amount).isNegative() !== toDecimal(t.amount).isNegative(),
          )
        : undefined;
    if (partner) {
      used.add(t.id);
      used.add(partner.id);
      const [from, to] = toDecimal(t.amount).isNegative() ? [t, partner] : [partner, t];
      rows.push({ kind: 'swap', key: t.request_id ?? t.id, from, to });
    } else {
      used.add(t.id);
      rows.push({ kind: 'single', key: t.id, transaction: t });
    }
  }
  return rows;
}
