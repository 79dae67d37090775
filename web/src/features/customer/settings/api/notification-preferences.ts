import { getJson, putJson } from '../../../../lib/api-client.js';

/** The customer's choices of the notifications they get (server/notifications/preference-routes.ts). */
export type NotificationPreferences = {
  transactionsInApp: boolean;
  accountChangesEmail: boolean;
  accountChangesInApp: boolean;
};

export function fetchNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return getJson<NotificationPreferences>('api/v1/notification-preferences', { signal });
}

export function saveNotificationPreferences(preferences: NotificationPreferences): Promise<NotificationPreferences> {
  return putJson<NotificationPreferences>('api/v1/notification-preferences', preferences);
}
