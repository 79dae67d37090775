import { WALLET_STREAM_PREFIX } from '../../ledger/wallet/events.js';
import type { RealtimeHub } from './hub.js';
import { streamIds, type FeedHandler } from './live-feed.js';

const NOTIFICATIONS_STREAM_PREFIX = 'notifications-';

/**
 * Tells each customer's open sockets that their transactions (and so their notifications)
 * changed, or that only their notifications did (a read mark), once the read tables show it.
 */
export function customerHints(hub: RealtimeHub): FeedHandler {
  return {
    wants: (e) => e.streamId.startsWith(WALLET_STREAM_PREFIX) || e.streamId.startsWith(NOTIFICATIONS_STREAM_PREFIX),
    handle(events) {
      const users = streamIds(events, WALLET_STREAM_PREFIX);
      const readers = streamIds(events, NOTIFICATIONS_STREAM_PREFIX);
      for (const userId of users) {
        hub.publish(userId, 'transactions', { changed: true });
        hub.publish(userId, 'notifications', { changed: true });
      }
      for (const userId of readers) if (!users.has(userId)) hub.publish(userId, 'notifications', { changed: true });
    },
  };
}
