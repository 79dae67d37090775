import { sql, type Kysely } from 'kysely';

/**
 * Issue 46. `events.hash`: SHA-256 chaining each event to the one before it in its stream
 * (ledger/event-store/chain.ts), computed once at append. `streams.head_hash`: the hash of the
 * stream's last event, written by the statement that moves the stream's revision, so an append
 * that does not know it finds it where it already reads the revision, and an append chained
 * from a stale head is refused. Null for events appended before this migration until
 * `ledger seal --backfill` chains them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events add column hash bytea`.execute(db);
  await sql`alter table streams add column head_hash bytea`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table streams drop column head_hash`.execute(db);
  await sql`alter table events drop column hash`.execute(db);
}
