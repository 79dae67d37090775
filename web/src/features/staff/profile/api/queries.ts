import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ProfileDetailsSchema } from '../../../../../../ledger/contract/profile-details.js';
import { getJson, postJson } from '../../../../lib/api-client.js';
import { parseAnswer } from '../../../../lib/query.js';

/** The User Profile's cached reads (TanStack Query), under one key per customer. */
export const profileKeys = {
  all: (userId: string) => ['staff-profile', userId] as const,
  details: (userId: string) => ['staff-profile', userId, 'details'] as const,
  logins: (userId: string, page: number) => ['staff-profile', userId, 'logins', page] as const,
};

export const DETAILS_FAILED = 'Failed to fetch user details.';
export const LOGINS_FAILED = 'Failed to fetch login history';

/** The customer's details (balances, flags, KYC, ban), once the access check let the caller in. */
export function useProfileDetails(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: profileKeys.details(userId),
    enabled,
    queryFn: async ({ signal }) =>
      parseAnswer(
        ProfileDetailsSchema,
        await postJson('functions/v1/get-user-profile-details', { targetUserId: userId }, { signal }),
        DETAILS_FAILED,
      ),
  });
}

export const LoginEntrySchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type LoginEntry = z.infer<typeof LoginEntrySchema>;

/** One page of the customer's sign-ins, newest first. */
export function useLoginHistory(userId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...profileKeys.logins(userId, page), pageSize],
    queryFn: async ({ signal }) =>
      parseAnswer(
        z.array(LoginEntrySchema),
        await getJson('functions/v1/get-login-history', { signal, searchParams: { targetUserId: userId, page, pageSize } }),
        LOGINS_FAILED,
      ),
  });
}

/**
 * A staff action on the customer (`call`); once it succeeded, the details are read again
 * before the action counts as done (unless it changes nothing they show).
 */
export function useProfileCommand<V>(userId: string, call: (variables: V) => Promise<unknown>, { refreshDetails = true } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => (refreshDetails ? client.invalidateQueries({ queryKey: profileKeys.details(userId) }) : undefined),
  });
}
