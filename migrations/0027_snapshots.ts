import { sql, type Kysely } from 'kysely';

/**
 * The latest snapshot of each long stream's state (issue 33, ledger/snapshots/): a cold
 * command reads it and the events after it instead of the whole stream. A cache of the log:
 * dropping every row only makes cold loads fold from the first event again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table snapshots (
      stream_id text primary key,
      revision bigint not null,
      state_version text not null,
      last_event_id text not null,
      data text not null,
      taken_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table snapshots`.execute(db);
}
