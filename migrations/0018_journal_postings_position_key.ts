import { sql, type Kysely } from 'kysely';

/**
 * journal_postings is keyed by the event's place in the log, not its random id. Both are
 * unique per event; the position grows with the log, so each posting is added at the right
 * end of the key's index instead of at a random page of it (a replay of 100,000 events
 * spent about a quarter of PostgreSQL's journal time there), and the key is the order the
 * journal is read and checked in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table journal_postings drop constraint journal_postings_pkey, add primary key (commit_position, prepare_position)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table journal_postings drop constraint journal_postings_pkey, add primary key (event_id)`.execute(db);
}
