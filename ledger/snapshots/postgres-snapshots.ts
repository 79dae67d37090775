import { sql, type Kysely } from 'kysely';
import type { SnapshotTables } from './table.js';
import type { SnapshotStore, StoredSnapshot } from './snapshot.js';

/**
 * Snapshots in the `snapshots` table (migration 0027), one row per stream. The read tables'
 * database is PostgreSQL or PGlite with either event store, so this serves both.
 */
export class PostgresSnapshotStore<T extends SnapshotTables = SnapshotTables> implements SnapshotStore {
  private readonly db: Kysely<SnapshotTables>;

  /** `tables`: any database that includes the snapshots table (the app's has many more). */
  constructor(tables: Kysely<T>) {
    this.db = tables as unknown as Kysely<SnapshotTables>;
  }

  async load(streamId: string): Promise<StoredSnapshot | null> {
    const row = await this.db
      .selectFrom('snapshots')
      .select(['stream_id', 'revision', 'state_version', 'last_event_id', 'data'])
      .where('stream_id', '=', streamId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      streamId: row.stream_id,
      revision: BigInt(row.revision),
      stateVersion: row.state_version,
      lastEventId: row.last_event_id,
      data: row.data,
    };
  }

  async save(s: StoredSnapshot): Promise<void> {
    await sql`
      insert into snapshots (stream_id, revision, state_version, last_event_id, data)
      values (${s.streamId}, ${s.revision.toString()}, ${s.stateVersion}, ${s.lastEventId}, ${s.data})
      on conflict (stream_id) do update set revision = excluded.revision, state_version = excluded.state_version,
        last_event_id = excluded.last_event_id, data = excluded.data, taken_at = now()
      where snapshots.revision < excluded.revision or snapshots.state_version <> excluded.state_version`.execute(this.db);
  }
}
