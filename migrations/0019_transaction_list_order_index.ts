import { sql, type Kysely } from 'kysely';

/**
 * The transactions lists (the customer's page, the staff's tab) read a customer's rows in
 * the order (sent_at desc, created_at desc, id). On an index of (user_id, sent_at desc)
 * alone the last two keys are left to a sort, and when the statistics say the customer has
 * a few rows the planner sorts all of them rather than in groups: the page then reads the
 * customer's whole history to answer ten rows. On an index in the list's full order the
 * page is the index's first entries and there is nothing to sort. It replaces the shorter
 * index, so the writes keep the same number of indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index transactions_user_list on transactions (user_id, sent_at desc, created_at desc, id)`.execute(db);
  await sql`drop index transactions_user_sent`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index transactions_user_sent on transactions (user_id, sent_at desc)`.execute(db);
  await sql`drop index transactions_user_list`.execute(db);
}
