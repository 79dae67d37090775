import { useCallback, useEffect, useState } from 'react';
import { fetchTransactions, type Transaction } from '../../shared/api/transactions.js';

/** How many transactions the overview shows (spec 001 section 9). */
export const RECENT_COUNT = 3;
export const RECENT_ERROR = 'Failed to fetch recent transactions.';

export type RecentState = { transactions: Transaction[]; loading: boolean; error: string | null };

/** The newest transactions; `reload` reads them again while the shown ones stay. */
export function useRecentTransactions(): RecentState & { reload: () => void } {
  const [state, setState] = useState<RecentState>({ transactions: [], loading: true, error: null });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchTransactions(1, RECENT_COUNT, controller.signal)
      .then((page) => setState({ transactions: page.transactions ?? [], loading: false, error: null }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ transactions: [], loading: false, error: RECENT_ERROR });
      });
    return () => controller.abort();
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
