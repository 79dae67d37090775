import { sql } from 'kysely';
import { WALLET_STREAM_PREFIX, type WalletEvent } from '../ledger/wallet/events.js';
import { settlementMessage } from '../ledger/notifications/notifications.js';
import { isStaffActor, STAFF_NOTICE_TYPES, staffNoticeOf } from '../ledger/notifications/staff-notices.js';
import { copyBinaryRows } from '../server/db/copy-from.js';
import { CopyBinary } from '../server/db/copy-binary.js';
import { table, type Projection } from './projection.js';

const STREAM_PREFIX = 'notifications-';
const USER_STREAM_PREFIX = 'user-';
const COLUMNS = ['id', 'user_id', 'message', 'read', 'created_at', 'transaction_id'];

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
    // New notifications are gathered and written with one COPY; a read mark first
    // writes what is gathered, so that it applies to exactly the rows before it in the log.
    let pending = new CopyBinary();
    const flush = async () => {
      if (pending.rowCount === 0) return;
      const rows = pending;
      pending = new CopyBinary();
      await copyBinaryRows(target.trx, `${target.schema}.notifications`, COLUMNS, rows);
    };
    for (const e of events) {
      if (e.type === 'wallet.transaction-settled' || e.type === 'wallet.transaction-failed') {
        const data = (e as unknown as WalletEvent & { data: { transactionId: string; assetId: string; amount: string; kind?: string } }).data;
        const message = settlementMessage(data.kind ?? '', e.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed', data.amount, data.assetId);
        if (!message) continue;
        pending.row(COLUMNS.length).uuid(e.eventId).uuid(e.streamId.slice(WALLET_STREAM_PREFIX.length)).text(message).bool(false).timestamp(e.recordedAt).uuid(data.transactionId);
      } else if (STAFF_NOTICE_TYPES.has(e.type)) {
        const notice = isStaffActor(e.metadata?.actorRole) ? staffNoticeOf(e.type, e.data as Record<string, unknown>) : null;
        if (!notice || !e.streamId.startsWith(USER_STREAM_PREFIX)) continue;
        pending.row(COLUMNS.length).uuid(e.eventId).uuid(e.streamId.slice(USER_STREAM_PREFIX.length)).text(notice.message).bool(false).timestamp(e.recordedAt).null();
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
