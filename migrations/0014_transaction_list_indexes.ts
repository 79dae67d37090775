import { sql, type Kysely } from 'kysely';

/**
 * The transactions page counts a customer's visible rows and the rows that may be swap legs
 * (a request id, or one written in the note) on every call. Two partial indexes let both
 * counts read only index entries instead of every row of the customer's history
 * (server/transactions/list.ts; the predicates must stay as the queries write them).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index transactions_user_visible on transactions (user_id) where is_hidden = false`.execute(db);
  await sql`create index transactions_user_paired on transactions (user_id)
    where is_hidden = false and (request_id is not null or note like '%(Req ID: %')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index transactions_user_paired`.execute(db);
  await sql`drop index transactions_user_visible`.execute(db);
}
