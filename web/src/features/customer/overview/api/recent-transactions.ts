import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { customerKeys } from '@/features/customer/shared/api/keys.js';
import { useTransactionsQuery, type Transaction } from '@/features/customer/shared/api/transactions.js';

/** How many transactions the overview shows (spec 001 section 9). */
export const RECENT_COUNT = 3;
export const RECENT_ERROR = 'Failed to fetch recent transactions.';

export type RecentState = { transactions: Transaction[]; loading: boolean; error: string | null };

/** The newest transactions, read again on every change; `reload` reads them again while the shown ones stay. */
export function useRecentTransactions(): RecentState & { reload: () => void } {
  const client = useQueryClient();
  const query = useTransactionsQuery(1, RECENT_COUNT);
  const reload = useCallback(() => void client.invalidateQueries({ queryKey: customerKeys.transactions(1, RECENT_COUNT) }), [client]);
  // As before: a failed read shows the error instead of the list.
  if (query.error) return { transactions: [], loading: false, error: RECENT_ERROR, reload };
  return { transactions: query.data?.transactions ?? [], loading: query.isPending, error: null, reload };
}
