import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { z } from 'zod';
import type { TargetUserBody } from '@ledger/contract/common.js';
import { ProfileDetailsSchema, type ProfileDetails } from '@ledger/contract/profile-details.js';
import { postJson } from '@/lib/api-client.js';
import { errorMessage } from '@/lib/error-text.js';
import { parseAnswer } from '@/lib/query.js';
import { useRefetchOn } from '@/lib/query-realtime.js';
import { useSession } from '@/lib/session.js';
import type { AssetId } from '../assets.js';
import { customerKeys } from './keys.js';

export type { KycStatus, ProfileDetails } from '@ledger/contract/profile-details.js';

/** Amounts per asset as decimal strings. */
export type AmountMap = Partial<Record<AssetId, string>>;

export const PROFILE_MESSAGES = {
  failed: 'Failed to fetch wallet details.',
  empty: 'No data returned from get-user-profile-details.',
} as const;

/** POST get-user-profile-details for the signed-in user. */
export async function fetchProfileDetails(userId: string, signal?: AbortSignal): Promise<ProfileDetails> {
  const body: z.input<typeof TargetUserBody> = { targetUserId: userId };
  const details = await postJson('functions/v1/get-user-profile-details', body, { signal });
  return parseAnswer(ProfileDetailsSchema, details, PROFILE_MESSAGES.empty);
}

/** The signed-in customer's details: the read, for the hook and for a read ahead of the screen. */
export const profileQuery = (userId: string) => ({
  queryKey: customerKeys.profile,
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchProfileDetails(userId, signal),
});

export type ProfileState = {
  profile: ProfileDetails | null;
  loading: boolean;
  /** The server's message, 'No data returned ...' or 'Failed to fetch wallet details.'. */
  error: string | null;
  /** Reads the details again (after a deposit, withdrawal or send); the shown ones stay meanwhile. */
  reload: () => void;
};

/**
 * The signed-in customer's profile details: balances, pending amounts, addresses, flags, KYC
 * status. Read again whenever a transaction of theirs changes (the realtime hint).
 */
export function useProfileDetails(): ProfileState {
  const userId = useSession((s) => s.user?.id ?? null);
  const client = useQueryClient();
  const query = useQuery({ ...profileQuery(userId ?? ''), enabled: userId !== null });
  useRefetchOn('transactions', [customerKeys.profile]);
  const reload = useCallback(() => void client.invalidateQueries({ queryKey: customerKeys.profile }), [client]);
  if (!userId) return { profile: null, loading: false, error: PROFILE_MESSAGES.failed, reload };
  return {
    profile: query.data ?? null,
    loading: query.isFetching || query.isPending,
    error: query.error ? errorMessage(query.error, PROFILE_MESSAGES.failed) : null,
    reload,
  };
}
