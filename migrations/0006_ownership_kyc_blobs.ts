import { sql, type Kysely } from 'kysely';

/**
 * Ownership (a worker's claimed customers, a worker's manager), the KYC details a customer
 * submitted, and the blob store that keeps uploaded files (KYC documents, ticket attachments,
 * buying-link logos). Blobs are content, not facts: events name a blob by id and digest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column manager_id uuid`.execute(db);
  await sql`create index users_manager on users (manager_id) where manager_id is not null`.execute(db);
  await sql`
    alter table user_profiles
      add column assigned_worker_id uuid,
      add column claimed_at timestamptz,
      add column first_name text,
      add column last_name text,
      add column dob text,
      add column country text,
      add column city text,
      add column postal_code text,
      add column full_address text,
      add column identity_doc jsonb,
      add column residence_doc jsonb,
      add column kyc_submitted_at timestamptz`.execute(db);
  await sql`create index user_profiles_worker on user_profiles (assigned_worker_id) where assigned_worker_id is not null`.execute(db);
  await sql`
    create table blobs (
      id uuid primary key,
      content_type text not null,
      size integer not null,
      sha256 text not null,
      data bytea not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table blobs`.execute(db);
  await sql`drop index user_profiles_worker`.execute(db);
  await sql`
    alter table user_profiles
      drop column assigned_worker_id, drop column claimed_at, drop column first_name, drop column last_name,
      drop column dob, drop column country, drop column city, drop column postal_code, drop column full_address,
      drop column identity_doc, drop column residence_doc, drop column kyc_submitted_at`.execute(db);
  await sql`drop index users_manager`.execute(db);
  await sql`alter table users drop column manager_id`.execute(db);
}
