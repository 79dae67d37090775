import type { z } from 'zod';
import type { Done } from '@ledger/contract/common.js';
import type { FeedItem, NotificationFeed } from '@ledger/contract/settings.js';
import { getJson, postJson } from '@/lib/api-client.js';

/**
 * One item of the bell (docs/api-money.md): stored notifications and received-transaction items,
 * merged. Only 'stored' items can be marked read; 'received' ones are always read.
 */
export type NotificationItem = z.infer<typeof FeedItem>;

export type NotificationList = z.infer<typeof NotificationFeed>;

/** GET /api/v1/notifications: at most 15, newest first. */
export async function fetchNotifications(signal?: AbortSignal): Promise<NotificationItem[]> {
  const body = await getJson<NotificationList | null>('api/v1/notifications', { signal });
  return Array.isArray(body?.notifications) ? body.notifications : [];
}

export function markNotificationRead(id: string): Promise<z.infer<typeof Done>> {
  return postJson<z.infer<typeof Done>>(`api/v1/notifications/${encodeURIComponent(id)}/read`);
}

export function markAllNotificationsRead(): Promise<z.infer<typeof Done>> {
  return postJson<z.infer<typeof Done>>('api/v1/notifications/read-all');
}
