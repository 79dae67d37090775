import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  ManagedUsers,
  WorkerList,
  type AnnouncementPosted,
  type CreateAnnouncementBody,
  type CreateWorkerBody,
  type ManagedUsersBody,
  type ResetWorkerPasswordBody,
  type Worker,
  type WorkerCreated,
  type WorkerInfoBody,
  type WorkerPasswordReset,
} from '@ledger/contract/staff-workers.js';
import { ApiError, postJson, postJsonWithHeaders } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';

/** One of the manager's workers, as the contract answers it. */
export type { Worker } from '@ledger/contract/staff-workers.js';
/** A page of All Users (spec 002: User list item), as the contract answers it. */
export type ManagedUsersPage = z.infer<typeof ManagedUsers>;
export type ManagedUser = ManagedUsersPage['users'][number];

export const USERS_FAILED = 'Failed to fetch users.';

export function createWorker(input: z.input<typeof CreateWorkerBody>) {
  return postJson<z.infer<typeof WorkerCreated>>('functions/v1/create-worker-for-manager', input);
}

export const WORKERS_FAILED = 'The workers could not be read.';

/** All the manager's workers, by name (e.g. to choose one to assign a ticket to). */
export async function listWorkers(managerId: string, signal?: AbortSignal): Promise<Worker[]> {
  const body: z.input<typeof WorkerInfoBody> = { p_manager_id: managerId };
  return parseAnswer(WorkerList, await postJson('api/v1/rpc/get_worker_info', body, { signal }), WORKERS_FAILED);
}

/** The manager's workers to choose from, read when the screen opens. */
export function useWorkerChoices(managerId: string | null) {
  return useQuery({
    queryKey: ['manager', 'workers', 'all', managerId],
    enabled: managerId !== null,
    queryFn: ({ signal }) => listWorkers(managerId!, signal),
  });
}

/** One page of the manager's workers, by name, and how many there are in all. */
export async function listWorkersPage(
  managerId: string,
  page: number,
  pageSize: number,
): Promise<{ workers: Worker[]; totalCount: number }> {
  const { body, headers } = await postJsonWithHeaders<z.infer<typeof WorkerList>>('api/v1/rpc/get_worker_info', {
    p_manager_id: managerId,
    p_page: page,
    p_page_size: pageSize,
  } satisfies z.input<typeof WorkerInfoBody>);
  return { workers: body, totalCount: Number(headers.get('X-Total-Count') ?? body.length) };
}

export function resetWorkerPassword(workerId: string) {
  const body: z.input<typeof ResetWorkerPasswordBody> = { workerId };
  return postJson<z.infer<typeof WorkerPasswordReset>>('functions/v1/reset-worker-password', body);
}

export function createAnnouncement(managerId: string, message: string) {
  const body: z.input<typeof CreateAnnouncementBody> = { p_manager_id: managerId, p_message: message };
  return postJson<z.infer<typeof AnnouncementPosted>>('api/v1/rpc/create_announcement', body);
}

export async function usersForManager(page: number, perPage: number, searchQuery: string, signal?: AbortSignal) {
  const body: z.input<typeof ManagedUsersBody> = { page, perPage, searchQuery };
  const answer = await postJson('functions/v1/get-users-for-manager', body, { signal });
  return parseAnswer(ManagedUsers, answer, USERS_FAILED);
}

/** One page of the users of this manager's workers; the error is the server's words, else the spec's text. */
export function useManagedUsers(page: number, perPage: number, searchQuery: string) {
  const query = useQuery({
    queryKey: ['manager', 'users', page, perPage, searchQuery],
    queryFn: ({ signal }) => usersForManager(page, perPage, searchQuery, signal),
    placeholderData: keepPreviousData,
  });
  const loading = query.isFetching;
  const error =
    !loading && query.error ? (query.error instanceof ApiError && query.error.status !== null ? query.error.message : USERS_FAILED) : null;
  return { data: query.data ?? null, loading, error };
}
