import { deleteJson, getJson } from '../../../../lib/api-client.js';

/** A live session of the account (GET /auth/v1/sessions, docs/api-auth.md). */
export type AccountSession = {
  id: string;
  created_at: string;
  last_active_at: string;
  expires_at: string;
  ip_address: string | null;
  user_agent: string | null;
  current: boolean;
};

export function fetchSessions(signal?: AbortSignal): Promise<AccountSession[]> {
  return getJson<AccountSession[]>('auth/v1/sessions', { signal });
}

export function endSession(id: string): Promise<unknown> {
  return deleteJson(`auth/v1/sessions/${encodeURIComponent(id)}`);
}
