import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ById, Done } from '../../../ledger/contract/common.js';
import { NotificationFeed } from '../../../ledger/contract/settings.js';
import { authOf } from '../../auth/guard.js';
import { notFound } from '../../errors.js';
import { notificationsDecider } from '../../../ledger/notifications/notifications.js';
import { FEED_RULES, mergeNotificationFeed } from '../../../ledger/notifications/feed.js';
import { notificationPreferences } from '../../mail/staff-notices.js';
import { anyUnreadNotification, notificationPageAndNamed, ownNotification, receivedTransactions } from './queries.js';

export const autoPrefix = '/api/v1';

/** `/api/v1/notifications`: the bell's list and the read marks. */
const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const db = ledger.database.db;
  app.get('/notifications', { schema: { tags: ['api'], response: { 200: NotificationFeed } } }, async (request) => {
    const { userId } = authOf(request);
    const now = new Date();
    // A customer who turned transaction updates off gets no received-transaction items either.
    const { transactionsInApp } = await notificationPreferences(db, userId);
    const received = !transactionsInApp
      ? []
      : await receivedTransactions(db, userId, new Date(now.getTime() - FEED_RULES.receivedDays * 86_400_000), FEED_RULES.receivedMax);
    // One read of the user's notifications: the stored page, and any notification (on the page
    // or older) naming one of the received candidates, which is all the merge asks about them.
    const receivedIds = received.map((t) => t.id);
    const rows = await notificationPageAndNamed(db, userId, FEED_RULES.stored, receivedIds);
    const stored = rows.filter((n) => n.on_page);
    const iso = (d: Date | string) => new Date(d).toISOString();
    return mergeNotificationFeed({
      stored: stored.map((n) => ({
        id: n.id,
        message: n.message,
        read: n.read,
        created_at: iso(n.created_at),
        transaction_id: n.transaction_id,
      })),
      received: received.map((t) => ({
        id: t.id,
        amount: String(t.amount),
        asset_id: t.asset_id,
        created_at: iso(t.created_at),
        type: t.type,
        status: t.status,
      })),
      namedTransactionIds: new Set(rows.flatMap((n) => (n.transaction_id ? [n.transaction_id] : []))),
      now,
    });
  });

  app.post('/notifications/:id/read', { schema: { tags: ['api'], response: { 200: Done }, params: ById } }, async (request) => {
    const caller = authOf(request);
    const own = await ownNotification(db, caller.userId, request.params.id);
    if (!own) throw notFound('Notification not found.');
    if (!own.read)
      await ledger.execute(
        notificationsDecider,
        caller.userId,
        { type: 'MarkRead', notificationIds: [own.id] },
        { actor: { id: caller.userId, role: caller.role } },
      );
    return { success: true };
  });

  app.post('/notifications/read-all', { schema: { tags: ['api'], response: { 200: Done } } }, async (request) => {
    const caller = authOf(request);
    const unread = await anyUnreadNotification(db, caller.userId);
    if (unread)
      await ledger.execute(
        notificationsDecider,
        caller.userId,
        { type: 'MarkAllRead', upTo: new Date().toISOString() },
        { actor: { id: caller.userId, role: caller.role } },
      );
    return { success: true };
  });
};

export default notificationRoutes;
