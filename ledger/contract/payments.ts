import { z } from 'zod';
import { Decimal } from './common.js';
import { KycPersonalDetails } from './kyc.js';

/*
 * Wallet and payments (spec 001 sections 3, 9, 10): the profile details with the balance
 * buckets, deposit, withdrawal and send requests, and the saved payment methods.
 */

export { ASSETS, ASSET_IDS, isAssetId, type AssetId } from '../assets.js';
/** The deposit and withdrawal fee (1%) and its rounding (up, to the asset's precision). */
export { FEE_RATE, feeFor } from '../wallet/wallet.js';

/** A decimal per asset id. */
const PerAsset = z.record(z.string(), Decimal);

/** The profile-details answer: permissions and notes, KYC fields and the three balance buckets per asset. */
export const ProfileDetails = KycPersonalDetails.extend({
  user_id: z.string(),
  email: z.string(),
  created_at: z.string(),
  banned_until: z.string().nullable(),
  /** Settled. */
  balances: PerAsset,
  /** Pending money in (not spendable yet). */
  pendingDeposits: PerAsset,
  /** Pending money out (zero or negative; already held back from what can be spent). */
  pendingWithdrawals: PerAsset,
  addresses: z.record(z.string(), z.string()),
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
export type ProfileDetails = z.infer<typeof ProfileDetails>;

/** A deposit or withdrawal request: the amount asked and the fee it carries. */
export const FiatRequestAnswer = z.object({ success: z.boolean(), transactionId: z.string(), amount: Decimal, fee: Decimal });

/** A send to an address: pending until staff settle it. */
export const SendAnswer = z.object({ success: z.boolean(), transactionId: z.string() });

export { AddPaymentMethodBody, PaymentMethodView } from './payment-methods.js';
