import { sql } from 'kysely';
import { WALLET_STREAM_PREFIX, type WalletEvent } from '../ledger/wallet/events.js';
import { settlementMessage } from '../ledger/notifications/notifications.js';
import { isStaffActor, STAFF_NOTICE_TYPES, staffNoticeOf } from '../ledger/notifications/staff-notices.js';
import { DEFAULT_NOTIFICATION_PREFERENCES, staffNoticeWanted, type NotificationPreferences } from '../ledger/notifications/preferences.js';
import { insertRows, type InsertColumn } from '../server/db/insert-rows.js';
import { table, timestampText, type Projection } from './projection.js';

const STREAM_PREFIX = 'notifications-';
const USER_STREAM_PREFIX = 'user-';
interface Row {
  id: string;
  userId: string;
  message: string;
  createdAt: Date;
  transactionId: string | null;
}

const COLUMNS: InsertColumn<Row>[] = [
  { name: 'id', type: 'uuid', value: (r) => r.id },
  { name: 'user_id', type: 'uuid', value: (r) => r.userId },
  { name: 'message', type: 'text', value: (r) => r.message },
  { name: 'read', type: 'boolean', value: () => false },
  { name: 'created_at', type: 'timestamptz', value: (r) => timestampText(r.createdAt) },
  { name: 'transaction_id', type: 'uuid', value: (r) => r.transactionId },
];
const PREFERENCES_SET = 'user.notification-preferences-set';

const isSettlement = (type: string) => type === 'wallet.transaction-settled' || type === 'wallet.transaction-failed';

/** The customer an event would notify (its stream's user), or null for an event that notifies no one. */
function notifiedUser(e: { type: string; streamId: string }): string | null {
  if (isSettlement(e.type) && e.streamId.startsWith(WALLET_STREAM_PREFIX)) return e.streamId.slice(WALLET_STREAM_PREFIX.length);
  if (STAFF_NOTICE_TYPES.has(e.type) && e.streamId.startsWith(USER_STREAM_PREFIX)) return e.streamId.slice(USER_STREAM_PREFIX.length);
  return null;
}

/** The recorded choices of the customers a batch would notify (users without a row keep the defaults). */
async function preferencesOf(target: Parameters<Projection['apply']>[0], userIds: string[]): Promise<Map<string, NotificationPreferences>> {
  const found = new Map<string, NotificationPreferences>();
  if (userIds.length === 0) return found;
  const rows = await sql<{
    user_id: string;
    transactions_in_app: boolean;
    transactions_email: boolean;
    account_changes_email: boolean;
    account_changes_in_app: boolean;
  }>`
    select user_id, transactions_in_app, transactions_email, account_changes_email, account_changes_in_app
    from ${table(target, 'notification_preferences')} where user_id = any(${userIds}::uuid[])`.execute(target.trx);
  for (const r of rows.rows) {
    found.set(r.user_id, {
      transactionsInApp: r.transactions_in_app,
      transactionsEmail: r.transactions_email,
      accountChangesEmail: r.account_changes_email,
      accountChangesInApp: r.account_changes_in_app,
    });
  }
  return found;
}

/**
 * notifications: one per settled or failed deposit, withdrawal or send (its id is the
 * settling event's id), one per staff action the customer is told of (a password reset, a
 * ban or unban, a change of permissions or of a deposit address; its id is that event's),
 * and the read marks a customer records. It keeps the customers' notification choices
 * (notification_preferences) and leaves out the items a customer turned off at the time of the
 * event; security notices are never left out.
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  tables: ['notifications', 'notification_preferences'],
  handles: (type) =>
    isSettlement(type) ||
    type === PREFERENCES_SET ||
    type === 'notification.marked-read' ||
    type === 'notification.all-marked-read' ||
    STAFF_NOTICE_TYPES.has(type),

  async apply(target, events) {
    const t = table(target, 'notifications');
    // New notifications are gathered and written with one insert; a read mark first
    // writes what is gathered, so that it applies to exactly the rows before it in the log.
    let pending: Row[] = [];
    const flush = async () => {
      const rows = pending;
      pending = [];
      await insertRows(target.trx, `${target.schema}.notifications`, COLUMNS, rows);
    };
    const notified = [...new Set(events.map(notifiedUser).filter((id): id is string => id !== null))];
    const prefs = await preferencesOf(target, notified);
    const prefsOf = (userId: string) => prefs.get(userId) ?? DEFAULT_NOTIFICATION_PREFERENCES;
    for (const e of events) {
      if (e.type === PREFERENCES_SET) {
        if (!e.streamId.startsWith(USER_STREAM_PREFIX)) continue;
        const userId = e.streamId.slice(USER_STREAM_PREFIX.length);
        const p = e.data as NotificationPreferences;
        prefs.set(userId, p);
        await sql`insert into ${table(target, 'notification_preferences')} (user_id, transactions_in_app, transactions_email, account_changes_email, account_changes_in_app, updated_at)
          values (${userId}::uuid, ${p.transactionsInApp}, ${p.transactionsEmail}, ${p.accountChangesEmail}, ${p.accountChangesInApp}, ${e.recordedAt}::timestamptz)
          on conflict (user_id) do update set transactions_in_app = excluded.transactions_in_app, transactions_email = excluded.transactions_email,
            account_changes_email = excluded.account_changes_email, account_changes_in_app = excluded.account_changes_in_app, updated_at = excluded.updated_at`.execute(
          target.trx,
        );
      } else if (isSettlement(e.type)) {
        if (!prefsOf(e.streamId.slice(WALLET_STREAM_PREFIX.length)).transactionsInApp) continue;
        const data = (e as unknown as WalletEvent & { data: { transactionId: string; assetId: string; amount: string; kind?: string } })
          .data;
        const message = settlementMessage(
          data.kind ?? '',
          e.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed',
          data.amount,
          data.assetId,
        );
        if (!message) continue;
        pending.push({
          id: e.eventId,
          userId: e.streamId.slice(WALLET_STREAM_PREFIX.length),
          message,
          createdAt: e.recordedAt,
          transactionId: data.transactionId,
        });
      } else if (STAFF_NOTICE_TYPES.has(e.type)) {
        const notice = isStaffActor(e.metadata?.actorRole) ? staffNoticeOf(e.type, e.data as Record<string, unknown>) : null;
        if (!notice || !e.streamId.startsWith(USER_STREAM_PREFIX)) continue;
        if (!staffNoticeWanted(e.type, 'inApp', prefsOf(e.streamId.slice(USER_STREAM_PREFIX.length)))) continue;
        pending.push({
          id: e.eventId,
          userId: e.streamId.slice(USER_STREAM_PREFIX.length),
          message: notice.message,
          createdAt: e.recordedAt,
          transactionId: null,
        });
      } else if (e.type === 'notification.marked-read') {
        await flush();
        const userId = e.streamId.slice(STREAM_PREFIX.length);
        const ids = (e.data as { notificationIds: string[] }).notificationIds;
        await sql`update ${t} set read = true where user_id = ${userId}::uuid and id = any(${ids}::uuid[])`.execute(target.trx);
      } else if (e.type === 'notification.all-marked-read') {
        await flush();
        const userId = e.streamId.slice(STREAM_PREFIX.length);
        await sql`update ${t} set read = true where user_id = ${userId}::uuid and created_at <= ${(e.data as { upTo: string }).upTo}::timestamptz`.execute(
          target.trx,
        );
      }
    }
    await flush();
  },
};
