import type { LedgerContext } from '../context.js';
import type { RealtimeHub } from '../realtime/hub.js';
import { streamIds, type FeedHandler } from '../realtime/live-feed.js';
import { ANNOUNCEMENTS_STREAM_PREFIX } from '../../ledger/announcements/announcements.js';

/**
 * Tells a manager's workers (and the manager's own open tabs) that a new announcement is
 * readable, once the announcements table shows it. A hint, not the data: the client reads
 * through the authorised GET.
 */
export function announcementHints(ledger: LedgerContext, hub: RealtimeHub): FeedHandler {
  return {
    wants: (e) => e.type === 'announcement.posted',
    async handle(events) {
      const managers = streamIds(events, ANNOUNCEMENTS_STREAM_PREFIX);
      const workers = await ledger.database.db
        .selectFrom('users')
        .select(['id', 'manager_id'])
        .where('role', '=', 'WORKER')
        .where('manager_id', 'in', [...managers])
        .execute();
      for (const w of workers) hub.publish(w.id, 'announcements', { changed: true, managerId: w.manager_id });
      for (const m of managers) hub.publish(m, 'announcements', { changed: true, managerId: m });
    },
  };
}
