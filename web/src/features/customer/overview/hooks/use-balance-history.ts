import { useCallback, useEffect, useState } from 'react';
import { getJson } from '../../../../lib/api-client.js';

export type DayBalances = { date: string; balances: Record<string, string> };
export type BalanceHistoryState = { days: DayBalances[] | null; loading: boolean; error: string | null };

export const HISTORY_DAYS = 30;
export const HISTORY_ERROR = 'Failed to load your balance history.';

/** GET /api/v1/balance-history: settled balances per asset at the end of each of the last 30 days. */
export function useBalanceHistory(): BalanceHistoryState & { reload: () => void } {
  const [state, setState] = useState<BalanceHistoryState>({ days: null, loading: true, error: null });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getJson<{ days?: DayBalances[] }>(`api/v1/balance-history?days=${HISTORY_DAYS}`, { signal: controller.signal })
      .then((answer) => setState({ days: Array.isArray(answer?.days) ? answer.days : [], loading: false, error: null }))
      .catch(() => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, loading: false, error: HISTORY_ERROR }));
      });
    return () => controller.abort();
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
