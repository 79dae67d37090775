import { sql } from 'kysely';
import type { RecordedEvent } from '../ledger/event-store/port.js';
import { isWalletEventType, openedStatus, openedType, WALLET_STREAM_PREFIX, type WalletEvent } from '../ledger/wallet/events.js';
import { insertRows, type InsertColumn } from '../server/db/insert-rows.js';
import { table, timestampText, type Projection, type ProjectionTarget } from './projection.js';
import { carriesReq, isPairGroup, mayCarryReq, reqOf, visibleLegs } from './transaction-requests.js';

interface Row {
  id: string;
  user_id: string;
  asset_id: string;
  amount: string;
  fee: string;
  type: string;
  status: string;
  sent_at: string;
  created_at: Date;
  sender_address: string | null;
  recipient_address: string | null;
  txid: string | null;
  note: string | null;
  is_hidden: boolean;
  request_id: string | null;
  payment_method_id: string | null;
  updated_at: Date;
}

type Patch = Partial<Pick<Row, 'status' | 'type' | 'note'>> & { updated_at: Date };

const text = (k: keyof Row) => ({ name: k, type: 'text', value: (r: Row) => r[k] as string | null });
const typed = (k: keyof Row, type: string) => ({ name: k, type, value: (r: Row) => r[k] as string | null });
const time = (k: 'created_at' | 'updated_at') => ({ name: k, type: 'timestamptz', value: (r: Row) => timestampText(r[k]) });

const COLUMNS: InsertColumn<Row>[] = [
  typed('id', 'uuid'),
  typed('user_id', 'uuid'),
  text('asset_id'),
  typed('amount', 'numeric'),
  typed('fee', 'numeric'),
  text('type'),
  text('status'),
  typed('sent_at', 'timestamptz'),
  time('created_at'),
  text('sender_address'),
  text('recipient_address'),
  text('txid'),
  text('note'),
  { name: 'is_hidden', type: 'boolean', value: (r) => r.is_hidden },
  typed('request_id', 'uuid'),
  typed('payment_method_id', 'uuid'),
  time('updated_at'),
];

/**
 * transactions: one row per wallet transaction with the spec's fields. Rows opened and
 * changed in one batch are merged in memory; the batch ends in one insert of the new rows,
 * one update statement, and one statement that keeps the customer's list counted:
 *
 * - transaction_swap_pairs: the (customer, request id) groups whose visible legs form a swap
 *   pair (projections/transaction-requests.ts);
 * - transaction_entry_counts: per customer, the visible rows and the pairs among them; the
 *   list has `visible - pairs` entries.
 *
 * A row's visibility and amount never change after it is opened; only an edited note can
 * move it from one request id to another. So a batch can change only the groups of the
 * visible rows it opens that carry a request id, and, for a row whose note it edits, the
 * group before the edit and the one after. Those groups are looked at again, whole.
 */
