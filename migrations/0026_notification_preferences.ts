import { sql, type Kysely } from 'kysely';

/**
 * A customer's choices of the notifications they get (issue 32), the read model of
 * `user.notification-preferences-set` kept by the notifications projection, which reads it to
 * leave out the bell items a customer turned off. No row: everything on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table notification_preferences (
      user_id uuid primary key,
      transactions_in_app boolean not null,
      account_changes_email boolean not null,
      account_changes_in_app boolean not null,
      updated_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table notification_preferences`.execute(db);
}
