import { sql, type Kysely } from 'kysely';

/**
 * staff_activity: the staff actions with the maker and the checker of each (the second person
 * who approved it), the request under the two-person rule it belongs to, and the operator's
 * command line as a maker without an account (`ledger create-staff`). A new table beside
 * `staff_actions` (migration 0021), folded by a read model of its own from the start of the
 * log: during a rolling upgrade the old instances keep writing the old table while the new
 * ones fill this one, and no row is guessed by SQL (docs/operations.md, "Upgrade"). The old
 * table goes in a later release, once no instance of the previous one runs.
 * The filter by staff member reads the maker's index and the checker's, each in list order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table staff_activity (
      event_id uuid primary key,
      at timestamptz not null,
      action text not null,
      maker_id uuid,
      maker_role text,
      checker_id uuid,
      checker_role text,
      customer_id uuid,
      request_id uuid,
      detail text not null,
      event_type text not null,
      position text not null
    )`.execute(db);
  await sql`create index staff_activity_at on staff_activity (at desc, event_id desc)`.execute(db);
  await sql`create index staff_activity_maker on staff_activity (maker_id, at desc, event_id desc)`.execute(db);
  await sql`create index staff_activity_checker on staff_activity (checker_id, at desc, event_id desc) where checker_id is not null`.execute(
    db,
  );
  await sql`create index staff_activity_customer on staff_activity (customer_id, at desc, event_id desc)`.execute(db);
  await sql`create index staff_activity_action on staff_activity (action, at desc, event_id desc)`.execute(db);
  await sql`create index staff_activity_request on staff_activity (request_id) where request_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table staff_activity`.execute(db);
  await sql`delete from projection_checkpoints where name = 'staff-activity'`.execute(db);
}
