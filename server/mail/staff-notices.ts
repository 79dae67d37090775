import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { MailLog, Mailer } from './mailer.js';
import { sendOnce } from './send-once.js';
import { staffNoticeMail } from './templates.js';
import { staffNoticeOf } from '../../ledger/notifications/staff-notices.js';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  isAccountChangeNotice,
  staffNoticeWanted,
  type NotificationPreferences,
} from '../../ledger/notifications/preferences.js';

/**
 * Mails the customer the notice of each event a staff command just recorded (the command side,
 * like every other mail: a replay of the read models sends nothing). Each event's mail is
 * taken in mail_sent under its event id before sending, so it goes out once even if a retried
 * command hands the same events again; a failed send gives the key back. An account-change
 * notice the customer turned off by e-mail (Settings > Notifications) is not sent; a security
 * notice always is.
 */
export async function mailStaffNotices(
  db: Kysely<DB>,
  mailer: Mailer,
  log: MailLog,
  userId: string,
  events: { type: string; data: unknown }[],
  eventIds: string[],
): Promise<void> {
  const notices = events.flatMap((e, i) => {
    const notice = staffNoticeOf(e.type, e.data as Record<string, unknown>);
    return notice && eventIds[i] ? [{ notice, type: e.type, key: `staff-notice:${eventIds[i]}` }] : [];
  });
  if (notices.length === 0) return;
  const user = await db.selectFrom('users').select(['email', 'full_name', 'role']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.role !== 'USER') return;
  const prefs = notices.some((n) => isAccountChangeNotice(n.type)) ? await notificationPreferences(db, userId) : null;
  for (const { notice, type, key } of notices) {
    if (!staffNoticeWanted(type, 'email', prefs)) continue;
    await sendOnce(db, key, mailer, staffNoticeMail(user.email, user.full_name, notice), log);
  }
}

/** The customer's recorded notification choices (the notifications projection's table), or the defaults. */
export async function notificationPreferences(db: Kysely<DB>, userId: string): Promise<NotificationPreferences> {
  const row = await db
    .selectFrom('notification_preferences')
    .select(['transactions_in_app', 'transactions_email', 'account_changes_email', 'account_changes_in_app'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row
    ? {
        transactionsInApp: row.transactions_in_app,
        transactionsEmail: row.transactions_email,
        accountChangesEmail: row.account_changes_email,
        accountChangesInApp: row.account_changes_in_app,
      }
    : { ...DEFAULT_NOTIFICATION_PREFERENCES };
}
