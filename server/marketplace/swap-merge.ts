import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, TransactionsTable } from '../db/schema.js';
import { money } from '../../ledger/money.js';

export type TransactionRow = Selectable<TransactionsTable>;

/** A row of the customer's list: one transaction, or a swap shown once with its received leg linked. */
export interface TransactionEntry {
  row: TransactionRow;
  /** For a swap: the positive (received) leg; `row` is then the negative (spent) one. */
  linked: TransactionRow | null;
}

/** '(Req ID: {uuid})' in a note (spec 002): a lowercase hexadecimal-and-dash token. */
const REQ_ID_PATTERN = '\\(Req ID: ([0-9a-f-]+)\\)';

/**
 * The customer's visible rows with the request id each one carries: the swap's own, or one
 * written in its note.
 */
function visibleRows(userId: string) {
  return sql`
    select t.*, coalesce(t.request_id::text, substring(t.note from ${REQ_ID_PATTERN})) as req
    from transactions t where t.user_id = ${userId}::uuid and t.is_hidden = false`;
}

/**
 * A swap is recognised only when exactly two visible transactions share one request id, one
 * negative and one positive (spec 001 section 4, spec 002 section 4). The list shows the
 * negative leg with the positive one linked, and counts the pair once.
 */
function entriesQuery(userId: string) {
  return sql`
    with mine as (${visibleRows(userId)}),
    pairs as (
      select req from mine where req is not null group by req
      having count(*) = 2 and count(*) filter (where amount < 0) = 1 and count(*) filter (where amount > 0) = 1
    )
    select m.*, (p.req is not null) as is_swap
    from mine m left join pairs p on p.req = m.req
    where not (p.req is not null and m.amount > 0)`;
}

type EntryRow = TransactionRow & { req: string | null; is_swap: boolean };

async function linkedLegs(db: Kysely<DB>, userId: string, reqs: string[]): Promise<Map<string, TransactionRow>> {
  if (reqs.length === 0) return new Map();
  const { rows } = await sql<TransactionRow & { req: string }>`
    select * from (${visibleRows(userId)}) m where m.req = any(${reqs}::text[]) and m.amount > 0`.execute(db);
  return new Map(rows.map((r) => [r.req, strip(r)]));
}

function strip<T extends TransactionRow>(r: T & { req?: unknown; is_swap?: unknown }): TransactionRow {
  const { req: _req, is_swap: _swap, ...row } = r;
  return row as TransactionRow;
}

/** One page of the customer's list, newest sent_at first, with the exact count of entries. */
export async function transactionEntries(db: Kysely<DB>, userId: string, page: number, pageSize: number): Promise<{ entries: TransactionEntry[]; count: number }> {
  const [list, count] = await Promise.all([
    sql<EntryRow>`select * from (${entriesQuery(userId)}) e order by e.sent_at desc, e.created_at desc, e.id limit ${pageSize} offset ${(page - 1) * pageSize}`.execute(db),
    sql<{ n: string | number }>`select count(*) as n from (${entriesQuery(userId)}) e`.execute(db),
  ]);
  const linked = await linkedLegs(db, userId, list.rows.filter((r) => r.is_swap && r.req).map((r) => r.req!));
  return {
    entries: list.rows.map((r) => ({ row: strip(r), linked: r.is_swap && r.req ? (linked.get(r.req) ?? null) : null })),
    count: Number(count.rows[0]?.n ?? 0),
  };
}

/** One entry by the id of either leg; null when the customer has no such visible transaction. */
export async function transactionEntry(db: Kysely<DB>, userId: string, id: string): Promise<TransactionEntry | null> {
  const { rows } = await sql<EntryRow>`select * from (${visibleRows(userId)}) m where m.id = ${id}::uuid`.execute(db);
  const row = rows[0];
  if (!row) return null;
  if (row.req) {
    const { rows: legs } = await sql<EntryRow>`select * from (${visibleRows(userId)}) m where m.req = ${row.req} order by m.amount`.execute(db);
    const spent = legs.filter((l) => money(l.amount).isNegative());
    const received = legs.filter((l) => money(l.amount).gt(0));
    if (legs.length === 2 && spent.length === 1 && received.length === 1) return { row: strip(spent[0]!), linked: strip(received[0]!) };
  }
  return { row: strip(row), linked: null };
}

/** How an entry is answered: a swap is its spent leg with type 'swap' and the received leg as `linkedTransaction`. */
export function entryView<V extends object>(entry: TransactionEntry, view: (row: TransactionRow) => V): V & { linkedTransaction: V | null } {
  if (!entry.linked) return { ...view(entry.row), linkedTransaction: null };
  return { ...view(entry.row), type: 'swap', linkedTransaction: view(entry.linked) };
}
