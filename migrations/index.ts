import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { insideTransaction, lockedTransaction } from './one-transaction.js';
import * as m0001 from './0001_event_store.js';
import * as m0002 from './0002_wallet_read_models.js';
import * as m0003 from './0003_accounts.js';
import * as m0004 from './0004_payment_methods.js';
import * as m0005 from './0005_notifications.js';
import * as m0006 from './0006_ownership_kyc_blobs.js';
import * as m0007 from './0007_staking.js';
import * as m0009 from './0009_support_tickets.js';
import * as m0010 from './0010_announcements.js';
import * as m0011 from './0011_journal.js';
import * as m0012 from './0012_staff_profile.js';
import * as m0013 from './0013_stream_commit_order.js';
import * as m0014 from './0014_transaction_list_indexes.js';
import * as m0015 from './0015_transaction_entry_counts.js';
import * as m0016 from './0016_journal_postings.js';
import * as m0017 from './0017_journal_open_transactions.js';
import * as m0018 from './0018_journal_postings_position_key.js';
import * as m0019 from './0019_transaction_list_order_index.js';
import * as m0020 from './0020_users_email_not_unique.js';
import * as m0021 from './0021_staff_actions.js';
import * as m0022 from './0022_access_limits.js';
import * as m0023 from './0023_mfa_recovery_codes.js';
import * as m0024 from './0024_four_eyes.js';
import * as m0025 from './0025_planner_page_cost.js';
import * as m0026 from './0026_notification_preferences.js';
import * as m0027 from './0027_snapshots.js';
import * as m0028 from './0028_snapshot_archive.js';
import * as m0029 from './0029_read_model_fill_factor.js';
import * as m0030 from './0030_staff_activity.js';
import * as m0031 from './0031_staff_limit_usage.js';
import * as m0032 from './0032_liabilities_proofs.js';
import * as m0033 from './0033_session_methods.js';
import * as m0034 from './0034_event_hash_chain.js';
import * as m0035 from './0035_transaction_mail_preference.js';

/** Listed here, not read from the folder, so they run the same from source or a bundle. */
const migrations: Record<string, Migration> = {
  '0001_event_store': m0001,
  '0002_wallet_read_models': m0002,
  '0003_accounts': m0003,
  '0004_payment_methods': m0004,
  '0005_notifications': m0005,
  '0006_ownership_kyc_blobs': m0006,
  '0007_staking': m0007,
  '0009_support_tickets': m0009,
  '0010_announcements': m0010,
  '0011_journal': m0011,
  '0012_staff_profile': m0012,
  '0013_stream_commit_order': m0013,
  '0014_transaction_list_indexes': m0014,
  '0015_transaction_entry_counts': m0015,
  '0016_journal_postings': m0016,
  '0017_journal_open_transactions': m0017,
  '0018_journal_postings_position_key': m0018,
  '0019_transaction_list_order_index': m0019,
  '0020_users_email_not_unique': m0020,
  '0021_staff_actions': m0021,
  '0022_access_limits': m0022,
  '0023_mfa_recovery_codes': m0023,
  '0024_four_eyes': m0024,
  '0025_planner_page_cost': m0025,
  '0026_notification_preferences': m0026,
  '0027_snapshots': m0027,
  '0028_snapshot_archive': m0028,
  '0029_read_model_fill_factor': m0029,
  '0030_staff_activity': m0030,
  '0031_staff_limit_usage': m0031,
  '0032_liabilities_proofs': m0032,
  '0033_session_methods': m0033,
  '0034_event_hash_chain': m0034,
  '0035_transaction_mail_preference': m0035,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Applies the pending migrations, all or none, in one transaction that holds the migration
 * lock (migrations/one-transaction.ts: no session state, so it works behind PgBouncer too).
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return lockedTransaction(db, async (trx) => {
    const migrator = new Migrator({ db: insideTransaction(trx), provider, disableTransactions: true });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  });
}

export interface MigrationStatus {
  applied: { name: string; executedAt: Date }[];
  pending: string[];
}

/** Which migrations the database has and which it lacks, without applying any. */
export async function migrationStatus(db: Kysely<any>): Promise<MigrationStatus> {
  const all = await new Migrator({ db, provider }).getMigrations();
  return {
    applied: all.filter((m) => m.executedAt).map((m) => ({ name: m.name, executedAt: m.executedAt! })),
    pending: all.filter((m) => !m.executedAt).map((m) => m.name),
  };
}
