import { sql, type Kysely } from 'kysely';

/**
 * An address is unique where it is reserved: `auth_email_index`, keyed by the address as the
 * server normalises it, written before the registration event. The users read model held a
 * second uniqueness on PostgreSQL's `lower(email)`, which folds some letters unlike the
 * server (with a UTF-8 locale, 'İ' becomes 'i' there and 'i̇' in JavaScript): two addresses
 * the reservation told apart then broke that index in the projector, and every read table
 * stopped at the second registration. A read model must accept every event the log holds,
 * so the users table keeps no uniqueness of its own; look-ups by address go through the
 * reservation (see `Accounts.findByEmail`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index users_email_lower`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create unique index users_email_lower on users (lower(email))`.execute(db);
}
