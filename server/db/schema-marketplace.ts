import type { ColumnType } from 'kysely';

type Numeric = ColumnType<string, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A stake and its scheduled payout (migrations/0007_staking.ts). */
export interface ScheduledTransactionsTable {
  id: string;
  user_id: string;
  asset_id: string;
  amount: Numeric;
  duration_days: number;
  rate: Numeric;
  estimated_earnings: Numeric;
  scheduled_at: Timestamp;
  status: 'pending' | 'completed';
  type: 'stake_payout';
  created_at: Timestamp;
  completed_at: Timestamp | null;
  payout_transaction_id: string | null;
}

export interface MarketplaceTables {
  scheduled_transactions: ScheduledTransactionsTable;
}
