import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { DB, TransactionsTable } from '../db/schema.js';
import { amountText, isoTimeText } from '../db/text-formats.js';
import { money } from '../../ledger/money.js';
import { carriesReq, reqOf, visibleLegs } from '../../projections/transaction-requests.js';

/** The columns of `transactions` that the customer's list shows. */
const ENTRY_COLUMNS = [
  'id',
  'user_id',
  'asset_id',
  'amount',
  'fee',
  'type',
  'status',
  'sent_at',
  'created_at',
  'sender_address',
  'recipient_address',
  'txid',
  'note',
  'is_hidden',
  'request_id',
] as const satisfies readonly (keyof TransactionsTable)[];

/**
 * A listed transaction as the answer writes it: amounts as canonical decimal text (no
 * trailing zeros), times as ISO 8601 in UTC with milliseconds, both written by PostgreSQL
 * (`columnsOf`), so the page parses and formats nothing of them again.
 */
export type TransactionRow = Omit<
  Pick<Selectable<TransactionsTable>, (typeof ENTRY_COLUMNS)[number]>,
  'amount' | 'fee' | 'sent_at' | 'created_at'
> & {
  amount: string;
  fee: string;
  sent_at: string;
  created_at: string;
};

/** A row of the customer's list: one transaction, or a swap shown once with its received leg linked. */
export interface TransactionEntry {
  row: TransactionRow;
  /** For a swap: the positive (received) leg; `row` is then the negative (spent) one. */
  linked: TransactionRow | null;
}

type EntryRow = TransactionRow & { req: string | null };
/** A row of a page: the entry as the answer's JSON text (`linkedTransaction` null), and what merging a swap needs. */
type PageRow = { json: string; req: string | null; is_swap: boolean; total_count: string | number | null };

// Fragments that do not depend on the call, built once.
const columnsOf = (alias: string) =>
  sql.raw(
    ENTRY_COLUMNS.map((c) => {
      if (c === 'amount' || c === 'fee') return `${amountText(`${alias}.${c}`)} as ${c}`;
      if (c === 'sent_at' || c === 'created_at') return `${isoTimeText(`${alias}.${c}`)} as ${c}`;
      return `${alias}.${c}`;
    }).join(', '),
  );
/** The listed columns of `transactions t` in the answer's format: the customer's list and the staff's tab. */
export const T_COLUMNS = columnsOf('t');
const L_COLUMNS = columnsOf('l');
const T_REQ = reqOf('t');
const T_CARRIES = carriesReq('t');
const L_REQ = reqOf('l');

function strip(r: TransactionRow): TransactionRow {
  const row = {} as Record<string, unknown>;
  for (const c of ENTRY_COLUMNS) row[c] = r[c];
  return row as TransactionRow;
}

/**
 * Whether request id `req` is one of the user's swap pairs (kept by the transactions
 * projection): a scalar subquery, true or null. Not EXISTS: PostgreSQL plans an EXISTS
 * twice (per row and hashed), and planning is a large part of this page's cost. Used under
 * `case when <amount test> and carriesReq`, so that a row with no request id (where
 * carriesReq is null, not false) never runs it.
 */
function isPair(userId: string, req: RawBuilder<unknown>) {
  return sql`(select true from transaction_swap_pairs s where s.user_id = ${userId}::uuid and s.req = ${req}) is not null`;
}

/**
 * How many entries the customer's list has: the visible rows, less one per swap pair (a
 * swap is shown once; spec 001 section 4, spec 002 section 4). Both numbers are kept by
 * the transactions projection, one row per customer (none before their first visible row).
 */
function entryCount(userId: string) {
  return sql`coalesce((select c.visible - c.pairs from transaction_entry_counts c where c.user_id = ${userId}::uuid), 0)`;
}

/** The page sizes the client asks for (the overview's recent three, the list's ten). */
const PLANNED_PAGE_SIZES = new Set([3, 10]);
/** How many first pages of those sizes are written as constants. */
const PLANNED_PAGES = 3;

/**
 * LIMIT and OFFSET: constants for the first pages of the client's page sizes, parameters
 * otherwise. With parameters PostgreSQL re-plans the page on every call (a generic plan
 * cannot know the limit and is costed above the custom ones); with constants the plan is
 * made for the page's own limit. Measured on 64 customers of 300 rows, 4 concurrent
 * callers, with named statements: 335 us a page with parameters, 140 to 170 us with
 * constants. Only a few texts are made this way.
 */
function pageClause(page: number, pageSize: number) {
  const offset = (page - 1) * pageSize;
  if (PLANNED_PAGE_SIZES.has(pageSize) && Number.isSafeInteger(page) && page >= 1 && page <= PLANNED_PAGES) {
    return sql`limit ${sql.lit(pageSize)} offset ${sql.lit(offset)}`;
  }
  return sql`limit ${pageSize} offset ${offset}`;
}

/** The answer's columns of the page's row `p`, in the answer's order, then `linkedTransaction`. */
const ENTRY_OF_P = sql.raw(`${ENTRY_COLUMNS.map((c) => `p.${c}`).join(', ')}, null as "linkedTransaction"`);

