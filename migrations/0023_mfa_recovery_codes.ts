import { sql, type Kysely } from 'kysely';

/**
 * One-time recovery codes of a second factor (issue 29): ten per account, made when an
 * authenticator is verified, kept only as argon2id hashes (a code holds about 49 bits), each spent
 * by its first use. A new set replaces the old; removing the last authenticator removes them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table auth_mfa_recovery_codes (
      code_digest text primary key,
      user_id uuid not null,
      created_at timestamptz not null default now(),
      used_at timestamptz
    )`.execute(db);
  await sql`create index auth_mfa_recovery_codes_user on auth_mfa_recovery_codes (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table auth_mfa_recovery_codes`.execute(db);
}
