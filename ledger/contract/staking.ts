import { z } from 'zod';
import { AmountInput, Decimal } from './common.js';

/* Staking (spec 001 section 8): the plans, the limits' messages, a stake and its scheduled payout. */

export { STAKEABLE_ASSETS, STAKE_PLANS, STAKE_MESSAGES, estimatedEarnings, type StakePlan } from '../staking/plans.js';

/** create-stake-transaction: the amount of an asset to lock, and the plan's duration and rate. */
export const StakeRequestBody = z.object({
  assetId: z.string().max(10),
  amount: AmountInput,
  durationDays: z.coerce.number().int().min(1).max(10_000),
  rate: z.union([z.string().max(32), z.number()]),
});

/** A stake opened: the message the screen shows, when it pays out and what it should earn. */
export const StakeAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  stakeId: z.string(),
  scheduledAt: z.string(),
  estimatedEarnings: Decimal,
});

/** A stake's payout, pending until its day. */
export const ScheduledTransaction = z.object({
  id: z.string(),
  user_id: z.string(),
  asset_id: z.string(),
  amount: Decimal,
  duration_days: z.number(),
  rate: Decimal,
  estimated_earnings: Decimal,
  scheduled_at: z.string(),
  status: z.enum(['pending', 'completed']),
  type: z.literal('stake_payout'),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  payout_transaction_id: z.string().nullable(),
});

/** The scheduled-transactions read: the caller's stake payouts, pending ones unless asked otherwise. */
export const ScheduledTransactionsQuery = z.object({
  status: z.enum(['pending', 'completed']).default('pending'),
  type: z.enum(['stake_payout']).default('stake_payout'),
});

export const ScheduledTransactions = z.object({ scheduledTransactions: z.array(ScheduledTransaction) });
