import { sql, type Kysely } from 'kysely';

/**
 * staff_actions: one row per staff action, folded from the log (projections/staff-actions.ts).
 * Every list reads newest first by (at, event_id), alone or for one staff member, one
 * customer or one action: an index in that order for each, so a page is the index's next
 * entries after the cursor (keyset paging), however many rows the table holds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table staff_actions (
      event_id uuid primary key,
      at timestamptz not null,
      staff_id uuid not null,
      staff_role text not null,
      customer_id uuid,
      action text not null,
      detail text not null,
      event_type text not null,
      position text not null
    )`.execute(db);
  await sql`create index staff_actions_at on staff_actions (at desc, event_id desc)`.execute(db);
  await sql`create index staff_actions_staff on staff_actions (staff_id, at desc, event_id desc)`.execute(db);
  await sql`create index staff_actions_customer on staff_actions (customer_id, at desc, event_id desc)`.execute(db);
  await sql`create index staff_actions_action on staff_actions (action, at desc, event_id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table staff_actions`.execute(db);
}
