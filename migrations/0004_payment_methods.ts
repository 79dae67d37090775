import { sql, type Kysely } from 'kysely';

/**
 * Saved payment methods. `user_payment_methods_raw` is the read model of the
 * payment-methods streams: only what may be shown (brand, last four, expiry, holder name,
 * bank name, notes). `payment_method_secrets` holds what must never enter the event log:
 * a bank account's full number, AES-256-GCM encrypted. Card numbers and CVVs are not
 * stored anywhere.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table user_payment_methods_raw (
      id uuid primary key,
      user_id uuid not null,
      type text not null check (type in ('credit_card', 'bank_account')),
      card_brand text,
      last4 text,
      expiry_date text,
      card_holder_name text,
      bank_name text,
      bank_last4 text,
      notes text,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index user_payment_methods_raw_user on user_payment_methods_raw (user_id, created_at desc)`.execute(db);
  await sql`
    create table payment_method_secrets (
      payment_method_id uuid primary key,
      account_number_encrypted text not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table payment_method_secrets`.execute(db);
  await sql`drop table user_payment_methods_raw`.execute(db);
}
