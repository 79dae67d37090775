import { sql, type Kysely } from 'kysely';

/** Announcements a manager posts to their workers (spec 002: the worker's banner shows the latest 5). */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table announcements (
      id uuid primary key,
      manager_id uuid not null,
      message text not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index announcements_manager on announcements (manager_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table announcements`.execute(db);
}
