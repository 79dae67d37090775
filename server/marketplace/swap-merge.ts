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

type EntryRow = TransactionRow & { req: string | null; is_swap: boolean };

/** The columns of `transactions`, for the linked leg's copy of them (prefixed `l_`). */
const TRANSACTION_COLUMNS = [
  'id', 'user_id', 'asset_id', 'amount', 'fee', 'type', 'status', 'sent_at', 'created_at', 'sender_address',
  'recipient_address', 'txid', 'note', 'is_hidden', 'request_id', 'payment_method_id', 'updated_at',
] as const satisfies readonly (keyof TransactionRow)[];

const LINKED_COLUMNS = sql.raw(TRANSACTION_COLUMNS.map((c) => `l.${c} as l_${c}`).join(', '));

type PageRow = EntryRow & { total_count: string | number } & { [K in (typeof TRANSACTION_COLUMNS)[number] as `l_${K}`]: TransactionRow[K] | null };

function strip<T extends TransactionRow>(r: T): TransactionRow {
  const row = {} as Record<string, unknown>;
  for (const c of TRANSACTION_COLUMNS) row[c] = r[c];
  return row as unknown as TransactionRow;
}

function linkedOf(r: PageRow): TransactionRow | null {
  if (!r.is_swap || r.l_id === null) return null;
  const row = {} as Record<string, unknown>;
  for (const c of TRANSACTION_COLUMNS) row[c] = r[`l_${c}`];
  return row as unknown as TransactionRow;
}

/** The request id a row carries: the swap's own, or one written in its note. */
function reqOf(alias: string) {
  return sql`coalesce(${sql.ref(`${alias}.request_id`)}::text, substring(${sql.ref(`${alias}.note`)} from ${REQ_ID_PATTERN}))`;
}

/** A cheap necessary condition for `reqOf` to be non-null, tested before the regular expression. */
function carriesReq(alias: string) {
  return sql`(${sql.ref(`${alias}.request_id`)} is not null or ${sql.ref(`${alias}.note`)} like '%(Req ID: %')`;
}

/** True when request id `req` names exactly two visible legs of the user, one spent and one received. */
function isPair(userId: string, req: ReturnType<typeof reqOf>) {
  return sql`exists (
    select 1 from transactions u
    where u.user_id = ${userId}::uuid and u.is_hidden = false and ${carriesReq('u')} and ${reqOf('u')} = ${req}
    having count(*) = 2 and count(*) filter (where u.amount < 0) = 1 and count(*) filter (where u.amount > 0) = 1)`;
}

/**
 * How many entries the customer's list has: the visible rows, less one per swap pair. A swap
 * is recognised only when exactly two visible transactions share one request id, one
 * negative and one positive (spec 001 section 4, spec 002 section 4); the list shows it once.
 * The two counts read the partial indexes of migration 0014.
 */
function entryCount(userId: string) {
  return sql`(
    (select count(*) from transactions c where c.user_id = ${userId}::uuid and c.is_hidden = false)
    - (select count(*) from (
        select 1 from transactions r
        where r.user_id = ${userId}::uuid and r.is_hidden = false and (r.request_id is not null or r.note like '%(Req ID: %')
          and ${reqOf('r')} is not null
        group by ${reqOf('r')}
        having count(*) = 2 and count(*) filter (where r.amount < 0) = 1 and count(*) filter (where r.amount > 0) = 1
      ) pairs))`;
}

/**
 * One page of the customer's list, newest sent_at first, with the exact count of entries,
 * in one statement whose cost follows the page, not the customer's history: the page walks
 * the (user_id, sent_at) index and stops at the page's end; only a row that carries a
 * request id looks for its other leg. The count is the visible rows less one per swap
 * pair. A page past the end has no row to carry the count, so only then is it counted on
 * its own.
 */
export async function transactionEntries(db: Kysely<DB>, userId: string, page: number, pageSize: number): Promise<{ entries: TransactionEntry[]; count: number }> {
  const { rows } = await sql<PageRow>`
    with page as (
      select t.*, ${reqOf('t')} as req
      from transactions t
      where t.user_id = ${userId}::uuid and t.is_hidden = false
        -- the received leg of a swap is shown inside its spent leg's entry
        and not (case when t.amount > 0 and ${reqOf('t')} is not null then ${isPair(userId, reqOf('t'))} else false end)
      order by t.sent_at desc, t.created_at desc, t.id
      limit ${pageSize} offset ${(page - 1) * pageSize}
    ),
    entries as (
      select p.*, (case when p.amount < 0 and p.req is not null then ${isPair(userId, sql`p.req`)} else false end) as is_swap
      from page p
    )
    select e.*, ${LINKED_COLUMNS},
      ${entryCount(userId)} as total_count
    from entries e
    left join lateral (
      select * from transactions l
      where e.is_swap and l.user_id = ${userId}::uuid and l.is_hidden = false and l.amount > 0 and ${carriesReq('l')} and ${reqOf('l')} = e.req
      limit 1
    ) l on true
    order by e.sent_at desc, e.created_at desc, e.id`.execute(db);
  let count = rows.length > 0 ? Number(rows[0]!.total_count) : 0;
  if (rows.length === 0 && page > 1) {
    const { rows: counted } = await sql<{ n: string | number }>`select ${entryCount(userId)} as n`.execute(db);
    count = Number(counted[0]?.n ?? 0);
  }
  return { entries: rows.map((r) => ({ row: strip(r), linked: linkedOf(r) })), count };
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
