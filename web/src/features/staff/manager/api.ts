import { postJson, postJsonWithHeaders } from '../../../lib/api-client.js';

export type Worker = { id: string; full_name: string; email: string };
/** A row of All Users (spec 002: User list item). */
export type ManagedUser = {
  id: string;
  full_name: string | null;
  email: string | null;
  kyc_status: string | null;
  created_at: string | null;
  assigned_worker_name: string | null;
};

export function createWorker(input: { fullName: string; email: string; password: string }) {
  return postJson<{ success: boolean; message: string }>('functions/v1/create-worker-for-manager', input);
}

/** All the manager's workers, by name (e.g. to choose one to assign a ticket to). */
export function listWorkers(managerId: string): Promise<Worker[]> {
  return postJson<Worker[]>('api/v1/rpc/get_worker_info', { p_manager_id: managerId });
}

/** One page of the manager's workers, by name, and how many there are in all. */
export async function listWorkersPage(
  managerId: string,
  page: number,
  pageSize: number,
): Promise<{ workers: Worker[]; totalCount: number }> {
  const { body, headers } = await postJsonWithHeaders<Worker[]>('api/v1/rpc/get_worker_info', {
    p_manager_id: managerId,
    p_page: page,
    p_page_size: pageSize,
  });
  return { workers: body, totalCount: Number(headers.get('X-Total-Count') ?? body.length) };
}

export function resetWorkerPassword(workerId: string) {
  return postJson<{ temporaryPassword?: string }>('functions/v1/reset-worker-password', { workerId });
}

export function createAnnouncement(managerId: string, message: string) {
  return postJson<{ success: boolean }>('api/v1/rpc/create_announcement', { p_manager_id: managerId, p_message: message });
}

export function usersForManager(page: number, perPage: number, searchQuery: string, signal?: AbortSignal) {
  return postJson<{ users: ManagedUser[]; totalCount: number }>(
    'functions/v1/get-users-for-manager',
    { page, perPage, searchQuery },
    { signal },
  );
}
