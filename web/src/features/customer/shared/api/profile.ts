import { ApiError, postJson } from '../../../../lib/api-client.js';
import type { AssetId } from '../assets.js';

export type KycStatus = 'not_started' | 'pending' | 'verified' | 'rejected';

/** Amounts per asset as decimal strings. */
export type AmountMap = Partial<Record<AssetId, string>>;

/** The profile-details answer (docs/api-money.md). */
export type ProfileDetails = {
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  dob: string | null;
  country: string | null;
  city: string | null;
  postal_code: string | null;
  full_address: string | null;
  kyc_status: KycStatus | string | null;
  balances: AmountMap;
  pendingDeposits: AmountMap;
  pendingWithdrawals: AmountMap;
  addresses: Partial<Record<AssetId, string | null>>;
  can_buy: boolean;
  can_sell: boolean;
  can_swap: boolean;
  can_stake: boolean;
  can_send?: boolean;
  buy_disabled_note: string | null;
  sell_disabled_note: string | null;
  swap_disabled_note: string | null;
  stake_disabled_note: string | null;
  send_disabled_note?: string | null;
  dashboard_note: string | null;
};

export const PROFILE_MESSAGES = {
  failed: 'Failed to fetch wallet details.',
  empty: 'No data returned from get-user-profile-details.',
} as const;

/** POST get-user-profile-details for the signed-in user. */
export async function fetchProfileDetails(userId: string, signal?: AbortSignal): Promise<ProfileDetails> {
  const details = await postJson<ProfileDetails | null>('functions/v1/get-user-profile-details', { targetUserId: userId }, { signal });
  if (!details || typeof details !== 'object' || !details.balances) throw new ApiError(PROFILE_MESSAGES.empty, 200, details);
  return details;
}
