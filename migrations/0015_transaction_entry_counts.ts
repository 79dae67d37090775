import { sql, type Kysely } from 'kysely';

/**
 * The customer's transactions list counts its entries (visible rows less one per swap
 * pair) by primary key instead of over the customer's whole history:
 *
 * - `transaction_entry_counts`: per customer with a visible transaction, the visible rows
 *   and the swap pairs among them;
 * - `transaction_swap_pairs`: every (customer, request id) whose visible legs form a swap
 *   pair (exactly two, one negative and one positive);
 * - `transactions_user_req`: the visible rows that carry a request id, by (customer, request
 *   id), so that a group's legs are found directly.
 *
 * The transactions projection keeps both tables (projections/transactions.ts); the
 * expression and the pair rule are those of projections/transaction-requests.ts, written
 * out here as they stood when this ran (the index is used only by queries that write the
 * same expression, pattern literal included). The two partial indexes of migration 0014
 * served the counts this replaces; nothing reads them any more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table transaction_entry_counts (
      user_id uuid primary key,
      visible integer not null,
      pairs integer not null
    )`.execute(db);
  await sql`create table transaction_swap_pairs (
      user_id uuid not null,
      req text not null,
      primary key (user_id, req)
    )`.execute(db);
  await sql`create index transactions_user_req on transactions
      (user_id, (coalesce(request_id::text, substring(note from '\\(Req ID: ([0-9a-f-]+)\\)'))))
      where is_hidden = false and (request_id is not null or note like '%(Req ID: %')`.execute(db);
  await backfill(db);
  await sql`drop index transactions_user_paired`.execute(db);
  await sql`drop index transactions_user_visible`.execute(db);
}

/** Fills both tables from the `transactions` rows of `schema` (which must have empty ones). */
export async function backfill(db: Kysely<any>, schema = 'public'): Promise<void> {
  const t = (name: string) => sql.table(`${schema}.${name}`);
  await sql`
    insert into ${t('transaction_swap_pairs')} (user_id, req)
    select user_id, req
    from (
      select user_id, amount, coalesce(request_id::text, substring(note from '\\(Req ID: ([0-9a-f-]+)\\)')) as req
      from ${t('transactions')}
      where is_hidden = false and (request_id is not null or note like '%(Req ID: %')
    ) legs
    where req is not null
    group by user_id, req
    having count(*) = 2 and count(*) filter (where amount < 0) = 1 and count(*) filter (where amount > 0) = 1`.execute(db);
  await sql`
    insert into ${t('transaction_entry_counts')} (user_id, visible, pairs)
    select v.user_id, v.n, coalesce(p.n, 0)
    from (select user_id, count(*)::integer as n from ${t('transactions')} where is_hidden = false group by user_id) v
    left join (select user_id, count(*)::integer as n from ${t('transaction_swap_pairs')} group by user_id) p on p.user_id = v.user_id`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index transactions_user_visible on transactions (user_id) where is_hidden = false`.execute(db);
  await sql`create index transactions_user_paired on transactions (user_id)
    where is_hidden = false and (request_id is not null or note like '%(Req ID: %')`.execute(db);
  await sql`drop index transactions_user_req`.execute(db);
  await sql`drop table transaction_swap_pairs`.execute(db);
  await sql`drop table transaction_entry_counts`.execute(db);
}
