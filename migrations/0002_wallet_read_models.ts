import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table projection_checkpoints (
      name text primary key,
      commit_position bigint not null default 0,
      prepare_position bigint not null default 0,
      events_applied bigint not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table balances (
      user_id uuid not null,
      asset_id text not null,
      balance numeric(38, 18) not null default 0,
      pending_deposits numeric(38, 18) not null default 0,
      pending_withdrawals numeric(38, 18) not null default 0,
      updated_at timestamptz not null default now(),
      primary key (user_id, asset_id)
    )`.execute(db);
  await sql`
    create table transactions (
      id uuid primary key,
      user_id uuid not null,
      asset_id text not null,
      amount numeric(38, 18) not null,
      fee numeric(38, 18) not null default 0,
      type text not null,
      status text not null,
      sent_at timestamptz not null,
      created_at timestamptz not null,
      sender_address text,
      recipient_address text,
      txid text,
      note text,
      is_hidden boolean not null default false,
      request_id uuid,
      payment_method_id uuid,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index transactions_user_sent on transactions (user_id, sent_at desc)`.execute(db);
  await sql`create index transactions_request on transactions (request_id) where request_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table transactions`.execute(db);
  await sql`drop table balances`.execute(db);
  await sql`drop table projection_checkpoints`.execute(db);
}
