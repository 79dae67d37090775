import { useEffect, useState } from 'react';
import { useRealtime } from '../../../../lib/realtime.js';
import { fetchTransactions, type Transaction } from '../../shared/api/transactions.js';

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
  const [state, setState] = useState<TransactionPageState>({ transactions: [], count: 0, loading: true, error: null });
  const [generation, setGeneration] = useState(0);

  useRealtime('transactions', () => setGeneration((g) => g + 1));

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    fetchTransactions(page, PAGE_SIZE, controller.signal)
      .then((result) => setState({ transactions: result.transactions ?? [], count: result.count ?? 0, loading: false, error: null }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const reason = error instanceof Error && error.message ? error.message : 'Unknown error';
        setState((s) => ({ ...s, loading: false, error: `Error loading transactions: ${reason}` }));
      });
    return () => controller.abort();
  }, [page, generation]);

  return state;
}
