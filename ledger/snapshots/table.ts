import type { ColumnType } from 'kysely';

/** The latest snapshot of a stream's state (ledger/snapshots/). */
export interface SnapshotsTable {
  stream_id: string;
  revision: ColumnType<string, string | bigint, string | bigint>;
  state_version: string;
  last_event_id: string;
  /** JSON text. */
  data: string;
  taken_at: ColumnType<Date, Date | undefined, Date>;
}

/** What a snapshot keeps beside it, by key (`SnapshotArchive`). */
export interface SnapshotArchiveTable {
  stream_id: string;
  key: string;
  value: string;
}

export interface SnapshotTables {
  snapshots: SnapshotsTable;
  snapshot_archive: SnapshotArchiveTable;
}
