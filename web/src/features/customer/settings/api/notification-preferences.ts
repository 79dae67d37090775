import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { NotificationPreferences as NotificationPreferencesSchema } from '@ledger/contract/settings.js';
import { getJson, putJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';

/** The customer's choices of the notifications they get, as the settings contract defines them. */
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

export const LOAD_FAILED = 'Failed to load notification preferences.';
export const SAVE_FAILED = 'Failed to save notification preferences.';

const PATH = 'api/v1/notification-preferences';
export const preferencesKey = ['customer', 'notification-preferences'] as const;

export async function fetchNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return parseAnswer(NotificationPreferencesSchema, await getJson(PATH, { signal }), LOAD_FAILED);
}

export async function saveNotificationPreferences(
  preferences: z.input<typeof NotificationPreferencesSchema>,
): Promise<NotificationPreferences> {
  return parseAnswer(NotificationPreferencesSchema, await putJson(PATH, preferences), SAVE_FAILED);
}

/** The saved choices, read when the tab opens. */
export function useNotificationPreferences() {
  return useQuery({ queryKey: preferencesKey, queryFn: ({ signal }) => fetchNotificationPreferences(signal) });
}
