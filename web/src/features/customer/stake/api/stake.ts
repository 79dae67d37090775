import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  ScheduledTransaction as ScheduledTransactionSchema,
  ScheduledTransactions,
  type ScheduledTransactionsQuery,
  type StakeAnswer,
  type StakeRequestBody,
} from '@ledger/contract/staking.js';
import { getJson, postJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';
import { useRefetchOn } from '@/lib/query-realtime.js';
import { idempotent } from '@/features/customer/shared/api/idempotency.js';
import { customerKeys } from '@/features/customer/shared/api/keys.js';

/** An active stake: a scheduled_transactions row with status pending and type stake_payout (the staking contract). */
export type ScheduledTransaction = z.infer<typeof ScheduledTransactionSchema>;

export function createStake(body: z.input<typeof StakeRequestBody>): Promise<z.infer<typeof StakeAnswer>> {
  return postJson('functions/v1/create-stake-transaction', body, idempotent());
}

/** GET scheduled-transactions: own, pending stake payouts, by scheduled_at ascending. */
export async function fetchActiveStakes(signal?: AbortSignal): Promise<ScheduledTransaction[]> {
  const query: z.input<typeof ScheduledTransactionsQuery> = { status: 'pending', type: 'stake_payout' };
  const answer = await getJson('api/v1/scheduled-transactions', { searchParams: query, signal });
  return parseAnswer(ScheduledTransactions, answer, STAKE_TEXT.loadFailed).scheduledTransactions;
}

/** The customer's active stakes; a payout at maturity arrives as a new transaction, so that hint reads them again. */
export function useActiveStakes() {
  useRefetchOn('transactions', [customerKeys.activeStakes]);
  return useQuery({ queryKey: customerKeys.activeStakes, queryFn: ({ signal }) => fetchActiveStakes(signal) });
}

export const STAKE_TEXT = {
  unexpected: 'An unexpected error occurred while staking.',
  loadFailed: 'Failed to load active stakes.',
  userNotFound: 'User not found.',
  holding: 'Holding',
} as const;
