import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthServices } from '../auth/index.js';
import { authOf } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import { notFound } from '../errors.js';
import { notificationsDecider } from '../../ledger/notifications/notifications.js';
import { formatAmount, money } from '../../ledger/money.js';

/** Spec 001 section 9: 10 stored, received items of the last 7 days (at most 20), 15 shown. */
const STORED = 10;
const RECEIVED_DAYS = 7;
const RECEIVED_MAX = 20;
const SHOWN = 15;

interface Item {
  id: string;
  message: string;
  read: boolean;
  created_at: string;
  transaction_id: string | null;
  /** 'stored' can be marked read; 'received' items are derived and always read. */
  source: 'stored' | 'received';
}

/** `/api/v1/notifications`: the bell's list and the read marks. */
export function notificationRoutes(auth: AuthServices, ledger: LedgerContext): FastifyPluginAsyncZod {
  const db = ledger.database.db;
  const guard = auth.guard.requireAuth();
  return async (app) => {
    app.get('/notifications', { preHandler: guard, schema: { tags: ['api'] } }, async (request) => {
      const { userId } = authOf(request);
      const stored = await db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(STORED).execute();
      const referenced = await db.selectFrom('notifications').select('transaction_id').where('user_id', '=', userId).where('transaction_id', 'is not', null).execute();
      const named = new Set(referenced.map((r) => r.transaction_id));
      const received = await db
        .selectFrom('transactions')
        .select(['id', 'created_at', 'amount', 'asset_id'])
        .where('user_id', '=', userId)
        .where('is_hidden', '=', false)
        .where(sql<boolean>`amount > 0`)
        .where('created_at', '>', new Date(Date.now() - RECEIVED_DAYS * 86_400_000))
        .orderBy('created_at', 'desc')
        .limit(RECEIVED_MAX)
        .execute();
      const items: Item[] = [
        ...stored.map((n) => ({ id: n.id, message: n.message, read: n.read, created_at: new Date(n.created_at).toISOString(), transaction_id: n.transaction_id, source: 'stored' as const })),
        ...received
          .filter((t) => !named.has(t.id))
          .map((t) => ({
            id: t.id,
            message: `You received ${formatAmount(money(t.amount))} ${t.asset_id}`,
            read: true,
            created_at: new Date(t.created_at).toISOString(),
            transaction_id: t.id,
            source: 'received' as const,
          })),
      ];
      items.sort((a, b) => b.created_at.localeCompare(a.created_at));
      return { notifications: items.slice(0, SHOWN), unread: items.slice(0, SHOWN).filter((i) => !i.read).length };
    });

    app.post(
      '/notifications/:id/read',
      { preHandler: guard, schema: { tags: ['api'], params: z.object({ id: z.uuid() }) } },
      async (request) => {
        const caller = authOf(request);
        const own = await db.selectFrom('notifications').select(['id', 'read']).where('id', '=', request.params.id).where('user_id', '=', caller.userId).executeTakeFirst();
        if (!own) throw notFound('Notification not found.');
        if (!own.read) await ledger.execute(notificationsDecider, caller.userId, { type: 'MarkRead', notificationIds: [own.id] }, { actor: { id: caller.userId, role: caller.role } });
        return { success: true };
      },
    );

    app.post('/notifications/read-all', { preHandler: guard, schema: { tags: ['api'] } }, async (request) => {
      const caller = authOf(request);
      const unread = await db.selectFrom('notifications').select('id').where('user_id', '=', caller.userId).where('read', '=', false).limit(1).executeTakeFirst();
      if (unread) await ledger.execute(notificationsDecider, caller.userId, { type: 'MarkAllRead', upTo: new Date().toISOString() }, { actor: { id: caller.userId, role: caller.role } });
      return { success: true };
    });
  };
}
