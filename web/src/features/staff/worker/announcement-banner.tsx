import { useCallback, useEffect, useState } from 'react';
import { formatListDateTime } from '@/lib/money.js';
import { useSession } from '@/lib/session.js';
import { useRealtime } from '@/lib/realtime.js';
import { getWorkerManager, latestAnnouncements, type Announcement } from './api.js';
import { readDismissed, rememberDismissed } from './dismissed-announcements.js';

/**
 * The worker's banner above the tabs: the latest 5 announcements from their manager, new ones
 * arriving live; a closed one stays closed in this browser.
 */
export function AnnouncementBanner() {
  const workerId = useSession((s) => s.user?.id ?? null);
  const [managerId, setManagerId] = useState<string | null>(null);
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const [dismissed, setDismissed] = useState<string[]>(() => readDismissed());

  useEffect(() => {
    if (!workerId) return;
    let cancelled = false;
    getWorkerManager(workerId)
      .then((id) => !cancelled && setManagerId(id))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [workerId]);

  const load = useCallback(async () => {
    if (!managerId) return;
    try {
      setAnnouncements(await latestAnnouncements(managerId));
    } catch {
      // The banner is a courtesy: a failed read leaves the last announcements shown.
    }
  }, [managerId]);

  useEffect(() => {
    void load();
  }, [load]);
  useRealtime('announcements', () => void load());

  const visible = announcements.filter((a) => !dismissed.includes(a.id));
  if (visible.length === 0) return null;
  return (
    <section className="announcements" aria-label="Announcements">
      {visible.map((a) => (
        <div key={a.id} className="announcement" role="status">
          <div className="announcement__body">
            <p className="announcement__message">{a.message}</p>
            <p className="announcement__time">{formatListDateTime(a.created_at)}</p>
          </div>
          <button
            type="button"
            className="icon-button announcement__close"
            aria-label="Dismiss announcement"
            onClick={() => setDismissed(rememberDismissed(a.id))}
          >
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      ))}
    </section>
  );
}