export const transactionsProjection: Projection = {
  name: 'transactions',
  tables: ['transactions', 'transaction_entry_counts', 'transaction_swap_pairs'],
  fillFactors: { transactions: 90 },
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
      const at = recorded.recordedAt;
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
    await insertRows(target.trx, `${target.schema}.transactions`, COLUMNS, [...inserts.values()]);
    // Rows whose group this batch may change (read after the writes), and for edited notes the group before.
    const visible = new Map<string, number>();
    const regroup: string[] = [];
    for (const r of inserts.values()) {
      if (r.is_hidden) continue;
      visible.set(r.user_id, (visible.get(r.user_id) ?? 0) + 1);
      if (mayCarryReq(r)) regroup.push(r.id);
    }
    let before: { user_id: string; req: string }[] = [];
    if (patches.size > 0) {
      // A null means "leave as is"; a note is set (possibly to null) only where set_note is true.
      const entries = [...patches.entries()];
      const update = sql`
        update ${t} as t set
          status = coalesce(v.status, t.status),
          type = coalesce(v.type, t.type),
          note = case when v.set_note then v.note else t.note end,
          updated_at = v.updated_at
        from unnest(
          ${entries.map(([id]) => id)}::uuid[], ${entries.map(([, p]) => p.status ?? null)}::text[],
          ${entries.map(([, p]) => p.type ?? null)}::text[], ${entries.map(([, p]) => p.note !== undefined)}::boolean[],
          ${entries.map(([, p]) => p.note ?? null)}::text[], ${entries.map(([, p]) => timestampText(p.updated_at))}::timestamptz[]
        ) as v (id, status, type, set_note, note, updated_at)
        where t.id = v.id`;
      const noted = entries.filter(([, p]) => p.note !== undefined).map(([id]) => id);
      if (noted.length === 0) {
        await update.execute(target.trx);
      } else {
        // The groups before the edit, read in the same statement as the update (one snapshot, before it).
        regroup.push(...noted);
        const { rows } = await sql<{ user_id: string; req: string | null }>`
          with edited as (${update} returning 1)
          select o.user_id, ${reqOf('o')} as req from ${t} as o
          where o.id = any(${noted}::uuid[]) and o.is_hidden = false and ${carriesReq('o')}`.execute(target.trx);
        before = rows.filter((r): r is { user_id: string; req: string } => r.req !== null);
      }
    }
    await countEntries(target, visible, regroup, before);
  },
};

/**
 * Moves the customer's counts by the rows this batch made visible and, when it touched a
 * group that may be a swap pair, looks at each such group again (its legs through the
 * expression index): a group that became a pair is added, one that stopped being one is
 * removed, and `pairs` moves by the difference. A batch of plain rows costs one upsert.
 */
async function countEntries(
  target: ProjectionTarget,
  visible: Map<string, number>,
  regroup: string[],
  before: { user_id: string; req: string }[],
) {
  const counts = table(target, 'transaction_entry_counts');
  const pairs = table(target, 'transaction_swap_pairs');
  const t = table(target, 'transactions');
  const users = [...visible.keys()];
  const opened = sql`select user_id, n as visible, 0 as pairs from unnest(${users}::uuid[], ${users.map((u) => visible.get(u)!)}::integer[]) as v (user_id, n)`;
  const upsert = (deltas: ReturnType<typeof sql>) => sql`
    insert into ${counts} as c (user_id, visible, pairs)
    select user_id, sum(visible)::integer, sum(pairs)::integer from (${deltas}) d
    group by user_id having sum(visible) <> 0 or sum(pairs) <> 0
    on conflict (user_id) do update set visible = c.visible + excluded.visible, pairs = c.pairs + excluded.pairs`;
  if (regroup.length === 0 && before.length === 0) {
    if (users.length > 0) await upsert(opened).execute(target.trx);
    return;
  }
  await sql`
    with keys as (
      select distinct user_id, req from (
        select r.user_id, ${reqOf('r')} as req from ${t} as r
        where r.id = any(${regroup}::uuid[]) and r.is_hidden = false and ${carriesReq('r')}
        union all
        select user_id, req from unnest(${before.map((b) => b.user_id)}::uuid[], ${before.map((b) => b.req)}::text[]) as b (user_id, req)
      ) k
      where req is not null
    ),
    groups as (
      select k.user_id, k.req, exists (select 1 from ${visibleLegs(t, 'u', sql`k.user_id`, sql`k.req`)} having ${isPairGroup('u')}) as pair
      from keys k
    ),
    added as (
      insert into ${pairs} (user_id, req) select user_id, req from groups where pair
      on conflict do nothing
      returning user_id
    ),
    removed as (
      delete from ${pairs} as p using groups g
      where p.user_id = g.user_id and p.req = g.req and not g.pair
      returning p.user_id
    )
    ${upsert(sql`${opened} union all select user_id, 0, 1 from added union all select user_id, 0, -1 from removed`)}`.execute(target.trx);
}
