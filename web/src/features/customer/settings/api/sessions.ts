import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { LiveSession } from '@ledger/contract/access.js';
import { deleteJson, getJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';

/** A live session of the account (GET /auth/v1/sessions, docs/api-auth.md). */
export type AccountSession = z.infer<typeof LiveSession>;

export const SESSIONS_FAILED = 'Failed to load sessions.';

export const sessionsKey = ['customer', 'sessions'] as const;

export async function fetchSessions(signal?: AbortSignal): Promise<AccountSession[]> {
  return parseAnswer(z.array(LiveSession), await getJson('auth/v1/sessions', { signal }), SESSIONS_FAILED);
}

export function endSession(id: string): Promise<unknown> {
  return deleteJson(`auth/v1/sessions/${encodeURIComponent(id)}`);
}

/** The account's live sessions, read when the Security tab opens. */
export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: ({ signal }) => fetchSessions(signal) });
}
