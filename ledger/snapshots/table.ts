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

export interface SnapshotTables {
  snapshots: SnapshotsTable;
}
