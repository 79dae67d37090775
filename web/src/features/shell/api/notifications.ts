import { getJson, postJson } from '@/lib/api-client.js';

/** One item of the bell (docs/api-money.md): stored notifications and received-transaction items, merged. */
export type NotificationItem = {
  id: string;
  message: string;
  read: boolean;
  created_at: string;
  transaction_id: string | null;
  /** Only 'stored' items can be marked read; 'received' ones are always read. */
  source: 'stored' | 'received';
};

export type NotificationList = { notifications: NotificationItem[]; unread: number };

/** GET /api/v1/notifications: at most 15, newest first. */
export async function fetchNotifications(signal?: AbortSignal): Promise<NotificationItem[]> {
  const body = await getJson<NotificationList | null>('api/v1/notifications', { signal });
  return Array.isArray(body?.notifications) ? body.notifications : [];
}

export function markNotificationRead(id: string): Promise<{ success: boolean }> {
  return postJson<{ success: boolean }>(`api/v1/notifications/${encodeURIComponent(id)}/read`);
}

export function markAllNotificationsRead(): Promise<{ success: boolean }> {
  return postJson<{ success: boolean }>('api/v1/notifications/read-all');
}
