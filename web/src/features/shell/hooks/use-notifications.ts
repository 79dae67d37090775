import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useRealtime } from '@/lib/realtime.js';
import { fetchNotifications, markAllNotificationsRead, markNotificationRead, type NotificationItem } from '../api/notifications.js';

/** The list is read again this often (spec 001 section 9). */
export const NOTIFICATION_REFRESH_MS = 30_000;

export type NotificationsState = {
  /** Null until the first answer (or the first failure) came back. */
  items: NotificationItem[] | null;
  unread: number;
  /** Reads the list again; failures are silent (spec 001 section 8). */
  refresh: () => void;
  /** Marks one stored item read at once; it turns unread again if the server refuses. */
  markRead: (id: string) => void;
  /** The same for every unread item. */
  markAllRead: () => void;
};

type Marks = {
  /** Marked read here, the server not yet answered. */
  pending: ReadonlySet<string>;
  /** Marked read and confirmed: an answer fetched before the mark cannot make them unread again. */
  done: ReadonlySet<string>;
};

function withIds(set: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const next = new Set(set);
  for (const id of ids) next.add(id);
  return next;
}

function withoutIds(set: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const next = new Set(set);
  for (const id of ids) next.delete(id);
  return next;
}

/**
 * The bell's notifications: read on mount, every 30 s and on each 'notifications' event (and
 * whenever `refresh` is called). Marking read is applied at once and undone if it fails.
 */
export function useNotifications(): NotificationsState {
  const [fetched, setFetched] = useState<NotificationItem[] | null>(null);
  const [marks, setMarks] = useState<Marks>({ pending: new Set(), done: new Set() });
  const controllerRef = useRef<AbortController | null>(null);
  const mounted = useRef(true);

  const refresh = useCallback(() => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    fetchNotifications(controller.signal)
      .then((list) => {
        if (!controller.signal.aborted) setFetched(list);
      })
      .catch(() => {
        // Silent: the last list stays; the first failure only ends the loading text.
        if (!controller.signal.aborted) setFetched((current) => current ?? []);
      });
  }, []);

  useEffect(() => {
    mounted.current = true;
    refresh();
    const timer = window.setInterval(refresh, NOTIFICATION_REFRESH_MS);
    return () => {
      mounted.current = false;
      window.clearInterval(timer);
      controllerRef.current?.abort();
    };
  }, [refresh]);

  useRealtime('notifications', refresh);

  const items = useMemo(
    () =>
      fetched?.map((item) => (item.read || marks.pending.has(item.id) || marks.done.has(item.id) ? { ...item, read: true } : item)) ?? null,
    [fetched, marks],
  );
  const unread = items?.filter((item) => !item.read).length ?? 0;

  const mark = useCallback((ids: string[], call: () => Promise<unknown>) => {
    if (ids.length === 0) return;
    setMarks((m) => ({ ...m, pending: withIds(m.pending, ids) }));
    call()
      .then(() => {
        if (mounted.current) setMarks((m) => ({ pending: withoutIds(m.pending, ids), done: withIds(m.done, ids) }));
      })
      .catch(() => {
        // Refused or unreachable: the items read as unread again.
        if (mounted.current) setMarks((m) => ({ ...m, pending: withoutIds(m.pending, ids) }));
      });
  }, []);

  const markRead = useCallback(
    (id: string) => {
      const item = items?.find((i) => i.id === id);
      if (!item || item.read || item.source !== 'stored') return;
      mark([id], () => markNotificationRead(id));
    },
    [items, mark],
  );

  const markAllRead = useCallback(() => {
    const ids = items?.filter((i) => !i.read && i.source === 'stored').map((i) => i.id) ?? [];
    mark(ids, markAllNotificationsRead);
  }, [items, mark]);

  return { items, unread, refresh, markRead, markAllRead };
}
