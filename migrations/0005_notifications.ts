import { sql, type Kysely } from 'kysely';

/** Notifications derived from settled and failed transactions; `read` follows the customer's marks. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table notifications (
      id uuid primary key,
      user_id uuid not null,
      message text not null,
      read boolean not null default false,
      created_at timestamptz not null,
      transaction_id uuid
    )`.execute(db);
  await sql`create index notifications_user on notifications (user_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table notifications`.execute(db);
}
