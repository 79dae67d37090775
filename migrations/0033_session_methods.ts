import { sql, type Kysely } from 'kysely';

/**
 * Issue 45. `auth_sessions.amr`: how the session's owner proved who they are (GoTrue's
 * authentication methods, a JSON array of `{method, timestamp}`, newest first), carried in its
 * access tokens. `auth_refresh_tokens.successor_encrypted`: the pair a spent refresh token was
 * exchanged for, encrypted with the data key, so that a repeat within the grace returns it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table auth_sessions add column amr text not null default '[]'`.execute(db);
  await sql`alter table auth_refresh_tokens add column successor_encrypted text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table auth_refresh_tokens drop column successor_encrypted`.execute(db);
  await sql`alter table auth_sessions drop column amr`.execute(db);
}
