import { sql } from 'kysely';
import type { RecordedEvent } from '../ledger/event-store/port.js';
import { isWalletEventType, openedStatus, openedType, WALLET_STREAM_PREFIX, type WalletEvent } from '../ledger/wallet/events.js';
import { table, type Projection } from './projection.js';

interface Row {
  id: string;
  user_id: string;
  asset_id: string;
  amount: string;
  fee: string;
  type: string;
  status: string;
  sent_at: string;
  created_at: string;
  sender_address: string | null;
  recipient_address: string | null;
  txid: string | null;
  note: string | null;
  is_hidden: boolean;
  request_id: string | null;
  payment_method_id: string | null;
  updated_at: string;
}

type Patch = Partial<Pick<Row, 'status' | 'type' | 'note'>> & { updated_at: string };

const COLUMNS = [
  'id', 'user_id', 'asset_id', 'amount', 'fee', 'type', 'status', 'sent_at', 'created_at', 'sender_address',
  'recipient_address', 'txid', 'note', 'is_hidden', 'request_id', 'payment_method_id', 'updated_at',
] as const;

/**
 * transactions: one row per wallet transaction with the spec's fields. Rows opened and
 * changed in one batch are merged in memory; the batch ends in one insert and one
 * update statement.
 */
export const transactionsProjection: Projection = {
  name: 'transactions',
  tables: ['transactions'],
  handles: (type) => isWalletEventType(type),

  async apply(target, events: RecordedEvent[]) {
    const inserts = new Map<string, Row>();
    const patches = new Map<string, Patch>();
    const patch = (id: string, p: Patch) => {
      const row = inserts.get(id);
      if (row) Object.assign(row, p);
      else patches.set(id, { ...patches.get(id), ...p });
    };
    for (const recorded of events) {
      if (!isWalletEventType(recorded.type)) continue;
      const e = { type: recorded.type, data: recorded.data } as WalletEvent;
      const at = recorded.recordedAt.toISOString();
      const type = openedType(e);
      const opened = openedStatus(e);
      if (type && opened && 'transactionId' in e.data && 'assetId' in e.data && 'sentAt' in e.data) {
        const d = e.data;
        inserts.set(d.transactionId, {
          id: d.transactionId,
          user_id: recorded.streamId.slice(WALLET_STREAM_PREFIX.length),
          asset_id: d.assetId,
          amount: d.amount,
          fee: d.fee,
          type,
          status: opened,
          sent_at: d.sentAt,
          created_at: at,
          sender_address: d.senderAddress,
          recipient_address: d.recipientAddress,
          txid: d.txid,
          note: d.note,
          is_hidden: d.isHidden,
          request_id: d.requestId,
          payment_method_id: d.paymentMethodId,
          updated_at: at,
        });
      } else if (e.type === 'wallet.transaction-settled') {
        patch(e.data.transactionId, { status: 'Complete', updated_at: at });
      } else if (e.type === 'wallet.transaction-failed') {
        patch(e.data.transactionId, { status: 'Failed', updated_at: at });
      } else if (e.type === 'wallet.transaction-edited') {
        const p: Patch = { updated_at: at };
        if (e.data.type !== undefined) p.type = e.data.type;
        if (e.data.note !== undefined) p.note = e.data.note;
        patch(e.data.transactionId, p);
      }
    }
    const t = table(target, 'transactions');
    if (inserts.size > 0) {
      // One array per column: the statement has 17 parameters however many rows it writes
      // (a VALUES list would hit PostgreSQL's 65,535-parameter limit on a large batch).
      const rows = [...inserts.values()];
      const col = <K extends (typeof COLUMNS)[number]>(c: K) => rows.map((r) => r[c]);
      await sql`
        insert into ${t} (${sql.join(COLUMNS.map((c) => sql.ref(c)))})
        select * from unnest(
          ${col('id')}::uuid[], ${col('user_id')}::uuid[], ${col('asset_id')}::text[], ${col('amount')}::numeric[],
          ${col('fee')}::numeric[], ${col('type')}::text[], ${col('status')}::text[], ${col('sent_at')}::timestamptz[],
          ${col('created_at')}::timestamptz[], ${col('sender_address')}::text[], ${col('recipient_address')}::text[],
          ${col('txid')}::text[], ${col('note')}::text[], ${col('is_hidden')}::boolean[], ${col('request_id')}::uuid[],
          ${col('payment_method_id')}::uuid[], ${col('updated_at')}::timestamptz[])`.execute(target.trx);
    }
    if (patches.size > 0) {
      // A null means "leave as is"; a note is set (possibly to null) only where set_note is true.
      const entries = [...patches.entries()];
      await sql`
        update ${t} as t set
          status = coalesce(v.status, t.status),
          type = coalesce(v.type, t.type),
          note = case when v.set_note then v.note else t.note end,
          updated_at = v.updated_at
        from unnest(
          ${entries.map(([id]) => id)}::uuid[], ${entries.map(([, p]) => p.status ?? null)}::text[],
          ${entries.map(([, p]) => p.type ?? null)}::text[], ${entries.map(([, p]) => p.note !== undefined)}::boolean[],
          ${entries.map(([, p]) => p.note ?? null)}::text[], ${entries.map(([, p]) => p.updated_at)}::timestamptz[]
        ) as v (id, status, type, set_note, note, updated_at)
        where t.id = v.id`.execute(target.trx);
    }
  },
};
