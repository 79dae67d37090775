import { sql, type Kysely } from 'kysely';

/**
 * Accounts. `users`, `user_profiles` and `login_history` are read models of the user
 * stream. The `auth_*` tables hold what must never enter the event log: password hashes,
 * sessions and refresh tokens, second-factor secrets, one-time codes and links.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key,
      email text not null,
      full_name text not null,
      role text not null default 'USER',
      email_confirmed_at timestamptz,
      banned_until timestamptz,
      requires_password_change boolean not null default false,
      active_mfa_method text,
      created_at timestamptz not null,
      last_sign_in_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create unique index users_email_lower on users (lower(email))`.execute(db);
  await sql`
    create table user_profiles (
      user_id uuid primary key,
      can_buy boolean not null default true,
      can_sell boolean not null default true,
      can_swap boolean not null default true,
      can_stake boolean not null default true,
      can_send boolean not null default true,
      buy_disabled_note text,
      sell_disabled_note text,
      swap_disabled_note text,
      stake_disabled_note text,
      send_disabled_note text,
      kyc_status text not null default 'not_started',
      dashboard_note text,
      addresses jsonb not null default '{}'::jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`
    create table login_history (
      id uuid primary key,
      user_id uuid not null,
      timestamp timestamptz not null,
      ip_address text,
      user_agent text
    )`.execute(db);
  await sql`create index login_history_user on login_history (user_id, timestamp desc)`.execute(db);

  await sql`
    create table auth_email_index (
      email_lower text primary key,
      user_id uuid not null unique
    )`.execute(db);
  await sql`
    create table auth_credentials (
      user_id uuid primary key,
      password_hash text not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table auth_sessions (
      id uuid primary key,
      user_id uuid not null,
      aal text not null,
      recovery boolean not null default false,
      ip_address text,
      user_agent text,
      created_at timestamptz not null default now(),
      refreshed_at timestamptz not null default now(),
      reauthenticated_at timestamptz,
      email_otp_verified_at timestamptz,
      login_logged boolean not null default false,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index auth_sessions_user on auth_sessions (user_id) where revoked_at is null`.execute(db);
  await sql`
    create table auth_refresh_tokens (
      token_hash text primary key,
      session_id uuid not null,
      created_at timestamptz not null default now(),
      spent_at timestamptz
    )`.execute(db);
  await sql`create index auth_refresh_tokens_session on auth_refresh_tokens (session_id)`.execute(db);
  await sql`
    create table auth_mfa_factors (
      id uuid primary key,
      user_id uuid not null,
      factor_type text not null,
      friendly_name text,
      status text not null,
      secret_encrypted text not null,
      last_used_step bigint,
      created_at timestamptz not null default now(),
      verified_at timestamptz
    )`.execute(db);
  await sql`create index auth_mfa_factors_user on auth_mfa_factors (user_id)`.execute(db);
  await sql`
    create table auth_mfa_challenges (
      id uuid primary key,
      factor_id uuid not null,
      session_id uuid not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      verified_at timestamptz
    )`.execute(db);
  await sql`
    create table auth_one_time_tokens (
      token_hash text primary key,
      user_id uuid not null,
      kind text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      attempts integer not null default 0,
      -- e-mailed codes: HMAC of the code (the key is a random id, a code may repeat)
      code_digest text
    )`.execute(db);
  await sql`create index auth_one_time_tokens_user on auth_one_time_tokens (user_id, kind, created_at desc)`.execute(db);
  await sql`
    create table auth_failures (
      key text not null,
      at timestamptz not null default now()
    )`.execute(db);
  await sql`create index auth_failures_key on auth_failures (key, at)`.execute(db);
  // Mails sent at most once (the welcome mail), by key.
  await sql`
    create table mail_sent (
      key text primary key,
      sent_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table captcha_solutions_used (
      signature text primary key,
      expires_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'captcha_solutions_used',
    'mail_sent',
    'auth_failures',
    'auth_one_time_tokens',
    'auth_mfa_challenges',
    'auth_mfa_factors',
    'auth_refresh_tokens',
    'auth_sessions',
    'auth_credentials',
    'auth_email_index',
    'login_history',
    'user_profiles',
    'users',
  ]) {
    await sql`drop table ${sql.table(t)}`.execute(db);
  }
}
