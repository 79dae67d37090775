import { z } from 'zod';
import { AmountInput, Decimal } from './common.js';
import type { Decimal as DecimalValue } from 'decimal.js';
import { ProfileDetailsSchema } from './profile-details.js';
import { availableBalance, effectiveBalance, initialState, type AssetBalance } from '../wallet/wallet.js';
import type { AssetId } from './assets.js';

/*
 * Wallet and payments (spec 001 sections 3, 9, 10): the profile details with the balance
 * buckets, deposit, withdrawal and send requests, and the saved payment methods.
 */

export { ASSETS, ASSET_IDS, isAssetId, type AssetId } from './assets.js';
/** The deposit and withdrawal fee (1%) and its rounding (up, to the asset's precision). */
export { FEE_RATE, feeFor } from '../wallet/wallet.js';
/** Which of an asset's three buckets an amount counts in for its transaction's status. */
export { bucketFor, type BalanceBucket } from '../wallet/wallet.js';

/**
 * The balance buckets' rule (spec 001 section 9) as the ledger applies it, for one asset's three
 * buckets as an answer carries them: available = balance + pending withdrawals (which are zero or
 * negative); effective = balance + pending deposits + pending withdrawals. The ledger's own
 * functions decide, so a screen shows what the ledger will allow.
 */
export function bucketBalances(assetId: AssetId, buckets: AssetBalance): { available: DecimalValue; effective: DecimalValue } {
  const state = initialState();
  state.assets.set(assetId, buckets);
  return { available: availableBalance(state, assetId), effective: effectiveBalance(state, assetId) };
}

/** The profile-details answer: permissions and notes, KYC fields and the three balance buckets per asset (one definition, profile-details.ts). */
export const ProfileDetails = ProfileDetailsSchema;
export type ProfileDetails = z.infer<typeof ProfileDetails>;

/** create-deposit-request and create-withdrawal-request: what to buy or sell, with which saved method, for whom (the caller). */
export const FiatRequestBody = z.object({
  tokenId: z.string().max(10),
  amount: AmountInput,
  paymentMethodId: z.string().max(64),
  userId: z.string().max(64),
});

/** A deposit or withdrawal request: the amount asked and the fee it carries. */
export const FiatRequestAnswer = z.object({ success: z.boolean(), transactionId: z.string(), amount: Decimal, fee: Decimal });

/** create-pending-withdrawal: a send of an amount of an asset to an address. */
export const SendRequestBody = z.object({ assetId: z.string().max(10), amount: AmountInput, recipientAddress: z.string().max(200) });

/** A send to an address: pending until staff settle it. */
export const SendAnswer = z.object({ success: z.boolean(), transactionId: z.string() });

export { AddPaymentMethodBody, PaymentMethodAnswer, PaymentMethodList, PaymentMethodParams, PaymentMethodView } from './payment-methods.js';
