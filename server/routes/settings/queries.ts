import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/* The notification bell's reads (./notifications.ts); the preferences are read by server/mail/staff-notices.ts. */

/** A user's visible incoming transactions created after `since`, newest first, at most `limit`: the feed's received candidates. */
export function receivedTransactions(db: Kysely<DB>, userId: string, since: Date, limit: number) {
  return db
    .selectFrom('transactions')
    .select(['id', 'created_at', 'amount', 'asset_id', 'type', 'status'])
    .where('user_id', '=', userId)
    .where('is_hidden', '=', false)
    .where(sql<boolean>`amount > 0`)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * One read of a user's notifications: the stored page (newest first, at most `pageSize`,
 * `on_page` true) and any notification, on the page or older, naming one of `transactionIds`
 * (`on_page` false), which is all the feed's merge asks about the received candidates.
 */
export async function notificationPageAndNamed(db: Kysely<DB>, userId: string, pageSize: number, transactionIds: string[]) {
  const { rows } = await sql<{
    id: string;
    message: string;
    read: boolean;
    created_at: Date | string;
    transaction_id: string | null;
    on_page: boolean;
  }>`
      (select id, message, read, created_at, transaction_id, true as on_page from notifications
        where user_id = ${userId}::uuid order by created_at desc limit ${pageSize})
      union all
      (select id, message, read, created_at, transaction_id, false as on_page from notifications
        where user_id = ${userId}::uuid and transaction_id = any(${transactionIds}::uuid[]))`.execute(db);
  return rows;
}

/** One of the user's own notifications, or undefined when it is not theirs or does not exist. */
export function ownNotification(db: Kysely<DB>, userId: string, notificationId: string) {
  return db
    .selectFrom('notifications')
    .select(['id', 'read'])
    .where('id', '=', notificationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Any one unread notification of the user, or undefined when all are read. */
export function anyUnreadNotification(db: Kysely<DB>, userId: string) {
  return db.selectFrom('notifications').select('id').where('user_id', '=', userId).where('read', '=', false).limit(1).executeTakeFirst();
}
