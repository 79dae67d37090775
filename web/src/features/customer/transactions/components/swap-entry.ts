import type { Transaction } from '@/features/customer/shared/api/transactions.js';

/** A list entry as the API answers it: a swap is its spent leg with the received leg linked. */
export type TransactionEntry = Transaction & { linkedTransaction?: Transaction | null };

export type SwapPair = { spent: Transaction; received: Transaction };

/** The two legs of a merged swap entry, or null when the entry is a single transaction. */
export function swapPair(entry: TransactionEntry | null | undefined): SwapPair | null {
  if (!entry || entry.type !== 'swap' || !entry.linkedTransaction) return null;
  return { spent: entry, received: entry.linkedTransaction };
}
