import { sql, type Kysely } from 'kysely';

/**
 * The customer's choice of the transaction e-mails (issue 50): money received, a deposit,
 * withdrawal or send completed or failed. Off for every choice recorded before it existed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table notification_preferences add column transactions_email boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table notification_preferences drop column transactions_email`.execute(db);
}
