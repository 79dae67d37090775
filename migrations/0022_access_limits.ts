import { sql, type Kysely } from 'kysely';

/**
 * Throttling counters (server/auth/throttle.ts): one row per key, a count and the time the
 * window ends, the shape of a counter with expiry in a key-value store. And who uploaded a
 * blob, so that a customer's uploads count against their quota.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table auth_throttle (
      key text primary key,
      count integer not null,
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index auth_throttle_expires on auth_throttle (expires_at)`.execute(db);
  await sql`alter table blobs add column owner_id uuid`.execute(db);
  await sql`create index blobs_owner on blobs (owner_id) where owner_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index blobs_owner`.execute(db);
  await sql`alter table blobs drop column owner_id`.execute(db);
  await sql`drop table auth_throttle`.execute(db);
}
