import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done } from '../../../ledger/contract/common.js';
import { NotificationFeed } from '../../../ledger/contract/settings.js';
import { authOf } from '../../auth/guard.js';
import { notFound } from '../../errors.js';
import { notificationsDecider } from '../../../ledger/notifications/notifications.js';
import { FEED_RULES, mergeNotificationFeed } from '../../../ledger/notifications/feed.js';
import { notificationPreferences } from '../../mail/staff-notices.js';

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
      : await db
          .selectFrom('transactions')
          .select(['id', 'created_at', 'amount', 'asset_id', 'type', 'status'])
          .where('user_id', '=', userId)
          .where('is_hidden', '=', false)
          .where(sql<boolean>`amount > 0`)
          .where('created_at', '>', new Date(now.getTime() - FEED_RULES.receivedDays * 86_400_000))
          .orderBy('created_at', 'desc')
          .limit(FEED_RULES.receivedMax)
          .execute();
    // One read of the user's notifications: the stored page, and any notification (on the page
    // or older) naming one of the received candidates, which is all the merge asks about them.
    const { rows } = await sql<{
      id: string;
      message: string;
      read: boolean;
      created_at: Date | string;
      transaction_id: string | null;
      on_page: boolean;
    }>`
      (select id, message, read, created_at, transaction_id, true as on_page from notifications
        where user_id = ${userId}::uuid order by created_at desc limit ${FEED_RULES.stored})
      union all
      (select id, message, read, created_at, transaction_id, false as on_page from notifications
        where user_id = ${userId}::uuid and transaction_id = any(${received.map((t) => t.id)}::uuid[]))`.execute(db);
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

  app.post(
    '/notifications/:id/read',
    { schema: { tags: ['api'], response: { 200: Done }, params: z.object({ id: z.uuid() }) } },
    async (request) => {
      const caller = authOf(request);
      const own = await db
        .selectFrom('notifications')
        .select(['id', 'read'])
        .where('id', '=', request.params.id)
        .where('user_id', '=', caller.userId)
        .executeTakeFirst();
      if (!own) throw notFound('Notification not found.');
      if (!own.read)
        await ledger.execute(
          notificationsDecider,
          caller.userId,
          { type: 'MarkRead', notificationIds: [own.id] },
          { actor: { id: caller.userId, role: caller.role } },
        );
      return { success: true };
    },
  );

  app.post('/notifications/read-all', { schema: { tags: ['api'], response: { 200: Done } } }, async (request) => {
    const caller = authOf(request);
    const unread = await db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', caller.userId)
      .where('read', '=', false)
      .limit(1)
      .executeTakeFirst();
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
