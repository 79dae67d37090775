import { sql, type Kysely } from 'kysely';

/**
 * The two-person rule's daily sums (docs/finance.md, "Four eyes"): `staff_limit_usage`, one row
 * per staff action that moved money alone (no second person), with its maker, the customer, the
 * USD value it was valued at and the server's time of the action. The maker's rolling 24-hour
 * sum across every wallet is read from it; the customer's is the wallet's own state.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table staff_limit_usage (
      event_id uuid primary key,
      maker_id uuid not null,
      user_id uuid not null,
      transaction_id uuid not null,
      value_usd numeric(38, 18) not null,
      valued_at timestamptz not null
    )`.execute(db);
  await sql`create index staff_limit_usage_maker on staff_limit_usage (maker_id, valued_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table staff_limit_usage`.execute(db);
}
