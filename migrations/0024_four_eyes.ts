import { sql, type Kysely } from 'kysely';

/**
 * The two-person rule (docs/finance.md, "Four eyes"): `approval_requests`, the read model of
 * staff actions waiting for (or decided by) a second person; and the maker of a manual
 * transaction kept with it while it is Pending, so that its settlement posts to that staff
 * member's adjustments account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table journal_transactions add column staff_id text`.execute(db);
  await sql`
    create table approval_requests (
      request_id uuid primary key,
      user_id uuid not null,
      action text not null,
      transaction_id uuid not null,
      asset_id text not null,
      amount numeric(38, 18) not null,
      price_usd numeric(38, 18) not null,
      value_usd numeric(38, 18) not null,
      maker_id uuid not null,
      maker_role text not null,
      status text not null,
      checker_id uuid,
      checker_role text,
      reason text,
      requested_at timestamptz not null,
      expires_at timestamptz not null,
      decided_at timestamptz
    )`.execute(db);
  await sql`create index approval_requests_waiting on approval_requests (requested_at) where status = 'pending'`.execute(db);
  await sql`create index approval_requests_maker on approval_requests (maker_id, requested_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table approval_requests`.execute(db);
  await sql`alter table journal_transactions drop column staff_id`.execute(db);
}
