import { sql } from 'kysely';
import type { RecordedEvent } from '../ledger/event-store/port.js';
import { isWalletEventType, openedType, WALLET_STREAM_PREFIX, type WalletEvent } from '../ledger/wallet/events.js';
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
      if (type && (e.type === 'wallet.deposit-requested' || e.type === 'wallet.withdrawal-requested' || e.type === 'wallet.transaction-recorded')) {
        const d = e.data;
        inserts.set(d.transactionId, {
          id: d.transactionId,
          user_id: recorded.streamId.slice(WALLET_STREAM_PREFIX.length),
          asset_id: d.assetId,
          amount: d.amount,
          fee: d.fee,
          type,
          status: e.type === 'wallet.transaction-recorded' ? e.data.status : 'Pending',
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
      const values = [...inserts.values()].map(
        (r) => sql`(${sql.join(COLUMNS.map((c) => sql`${r[c]}`))})`,
      );
      await sql`
        insert into ${t} (${sql.join(COLUMNS.map((c) => sql.ref(c)))})
        select id::uuid, user_id::uuid, asset_id, amount::numeric, fee::numeric, type, status, sent_at::timestamptz,
          created_at::timestamptz, sender_address, recipient_address, txid, note, is_hidden::boolean,
          request_id::uuid, payment_method_id::uuid, updated_at::timestamptz
        from (values ${sql.join(values)}) as v (${sql.join(COLUMNS.map((c) => sql.ref(c)))})`.execute(target.trx);
    }
    if (patches.size > 0) {
      // One statement; a null in v means "leave as is".
      const values = [...patches.entries()].map(
        ([id, p]) => sql`(${id}, ${p.status ?? null}, ${p.type ?? null}, ${p.note !== undefined}, ${p.note ?? null}, ${p.updated_at})`,
      );
      await sql`
        update ${t} as t set
          status = coalesce(v.status, t.status),
          type = coalesce(v.type, t.type),
          note = case when v.set_note::boolean then v.note else t.note end,
          updated_at = v.updated_at::timestamptz
        from (values ${sql.join(values)}) as v (id, status, type, set_note, note, updated_at)
        where t.id = v.id::uuid`.execute(target.trx);
    }
  },
};
