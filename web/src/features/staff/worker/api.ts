import type { z } from 'zod';
import { Claimed, FoundUser as FoundUserAnswer } from '@ledger/contract/staff-workers.js';
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
  return parseAnswer(FoundUserAnswer, await postJson('functions/v1/search-user-by-email', { emailToSearch }), SEARCH_TEXT.unexpectedSearch);
}

export async function claimUser(userIdToClaim: string) {
  return parseAnswer(Claimed, await postJson('functions/v1/claim-user', { userIdToClaim }), SEARCH_TEXT.unexpectedClaim);
}

/** One page of the customers this worker claimed, newest claim first, and how many there are in all. */
export function listMyUsers(page: number, pageSize: number) {
  return postJson<{ ownedUsers: OwnedUser[]; totalCount: number }>('functions/v1/list-my-users', { page, pageSize });
}

export async function getWorkerManager(workerId: string): Promise<string | null> {
  return (await postJson<{ managerId: string | null }>('api/v1/rpc/get_worker_manager', { p_worker_id: workerId })).managerId;
}

export function latestAnnouncements(managerId: string): Promise<Announcement[]> {
  return getJson<Announcement[]>(`api/v1/announcements?manager_id=${encodeURIComponent(managerId)}&limit=5`);
}
