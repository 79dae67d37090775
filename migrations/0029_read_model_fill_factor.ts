import { sql, type Kysely } from 'kysely';

/**
 * The read-model tables that take a row with every command leave a tenth of each page free
 * (`Projection.fillFactors`): a rebuild packs them full, so a live insert, which needs that
 * tenth on top of its own row, goes to the table's end instead of into an old page. A change
 * of the storage parameter only: no row is rewritten.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table transactions set (fillfactor = 90)`.execute(db);
  await sql`alter table journal_postings set (fillfactor = 90)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table transactions reset (fillfactor)`.execute(db);
  await sql`alter table journal_postings reset (fillfactor)`.execute(db);
}
