import type { ColumnType } from 'kysely';

type Numeric = ColumnType<string, string, string>;

/**
 * The double-entry journal's read tables (migrations/0011_journal.ts, 0016_journal_postings.ts):
 * `journal_postings` holds one row per posted event with its legs as arrays; `journal_entries`
 * is a view of it with one row per posting (read only).
 */
export interface JournalTables {
  journal_postings: {
    event_id: string;
    commit_position: string;
    prepare_position: string;
    user_id: string | null;
    transaction_id: string | null;
    recorded_at: ColumnType<Date, Date | string, Date | string>;
    accounts: string[];
    asset_ids: string[];
    amounts: ColumnType<string[], string[], string[]>;
  };
  journal_entries: {
    event_id: string;
    leg: number;
    commit_position: string;
    prepare_position: string;
    user_id: string | null;
    transaction_id: string | null;
    account: string;
    account_kind: string;
    asset_id: string;
    amount: Numeric;
    recorded_at: ColumnType<Date, Date | string, Date | string>;
  };
  journal_transactions: {
    transaction_id: string;
    user_id: string;
    asset_id: string;
    amount: Numeric;
    fee: Numeric;
    kind: string;
    status: string;
    /** A manual transaction's maker ('' when unknown); null for any other transaction. */
    staff_id: string | null;
  };
  approval_requests: {
    request_id: string;
    user_id: string;
    action: string;
    transaction_id: string;
    asset_id: string;
    amount: Numeric;
    price_usd: Numeric;
    value_usd: Numeric;
    maker_id: string;
    maker_role: string;
    status: string;
    checker_id: string | null;
    checker_role: string | null;
    reason: string | null;
    requested_at: ColumnType<Date, Date | string, Date | string>;
    expires_at: ColumnType<Date, Date | string, Date | string>;
    decided_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  };
  /** Staff actions that moved money alone: the makers' rolling daily sums (migrations/0031). */
  staff_limit_usage: {
    event_id: string;
    maker_id: string;
    user_id: string;
    transaction_id: string;
    value_usd: Numeric;
    valued_at: ColumnType<Date, Date | string, Date | string>;
  };
}
