import { sql, type Kysely } from 'kysely';

/**
 * scheduled_transactions: one row per stake, its payout scheduled at maturity (spec 001
 * section 3). Active stakes are the rows with status pending and type stake_payout.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table scheduled_transactions (
      id uuid primary key,
      user_id uuid not null,
      asset_id text not null,
      amount numeric(38, 18) not null,
      duration_days integer not null,
      rate numeric(38, 18) not null,
      estimated_earnings numeric(38, 18) not null,
      scheduled_at timestamptz not null,
      status text not null,
      type text not null,
      created_at timestamptz not null,
      completed_at timestamptz,
      payout_transaction_id uuid
    )`.execute(db);
  await sql`create index scheduled_transactions_user on scheduled_transactions (user_id, status, scheduled_at)`.execute(db);
  await sql`create index scheduled_transactions_due on scheduled_transactions (scheduled_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table scheduled_transactions`.execute(db);
}
