import { sql, type Kysely } from 'kysely';

/**
 * What a snapshot keeps beside it, one row per key (ledger/snapshots/snapshot.ts,
 * `SnapshotArchive`): a wallet's closed transactions and their final status, so that a
 * snapshot holds only what is open and a cold load stays as fast on a wallet of 100,000
 * events as on one of 100. Part of the same cache as `snapshots`: empty both or neither.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table snapshot_archive (
      stream_id text not null,
      key text not null,
      value text not null,
      primary key (stream_id, key)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table snapshot_archive`.execute(db);
}
