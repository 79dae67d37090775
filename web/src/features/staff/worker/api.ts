import type { z } from 'zod';
import {
  Claimed,
  FoundUser as FoundUserAnswer,
  LATEST_ANNOUNCEMENTS,
  type Announcements,
  type AnnouncementsQuery,
  type ClaimUserBody,
  type ListMyUsersBody,
  type OwnedUsers,
  type SearchUserBody,
  type WorkerManager,
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
/** A customer the worker claimed, and a manager's announcement, as the contract answers them. */
export type { Announcement, OwnedUser } from '@ledger/contract/staff-workers.js';

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
  return postJson<z.infer<typeof OwnedUsers>>('functions/v1/list-my-users', body);
}

export async function getWorkerManager(workerId: string): Promise<string | null> {
  const body: z.input<typeof WorkerManagerBody> = { p_worker_id: workerId };
  return (await postJson<z.infer<typeof WorkerManager>>('api/v1/rpc/get_worker_manager', body)).managerId;
}

export function latestAnnouncements(managerId: string) {
  const query = { manager_id: managerId, limit: LATEST_ANNOUNCEMENTS } satisfies z.input<typeof AnnouncementsQuery>;
  return getJson<z.infer<typeof Announcements>>('api/v1/announcements', { searchParams: query });
}
