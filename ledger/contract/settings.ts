import { z } from 'zod';

/* Settings (spec 001 section 4 and the Notifications tab): the customer's notification choices and the bell. */

export { NotificationPreferences, DEFAULT_NOTIFICATION_PREFERENCES } from '../notifications/preferences.js';
export { FEED_RULES } from '../notifications/feed.js';

/** An item of the bell: a stored notification, or a 'You received …' derived from a transaction (always read). */
export const FeedItem = z.object({
  id: z.string(),
  message: z.string(),
  read: z.boolean(),
  created_at: z.string(),
  transaction_id: z.string().nullable(),
  source: z.enum(['stored', 'received']),
});

export const NotificationFeed = z.object({ notifications: z.array(FeedItem), unread: z.number() });
