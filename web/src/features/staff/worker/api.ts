import { getJson, postJson } from '../../../lib/api-client.js';

/** A customer found by exact e-mail (spec 002: Found user). */
export type FoundUser = { id: string; email: string; role: string };
export type OwnedUser = { user_email: string; profile_user_id: string; profile_created_at: string };
export type Announcement = { id: string; manager_id: string; message: string; created_at: string };

export function searchUserByEmail(emailToSearch: string) {
  return postJson<{ user: FoundUser | null; message?: string }>('functions/v1/search-user-by-email', { emailToSearch });
}

export function claimUser(userIdToClaim: string) {
  return postJson<{ success: boolean; message: string }>('functions/v1/claim-user', { userIdToClaim });
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
