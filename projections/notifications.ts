import { sql } from 'kysely';
import { WALLET_STREAM_PREFIX, type WalletEvent } from '../ledger/wallet/events.js';
import { settlementMessage } from '../ledger/notifications/notifications.js';
import { isStaffActor, STAFF_NOTICE_TYPES, staffNoticeOf } from '../ledger/notifications/staff-notices.js';
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

/**
 * notifications: one per settled or failed deposit, withdrawal or send (its id is the
 * settling event's id), one per staff action the customer is told of (a password reset, a
 * ban or unban, a change of permissions or of a deposit address; its id is that event's),
 * and the read marks a customer records.
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  tables: ['notifications'],
  handles: (type) =>
    type === 'wallet.transaction-settled' || type === 'wallet.transaction-failed' ||
    type === 'notification.marked-read' || type === 'notification.all-marked-read' || STAFF_NOTICE_TYPES.has(type),

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
    for (const e of events) {
      if (e.type === 'wallet.transaction-settled' || e.type === 'wallet.transaction-failed') {
        const data = (e as unknown as WalletEvent & { data: { transactionId: string; assetId: string; amount: string; kind?: string } }).data;
        const message = settlementMessage(data.kind ?? '', e.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed', data.amount, data.assetId);
        if (!message) continue;
        pending.push({ id: e.eventId, userId: e.streamId.slice(WALLET_STREAM_PREFIX.length), message, createdAt: e.recordedAt, transactionId: data.transactionId });
      } else if (STAFF_NOTICE_TYPES.has(e.type)) {
        const notice = isStaffActor(e.metadata?.actorRole) ? staffNoticeOf(e.type, e.data as Record<string, unknown>) : null;
        if (!notice || !e.streamId.startsWith(USER_STREAM_PREFIX)) continue;
        pending.push({ id: e.eventId, userId: e.streamId.slice(USER_STREAM_PREFIX.length), message: notice.message, createdAt: e.recordedAt, transactionId: null });
      } else if (e.type === 'notification.marked-read') {
        await flush();
        const userId = e.streamId.slice(STREAM_PREFIX.length);
        const ids = (e.data as { notificationIds: string[] }).notificationIds;
        await sql`update ${t} set read = true where user_id = ${userId}::uuid and id = any(${ids}::uuid[])`.execute(target.trx);
      } else if (e.type === 'notification.all-marked-read') {
        await flush();
        const userId = e.streamId.slice(STREAM_PREFIX.length);
        await sql`update ${t} set read = true where user_id = ${userId}::uuid and created_at <= ${(e.data as { upTo: string }).upTo}::timestamptz`.execute(target.trx);
      }
    }
    await flush();
  },
};
