import { z } from 'zod';
import { Decimal, Timestamp } from './common.js';

/*
 * A customer's profile details as POST /functions/v1/get-user-profile-details answers them
 * (docs/api-money.md): the customer's own overview, wallets and payments read them, and so does
 * the staff User Profile. One definition for the server that writes the answer and the screens
 * (payments.ts names it ProfileDetails for the wallet's routes).
 */

export const KYC_STATUSES = ['not_started', 'pending', 'verified', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** Amounts per asset as decimal strings (every asset of the ledger, '0' when none). */
const AmountMapSchema = z.record(z.string(), Decimal);

export const ProfileDetailsSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  created_at: z.string(),
  banned_until: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  dob: Timestamp.nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  postal_code: z.string().nullable(),
  full_address: z.string().nullable(),
  /** One of KYC_STATUSES; declared as text, which is how the server's row holds it. */
  kyc_status: z.string().nullable(),
  /** Settled. */
  balances: AmountMapSchema,
  /** Pending money in (not spendable yet). */
  pendingDeposits: AmountMapSchema,
  /** Pending money out (zero or negative; already held back from what can be spent). */
  pendingWithdrawals: AmountMapSchema,
  /** The customer's deposit address per asset; an asset without one is missing or null. */
  addresses: z.record(z.string(), z.string().nullable()),
  can_buy: z.boolean(),
  can_sell: z.boolean(),
  can_swap: z.boolean(),
  can_stake: z.boolean(),
  can_send: z.boolean(),
  buy_disabled_note: z.string().nullable(),
  sell_disabled_note: z.string().nullable(),
  swap_disabled_note: z.string().nullable(),
  stake_disabled_note: z.string().nullable(),
  send_disabled_note: z.string().nullable(),
  dashboard_note: z.string().nullable(),
  assigned_worker_id: z.string().nullable(),
});
export type ProfileDetails = z.infer<typeof ProfileDetailsSchema>;
