import { sql, type Kysely } from 'kysely';
import { RANDOM_PAGE_COST } from '../server/db/database.js';

/**
 * The planner's page cost as the database's own setting (see `RANDOM_PAGE_COST`): every
 * connection opened after this takes it, whichever client opened it, also behind a pooler.
 * It was a startup option of each connection, which PgBouncer refuses. The connection that
 * runs this takes it at once too. A role without the right to alter the database (it does
 * not own it) leaves the default with a notice; its owner can run the statement.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    do $$ begin
      execute format('alter database %I set random_page_cost = ${sql.raw(RANDOM_PAGE_COST)}', current_database());
    exception when insufficient_privilege then
      raise notice 'random_page_cost is left as it is: only the owner of database % may set it (alter database % set random_page_cost = ${sql.raw(RANDOM_PAGE_COST)})', current_database(), current_database();
    end $$`.execute(db);
  await sql`select set_config('random_page_cost', ${RANDOM_PAGE_COST}, false)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`do $$ begin execute format('alter database %I reset random_page_cost', current_database()); end $$`.execute(db);
}
