import type { ColumnType, Generated } from 'kysely';

/** numeric and int8 columns are read as strings (see database.ts). */
type Numeric = ColumnType<string, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

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
}

export interface StreamsTable {
  stream_id: string;
  revision: ColumnType<string, string | number | bigint, string | number | bigint>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ProjectionCheckpointsTable {
  name: string;
  commit_position: ColumnType<string, string | bigint, string | bigint>;
  prepare_position: ColumnType<string, string | bigint, string | bigint>;
  events_applied: ColumnType<string, string | number | undefined, string | number>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface BalancesTable {
  user_id: string;
  asset_id: string;
  balance: Numeric;
  pending_deposits: Numeric;
  pending_withdrawals: Numeric;
  updated_at: Timestamp;
}

export interface TransactionsTable {
  id: string;
  user_id: string;
  asset_id: string;
  amount: Numeric;
  fee: Numeric;
  type: string;
  status: 'Pending' | 'Complete' | 'Failed';
  sent_at: Timestamp;
  created_at: Timestamp;
  sender_address: string | null;
  recipient_address: string | null;
  txid: string | null;
  note: string | null;
  is_hidden: boolean;
  request_id: string | null;
  payment_method_id: string | null;
  updated_at: Timestamp;
}

export interface DB {
  events: EventsTable;
  streams: StreamsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  balances: BalancesTable;
  transactions: TransactionsTable;
}

export type GeneratedId = Generated<string>;
