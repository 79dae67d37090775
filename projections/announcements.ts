import { sql } from 'kysely';
import { ANNOUNCEMENTS_STREAM_PREFIX, type AnnouncementEvent } from '../ledger/announcements/announcements.js';
import { table, timestampText, type Projection } from './projection.js';

/** announcements: one row per post, keyed by its id, dated by the event. */
export const announcementsProjection: Projection = {
  name: 'announcements',
  tables: ['announcements'],
  handles: (type) => type === 'announcement.posted',

  async apply(target, events) {
    const t = table(target, 'announcements');
    for (const e of events) {
      if (e.type !== 'announcement.posted') continue;
      const data = e.data as AnnouncementEvent['data'];
      const managerId = e.streamId.slice(ANNOUNCEMENTS_STREAM_PREFIX.length);
      await sql`insert into ${t} (id, manager_id, message, created_at)
        values (${data.announcementId}::uuid, ${managerId}::uuid, ${data.message}, ${timestampText(e.recordedAt)}::timestamptz)
        on conflict (id) do nothing`.execute(target.trx);
    }
  },
};
