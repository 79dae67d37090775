import type { ColumnType, Generated } from 'kysely';
import type { PaymentMethodTables } from './schema-payment-methods.js';
import type { JournalTables } from './schema-journal.js';
import type { MarketplaceTables } from './schema-marketplace.js';
import type { AnnouncementTables } from './schema-announcements.js';
import type { TicketTables } from './schema-tickets.js';
import type { StaffActionTables } from './schema-staff-actions.js';

/** numeric and int8 columns are read as strings (see database.ts). */
type Numeric = ColumnType<string, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type { EventsTable, StreamsTable } from '../../ledger/event-store/tables.js';
import type { EventsTable, StreamsTable } from '../../ledger/event-store/tables.js';

export type { SnapshotArchiveTable, SnapshotsTable } from '../../ledger/snapshots/table.js';
import type { SnapshotArchiveTable, SnapshotsTable } from '../../ledger/snapshots/table.js';

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

export interface DB
  extends AccountTables, PaymentMethodTables, JournalTables, MarketplaceTables, AnnouncementTables, TicketTables, StaffActionTables {
  events: EventsTable;
  streams: StreamsTable;
  snapshots: SnapshotsTable;
  snapshot_archive: SnapshotArchiveTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  balances: BalancesTable;
  transactions: TransactionsTable;
  user_crypto_buying_links: BuyingLinksTable;
}

/** A customer's custom crypto buying link (migration 0012); the logo is a PNG in the blob store. */
export interface BuyingLinksTable {
  id: string;
  user_id: string;
  url: string;
  name: string;
  logo_blob_id: string;
  created_at: Timestamp;
}

export type GeneratedId = Generated<string>;

// ------------------------------------------------------------------ accounts

export interface UsersTable {
  id: string;
  email: string;
  full_name: string;
  role: 'USER' | 'WORKER' | 'MANAGER' | 'ADMIN';
  email_confirmed_at: Date | null;
  banned_until: Date | null;
  requires_password_change: boolean;
  active_mfa_method: 'totp' | 'email' | null;
  created_at: Timestamp;
  last_sign_in_at: Date | null;
  /** For a worker: the manager they report to. */
  manager_id: string | null;
  updated_at: Timestamp;
}

export interface UserProfilesTable {
  user_id: string;
  can_buy: boolean;
  can_sell: boolean;
  can_swap: boolean;
  can_stake: boolean;
  can_send: boolean;
  buy_disabled_note: string | null;
  sell_disabled_note: string | null;
  swap_disabled_note: string | null;
  stake_disabled_note: string | null;
  send_disabled_note: string | null;
  kyc_status: string;
  dashboard_note: string | null;
  addresses: ColumnType<Record<string, string>, string | undefined, string>;
  /** The worker who claimed this customer. */
  assigned_worker_id: string | null;
  claimed_at: Timestamp | null;
  first_name: string | null;
  last_name: string | null;
  dob: string | null;
  country: string | null;
  city: string | null;
  postal_code: string | null;
  full_address: string | null;
  /** DocumentRef JSON (ledger/user/events.ts). */
  identity_doc: ColumnType<DocumentRefRow | null, string | null | undefined, string | null>;
  residence_doc: ColumnType<DocumentRefRow | null, string | null | undefined, string | null>;
  kyc_submitted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DocumentRefRow {
  blobId: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** Uploaded files; events refer to them by id and digest. */
export interface BlobsTable {
  id: string;
  content_type: string;
  size: number;
  sha256: string;
  data: Uint8Array;
  created_at: Generated<Timestamp>;
  /** The customer whose upload this is (counts against their quota); null for staff uploads. */
  owner_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface LoginHistoryTable {
  id: string;
  user_id: string;
  timestamp: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
}

export interface AuthEmailIndexTable {
  email_lower: string;
  user_id: string;
}

export interface AuthCredentialsTable {
  user_id: string;
  password_hash: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface AuthSessionsTable {
  id: string;
  user_id: string;
  aal: 'aal1' | 'aal2';
  recovery: ColumnType<boolean, boolean | undefined, boolean>;
  ip_address: string | null;
  user_agent: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  refreshed_at: ColumnType<Date, Date | undefined, Date>;
  reauthenticated_at: Date | null;
  email_otp_verified_at: Date | null;
  login_logged: ColumnType<boolean, boolean | undefined, boolean>;
  revoked_at: Date | null;
  /** GoTrue's authentication methods of the session, JSON `[{method, timestamp}]` newest first (migration 0033). */
  amr: ColumnType<string, string | undefined, string>;
}

export interface AuthRefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  spent_at: Date | null;
  /** The pair this token was exchanged for, encrypted, for a repeat within the grace (migration 0030). */
  successor_encrypted: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AuthMfaFactorsTable {
  id: string;
  user_id: string;
  factor_type: 'totp';
  friendly_name: string | null;
  status: 'verified' | 'unverified';
  secret_encrypted: string;
  last_used_step: ColumnType<string | null, string | number | null, string | number | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
  verified_at: Date | null;
}

export interface AuthMfaRecoveryCodesTable {
  code_digest: string;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  used_at: Date | null;
}

export interface AuthMfaChallengesTable {
  id: string;
  factor_id: string;
  session_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  verified_at: Date | null;
}

export interface AuthOneTimeTokensTable {
  token_hash: string;
  user_id: string;
  kind: 'signup' | 'recovery' | 'email_otp';
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
  attempts: ColumnType<number, number | undefined, number>;
  code_digest: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AuthFailuresTable {
  key: string;
  at: ColumnType<Date, Date | undefined, never>;
}

export interface AuthThrottleTable {
  key: string;
  count: number;
  expires_at: Date;
}

export interface CaptchaSolutionsUsedTable {
  signature: string;
  expires_at: Date;
}

export interface MailSentTable {
  key: string;
  sent_at: ColumnType<Date, Date | undefined, never>;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  message: string;
  read: boolean;
  created_at: Timestamp;
  transaction_id: string | null;
}

/** A customer's notification choices (migration 0025); no row: everything on. */
export interface NotificationPreferencesTable {
  user_id: string;
  transactions_in_app: boolean;
  /** Migration 0035; false for choices recorded before it. */
  transactions_email: boolean;
  account_changes_email: boolean;
  account_changes_in_app: boolean;
  updated_at: Timestamp;
}

export interface AccountTables {
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  mail_sent: MailSentTable;
  users: UsersTable;
  user_profiles: UserProfilesTable;
  blobs: BlobsTable;
  login_history: LoginHistoryTable;
  auth_email_index: AuthEmailIndexTable;
  auth_credentials: AuthCredentialsTable;
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  auth_mfa_factors: AuthMfaFactorsTable;
  auth_mfa_challenges: AuthMfaChallengesTable;
  auth_mfa_recovery_codes: AuthMfaRecoveryCodesTable;
  auth_one_time_tokens: AuthOneTimeTokensTable;
  auth_failures: AuthFailuresTable;
  auth_throttle: AuthThrottleTable;
  captcha_solutions_used: CaptchaSolutionsUsedTable;
}
