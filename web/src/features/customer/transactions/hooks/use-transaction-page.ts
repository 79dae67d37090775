import { useTransactionsQuery, type Transaction } from '@/features/customer/shared/api/transactions.js';

/** Transactions per page (spec 001 section 9). */
export const PAGE_SIZE = 10;

export type TransactionPageState = {
  transactions: Transaction[];
  count: number;
  loading: boolean;
  error: string | null;
};

/**
 * One page of the customer's transactions, newest first; the page shown stays while the next
 * loads. A change to the customer's transactions (the live subscription) reads the page again.
 */
export function useTransactionPage(page: number): TransactionPageState {
  const query = useTransactionsQuery(page, PAGE_SIZE);
  const reason = query.error?.message || 'Unknown error';
  return {
    transactions: query.data?.transactions ?? [],
    count: query.data?.count ?? 0,
    loading: query.isFetching,
    error: query.error ? `Error loading transactions: ${reason}` : null,
  };
}
