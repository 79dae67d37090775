import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { BalanceHistoryQuery } from '@ledger/contract/transactions.js';
import { getJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';
import { useRefetchOn } from '@/lib/query-realtime.js';
import { customerKeys } from '@/features/customer/shared/api/keys.js';

export const DayBalancesSchema = z.object({ date: z.string(), balances: z.record(z.string(), z.string()) });
export type DayBalances = z.infer<typeof DayBalancesSchema>;
export type BalanceHistoryState = { days: DayBalances[] | null; loading: boolean; error: string | null };

export const HISTORY_DAYS = 30;
export const HISTORY_ERROR = 'Failed to load your balance history.';

const HistorySchema = z.object({ days: z.array(DayBalancesSchema) });

/** The read of the last `days` days' balances, for the hook and for a read ahead of the screen. */
export const balanceHistoryQuery = (days: number) => ({
  queryKey: customerKeys.balanceHistory(days),
  queryFn: async ({ signal }: { signal?: AbortSignal }) =>
    parseAnswer(
      HistorySchema,
      await getJson('api/v1/balance-history', {
        signal,
        searchParams: { days } satisfies z.input<typeof BalanceHistoryQuery>,
      }),
      HISTORY_ERROR,
    ).days,
});

/**
 * GET /api/v1/balance-history: settled balances per asset at the end of each of the last 30
 * days, read again whenever a transaction changes (the realtime hint).
 */
export function useBalanceHistory(): BalanceHistoryState {
  const key = customerKeys.balanceHistory(HISTORY_DAYS);
  useRefetchOn('transactions', [key]);
  const query = useQuery(balanceHistoryQuery(HISTORY_DAYS));
  return { days: query.data ?? null, loading: query.isPending, error: query.error ? HISTORY_ERROR : null };
}