/**
 * The statement of one page of the customer's list, newest sent_at first, with the exact
 * count of entries. Its cost follows the page, not the customer's history: the page walks
 * the index in the list's order (migration 0019) and stops at the page's end, given the
 * planner's page costs of server/db/database.ts; a received leg that carries a request id
 * is skipped when its group is a pair, a spent one is marked as a swap (both by key in
 * transaction_swap_pairs); the count is one row by key. The inner statement is kept flat
 * (no join, no lateral). Each entry comes out as the answer's JSON text (`row_to_json`), so
 * the server neither builds an object per row nor writes it out again.
 */
export function entriesPage(userId: string, page: number, pageSize: number) {
  return sql<PageRow>`
    select row_to_json(e)::text as json, p.req, p.is_swap, p.total_count
    from (
      select ${T_COLUMNS}, ${T_REQ} as req,
        case when t.amount < 0 and ${T_CARRIES} then ${isPair(userId, T_REQ)} else false end as is_swap,
        ${entryCount(userId)} as total_count,
        t.sent_at as order_sent_at, t.created_at as order_created_at, t.id as order_id
      from transactions t
      where t.user_id = ${userId}::uuid and t.is_hidden = false
        -- the received leg of a swap is shown inside its spent leg's entry
        and not case when t.amount > 0 and ${T_CARRIES} then ${isPair(userId, T_REQ)} else false end
      order by t.sent_at desc, t.created_at desc, t.id
      ${pageClause(page, pageSize)}
    ) p, lateral (select ${ENTRY_OF_P}) e
    order by p.order_sent_at desc, p.order_created_at desc, p.order_id`;
}

/**
 * One page of the customer's list (`entriesPage`) as the answer's JSON text:
 * `{"transactions":[…],"count":…,"page":…,"pageSize":…}`, each entry as `entryView` writes
 * it. Only a page with a swap on it reads the received legs, in a second statement through
 * the (user_id, request id) index, and only a swap's entry is rewritten here; a group that
 * is no longer a pair by then (a note edited in between) is shown as its spent leg alone. A
 * page past the end has no row to carry the count, so only then is it read on its own.
 */
export async function transactionsPageJson(db: Kysely<DB>, userId: string, page: number, pageSize: number): Promise<string> {
  const { rows } = await entriesPage(userId, page, pageSize).execute(db);
  let count = rows.length > 0 ? Number(rows[0]!.total_count) : 0;
  if (rows.length === 0 && page > 1) {
    const { rows: counted } = await sql<{ n: string | number }>`select ${entryCount(userId)} as n`.execute(db);
    count = Number(counted[0]?.n ?? 0);
  }
  const swapReqs = rows.filter((r) => r.is_swap && r.req !== null).map((r) => r.req!);
  const received = new Map<string, TransactionRow>();
  if (swapReqs.length > 0) {
    const { rows: legs } = await sql<EntryRow>`
      select ${L_COLUMNS}, ${L_REQ} as req from ${visibleLegs(sql`transactions`, 'l', sql`${userId}::uuid`, sql`any(${swapReqs}::text[])`)}`.execute(
      db,
    );
    const byReq = new Map<string, EntryRow[]>();
    for (const l of legs) byReq.set(l.req!, [...(byReq.get(l.req!) ?? []), l]);
    for (const [req, group] of byReq) {
      const pair = pairOf(group);
      if (pair) received.set(req, pair.received);
    }
  }
  const entries = rows.map((r) => {
    const linked = r.is_swap ? received.get(r.req!) : undefined;
    return linked ? JSON.stringify(entryView({ row: JSON.parse(r.json) as TransactionRow, linked: strip(linked) })) : r.json;
  });
  return `{"transactions":[${entries.join(',')}],"count":${count},"page":${page},"pageSize":${pageSize}}`;
}

/** The spent and received legs when `legs` (one group's visible legs) form a swap pair. */
function pairOf<T extends TransactionRow>(legs: T[]): { spent: T; received: T } | null {
  const spent = legs.filter((l) => money(l.amount).isNegative());
  const received = legs.filter((l) => money(l.amount).gt(0));
  return legs.length === 2 && spent.length === 1 && received.length === 1 ? { spent: spent[0]!, received: received[0]! } : null;
}

/** One entry by the id of either leg; null when the customer has no such visible transaction. */
export async function transactionEntry(db: Kysely<DB>, userId: string, id: string): Promise<TransactionEntry | null> {
  const { rows } = await sql<EntryRow>`
    select ${T_COLUMNS}, ${T_REQ} as req from transactions t
    where t.id = ${id}::uuid and t.user_id = ${userId}::uuid and t.is_hidden = false`.execute(db);
  const row = rows[0];
  if (!row) return null;
  if (row.req) {
    const { rows: legs } =
      await sql<TransactionRow>`select ${L_COLUMNS} from ${visibleLegs(sql`transactions`, 'l', sql`${userId}::uuid`, sql`${row.req}::text`)}`.execute(
        db,
      );
    const pair = pairOf(legs);
    if (pair) return { row: pair.spent, linked: pair.received };
  }
  return { row: strip(row), linked: null };
}

/**
 * How an entry is answered: its row as read (already in the answer's format), and for a swap
 * the spent leg with type 'swap' and the received leg as `linkedTransaction`.
 */
export function entryView(entry: TransactionEntry): TransactionRow & { linkedTransaction: TransactionRow | null } {
  if (!entry.linked) return { ...entry.row, linkedTransaction: null };
  return { ...entry.row, type: 'swap', linkedTransaction: entry.linked };
}
