import type { ColumnType } from 'kysely';

/**
 * The PostgreSQL event store's own tables (migrations 0001 and on): the log and each stream's
 * revision. The app's database type (server/db/schema.ts) includes them.
 */
export interface EventsTable {
  global_position: ColumnType<string, never, never>;
  event_id: string;
  stream_id: string;
  stream_revision: ColumnType<string, string | number | bigint, never>;
  event_type: string;
  event_version: number;
  data: ColumnType<unknown, string, never>;
  metadata: ColumnType<unknown, string, never>;
  tx_id: ColumnType<string, never, never>;
  recorded_at: ColumnType<Date, never, never>;
  /** SHA-256 chaining the event to its stream's previous one (chain.ts); null before the chain, until backfilled. */
  hash: ColumnType<Buffer | null, never, Buffer | null>;
}

export interface StreamsTable {
  stream_id: string;
  revision: ColumnType<string, string | number | bigint, string | number | bigint>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** Commit-order label of the stream's latest append (xid8 as text). */
  last_tx: string | null;
  /** The hash of the stream's last event (null while the stream is not chained). */
  head_hash: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

export interface EventStoreTables {
  events: EventsTable;
  streams: StreamsTable;
}
