import { sql, type Kysely } from 'kysely';

/**
 * Support tickets, their responses and attachments (spec 001/002 "Support ticket"), folded
 * from the `ticket-{id}` streams. An attachment's `storage_path` is its blob id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table support_tickets (
      id uuid primary key,
      user_id uuid not null,
      subject text not null,
      message text not null,
      urgency text not null,
      status text not null,
      created_at timestamptz not null,
      assigned_worker_id uuid,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index support_tickets_user on support_tickets (user_id, created_at desc)`.execute(db);
  await sql`create index support_tickets_worker on support_tickets (assigned_worker_id, created_at desc)`.execute(db);
  await sql`
    create table ticket_responses (
      id uuid primary key,
      ticket_id uuid not null,
      user_id uuid not null,
      message text not null,
      created_at timestamptz not null,
      is_from_worker boolean not null
    )`.execute(db);
  await sql`create index ticket_responses_ticket on ticket_responses (ticket_id, created_at)`.execute(db);
  await sql`
    create table ticket_attachments (
      id uuid primary key,
      ticket_id uuid not null,
      response_id uuid,
      file_name text not null,
      file_type text not null,
      file_size integer not null,
      uploaded_at timestamptz not null,
      is_from_worker boolean not null,
      storage_path text not null,
      uploaded_by uuid not null,
      opening boolean not null default false
    )`.execute(db);
  await sql`create index ticket_attachments_ticket on ticket_attachments (ticket_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table ticket_attachments`.execute(db);
  await sql`drop table ticket_responses`.execute(db);
  await sql`drop table support_tickets`.execute(db);
}
