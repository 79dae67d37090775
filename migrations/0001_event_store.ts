import { sql, type Kysely } from 'kysely';

/**
 * The global log. `global_position` is taken from an identity at insert time, so a
 * transaction that commits late can hold a lower number than one already read;
 * `tx_id` (the writer's transaction id) lets readers order by commit visibility
 * instead (see ledger/event-store/postgres.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table events (
      global_position bigint generated always as identity primary key,
      event_id uuid not null unique,
      stream_id text not null,
      stream_revision bigint not null,
      event_type text not null,
      event_version integer not null,
      data jsonb not null,
      metadata jsonb not null,
      tx_id xid8 not null default pg_current_xact_id(),
      recorded_at timestamptz not null default now(),
      constraint events_stream_revision_key unique (stream_id, stream_revision)
    )`.execute(db);
  await sql`create index events_commit_order on events (tx_id, global_position)`.execute(db);
  await sql`
    create table streams (
      stream_id text primary key,
      revision bigint not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table streams`.execute(db);
  await sql`drop table events`.execute(db);
}
