import type { z } from 'zod';
import {
  Claimed,
  FoundUser as FoundUserAnswer,
  LATEST_ANNOUNCEMENTS,
  type AnnouncementsQuery,
  type ClaimUserBody,
  type ListMyUsersBody,
  type SearchUserBody,
  type WorkerManagerBody,
} from '@ledger/contract/staff-workers.js';
import { getJson, postJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';

/** A customer found by exact e-mail (spec 002: Found user). */
export type FoundUser = NonNullable<z.infer<typeof FoundUserAnswer>['user']>;

export const SEARCH_TEXT = {
  unexpectedSearch: 'Received an unexpected response from the server.',
  unexpectedClaim: 'An unexpected response occurred during claim.',
} as const;
export type OwnedUser = { user_email: string; profile_user_id: string; profile_created_at: string };
export type Announcement = { id: string; manager_id: string; message: string; created_at: string };

/** The answer checked against the contract; another shape fails with the spec's 'unexpected response' text. */
export async function searchUserByEmail(emailToSearch: string) {
  const body: z.input<typeof SearchUserBody> = { emailToSearch };
  return parseAnswer(FoundUserAnswer, await postJson('functions/v1/search-user-by-email', body), SEARCH_TEXT.unexpectedSearch);
}

export async function claimUser(userIdToClaim: string) {
  const body: z.input<typeof ClaimUserBody> = { userIdToClaim };
  return parseAnswer(Claimed, await postJson('functions/v1/claim-user', body), SEARCH_TEXT.unexpectedClaim);
}

/** One page of the customers this worker claimed, newest claim first, and how many there are in all. */
export function listMyUsers(page: number, pageSize: number) {
  const body: z.input<typeof ListMyUsersBody> = { page, pageSize };
  return postJson<{ ownedUsers: OwnedUser[]; totalCount: number }>('functions/v1/list-my-users', body);
}

export async function getWorkerManager(workerId: string): Promise<string | null> {
  const body: z.input<typeof WorkerManagerBody> = { p_worker_id: workerId };
  return (await postJson<{ managerId: string | null }>('api/v1/rpc/get_worker_manager', body)).managerId;
}

export function latestAnnouncements(managerId: string): Promise<Announcement[]> {
  const query = { manager_id: managerId, limit: LATEST_ANNOUNCEMENTS } satisfies z.input<typeof AnnouncementsQuery>;
  return getJson<Announcement[]>('api/v1/announcements', { searchParams: query });
}
