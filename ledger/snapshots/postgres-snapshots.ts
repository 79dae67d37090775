import { sql, type Kysely } from 'kysely';
import type { SnapshotTables } from './table.js';
import type { SnapshotStore, StoredSnapshot } from './snapshot.js';

/** Rows of the archive per statement: the first snapshot of a long stream folded from zero writes all its closed entries. */
const ARCHIVE_ROWS_PER_INSERT = 10_000;

/**
 * Snapshots in the `snapshots` table (migration 0027), one row per stream, and what they keep
 * beside them in `snapshot_archive` (migration 0028). The read tables'
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
    if (!s.archive?.length) return this.saveSnapshot(this.db, s);
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < s.archive!.length; i += ARCHIVE_ROWS_PER_INSERT) {
        const rows = s.archive!.slice(i, i + ARCHIVE_ROWS_PER_INSERT);
        await sql`
          insert into snapshot_archive (stream_id, key, value)
          select ${s.streamId}, k, v from unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[]) as a (k, v)
          on conflict (stream_id, key) do update set value = excluded.value`.execute(trx);
      }
      await this.saveSnapshot(trx, s);
    });
  }

  async loadArchived(streamId: string, keys: readonly string[]): Promise<[string, string][]> {
    if (keys.length === 0) return [];
    const rows = await sql<{ key: string; value: string }>`
      select key, value from snapshot_archive where stream_id = ${streamId} and key = any(${[...keys]}::text[])`.execute(this.db);
    return rows.rows.map((r) => [r.key, r.value]);
  }

  private async saveSnapshot(db: Kysely<SnapshotTables>, s: StoredSnapshot): Promise<void> {
    await sql`
      insert into snapshots (stream_id, revision, state_version, last_event_id, data)
      values (${s.streamId}, ${s.revision.toString()}, ${s.stateVersion}, ${s.lastEventId}, ${s.data})
      on conflict (stream_id) do update set revision = excluded.revision, state_version = excluded.state_version,
        last_event_id = excluded.last_event_id, data = excluded.data, taken_at = now()
      where snapshots.revision < excluded.revision or snapshots.state_version <> excluded.state_version`.execute(db);
  }
}
