import { sql, type Kysely } from 'kysely';

/**
 * The double-entry journal (docs/finance.md): one row per posting, and what the journal
 * keeps of each transaction between its opening and its last status change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table journal_entries (
      event_id uuid not null,
      leg smallint not null,
      commit_position bigint not null,
      prepare_position bigint not null,
      user_id uuid,
      transaction_id uuid,
      account text not null,
      account_kind text not null,
      asset_id text not null,
      amount numeric(38, 18) not null,
      recorded_at timestamptz not null,
      primary key (event_id, leg)
    )`.execute(db);
  // No secondary indexes: the journal is written on every money event and read whole
  // (trial balance, verify); a customer's history is read from their own stream.
  await sql`
    create table journal_transactions (
      transaction_id uuid primary key,
      user_id uuid not null,
      asset_id text not null,
      amount numeric(38, 18) not null,
      fee numeric(38, 18) not null,
      kind text not null,
      status text not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table journal_transactions`.execute(db);
  await sql`drop table journal_entries`.execute(db);
}
