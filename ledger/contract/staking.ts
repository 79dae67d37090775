import { z } from 'zod';
import { Decimal } from './common.js';

/* Staking (spec 001 section 8): the plans, the limits' messages, a stake and its scheduled payout. */

export { STAKEABLE_ASSETS, STAKE_PLANS, STAKE_MESSAGES, estimatedEarnings, type StakePlan } from '../staking/plans.js';

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

export const ScheduledTransactions = z.object({ scheduledTransactions: z.array(ScheduledTransaction) });
