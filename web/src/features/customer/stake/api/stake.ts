import { getJson, postJson } from '@/lib/api-client.js';
import { idempotent } from '@/features/customer/shared/api/idempotency.js';

/** An active stake: a scheduled_transactions row with status pending and type stake_payout. */
export type ScheduledTransaction = {
  id: string;
  asset_id: string;
  amount: string;
  duration_days: number;
  rate: string;
  estimated_earnings: string;
  scheduled_at: string;
  status: string;
  type: string;
  created_at: string;
};

export function createStake(body: {
  assetId: string;
  amount: string;
  durationDays: number;
  rate: string;
}): Promise<{ success: boolean; message?: string }> {
  return postJson('functions/v1/create-stake-transaction', body, idempotent());
}

/** GET scheduled-transactions: own, pending stake payouts, by scheduled_at ascending. */
export async function fetchActiveStakes(signal?: AbortSignal): Promise<ScheduledTransaction[]> {
  const answer = await getJson<{ scheduledTransactions?: ScheduledTransaction[] } | null>(
    'api/v1/scheduled-transactions?status=pending&type=stake_payout',
    { signal },
  );
  return Array.isArray(answer?.scheduledTransactions) ? answer.scheduledTransactions : [];
}

export const STAKE_TEXT = {
  unexpected: 'An unexpected error occurred while staking.',
  loadFailed: 'Failed to load active stakes.',
  userNotFound: 'User not found.',
  holding: 'Holding',
} as const;
