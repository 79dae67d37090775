import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { LoginEntry as LoginEntrySchema, LoginHistoryQuery } from '@ledger/contract/access.js';
import { ProfileDetailsSchema } from '@ledger/contract/profile-details.js';
import { KycDetails } from '@ledger/contract/kyc.js';
import type { TargetUserBody } from '@ledger/contract/common.js';
import { BuyingLinks, StaffPaymentMethod, type BuyingLinksQuery } from '@ledger/contract/staff-buying-links.js';
import { StaffTransactionPage, TrailPage, type StaffTransactionsQuery, type TrailQuery } from '@ledger/contract/staff-users.js';
import { getJson, postJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';
import { profileApi, type TrailKind } from './calls.js';

/** The User Profile's cached reads (TanStack Query), under one key per customer. */
export const profileKeys = {
  all: (userId: string) => ['staff-profile', userId] as const,
  details: (userId: string) => ['staff-profile', userId, 'details'] as const,
  logins: (userId: string, page: number) => ['staff-profile', userId, 'logins', page] as const,
  paymentMethods: (userId: string) => ['staff-profile', userId, 'payment-methods'] as const,
  buyingLinks: (userId: string) => ['staff-profile', userId, 'buying-links'] as const,
  trail: (userId: string, kind: string, page: number) => ['staff-profile', userId, 'trail', kind, page] as const,
  prices: ['staff-profile', 'prices'] as const,
  kyc: (userId: string) => ['staff-profile', userId, 'kyc'] as const,
  transactions: (userId: string) => ['staff-profile', userId, 'transactions'] as const,
};

export const TRANSACTIONS_FAILED = 'Failed to fetch transactions.';

export const NO_KYC_DETAILS = 'No KYC details returned from function.';

export const TRAIL_FAILED = 'Failed to load the event trail.';

export const METHODS_FAILED = 'Failed to load payment methods.';
export const LINKS_FAILED = 'Failed to load crypto buying links.';

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
        await postJson('functions/v1/get-user-profile-details', { targetUserId: userId } satisfies z.input<typeof TargetUserBody>, {
          signal,
        }),
        DETAILS_FAILED,
      ),
  });
}

/** One sign-in of the customer's login history (the access contract's LoginEntry). */
export type LoginEntry = z.infer<typeof LoginEntrySchema>;

/** One page of the customer's sign-ins, newest first. */
export function useLoginHistory(userId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...profileKeys.logins(userId, page), pageSize],
    queryFn: async ({ signal }) =>
      parseAnswer(
        z.array(LoginEntrySchema),
        await getJson('functions/v1/get-login-history', {
          signal,
          searchParams: { targetUserId: userId, page, pageSize } satisfies z.input<typeof LoginHistoryQuery>,
        }),
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

/** The customer's payment methods, masked (Payment Management tab). */
export function useStaffPaymentMethods(userId: string) {
  return useQuery({
    queryKey: profileKeys.paymentMethods(userId),
    queryFn: async ({ signal }) =>
      parseAnswer(
        z.object({ paymentMethods: z.array(StaffPaymentMethod) }),
        await getJson(`api/v1/users/${userId}/payment-methods`, { signal }),
        METHODS_FAILED,
      ).paymentMethods,
  });
}

/** The default crypto buying services and the customer's custom links. */
export function useBuyingLinks(userId: string) {
  return useQuery({
    queryKey: profileKeys.buyingLinks(userId),
    queryFn: async ({ signal }) =>
      parseAnswer(
        BuyingLinks,
        await getJson('api/v1/buying-links', { signal, searchParams: { userId } satisfies z.input<typeof BuyingLinksQuery> }),
        LINKS_FAILED,
      ),
  });
}

/** A page of the customer's event trail, newest first, of one kind or all. */
export function useEventTrail(userId: string, kind: TrailKind | 'all', page: number, pageSize: number) {
  return useQuery({
    queryKey: [...profileKeys.trail(userId, kind, page), pageSize],
    queryFn: async ({ signal }) =>
      parseAnswer(
        TrailPage,
        await getJson(`api/v1/users/${userId}/event-trail`, {
          signal,
          searchParams: { kind, page, pageSize } satisfies z.input<typeof TrailQuery>,
        }),
        TRAIL_FAILED,
      ),
    // The page shown stays until the next one is read.
    placeholderData: (previous) => previous,
  });
}

/** USD prices for the Wallets tab; a failure shows no prices, as before. */
export function useStaffPrices() {
  const query = useQuery({ queryKey: profileKeys.prices, queryFn: ({ signal }) => profileApi.prices(signal) });
  return query.data ?? {};
}

/** get-kyc-details (docs/api-kyc.md): the submission and short-lived links to its documents. */
export function useKycDetails(userId: string | undefined) {
  return useQuery({
    queryKey: profileKeys.kyc(userId ?? ''),
    enabled: Boolean(userId),
    queryFn: async ({ signal }) =>
      parseAnswer(
        KycDetails,
        // `enabled` holds the read until there is a user id.
        await postJson('functions/v1/get-kyc-details', { targetUserId: userId! } satisfies z.input<typeof TargetUserBody>, { signal }),
        NO_KYC_DETAILS,
      ),
  });
}

/**
 * The staff history, newest first, a page at a time: `before` is the last row already shown,
 * `next` the one to ask with next (null at the end). Read again, it reads as many pages as shown.
 */
export function useStaffTransactions(userId: string) {
  return useInfiniteQuery({
    queryKey: profileKeys.transactions(userId),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }) =>
      parseAnswer(
        StaffTransactionPage,
        await getJson(`api/v1/users/${userId}/transactions`, {
          signal,
          ...(pageParam ? { searchParams: { before: pageParam } satisfies z.input<typeof StaffTransactionsQuery> } : {}),
        }),
        TRANSACTIONS_FAILED,
      ),
    getNextPageParam: (last) => last.next,
  });
}
