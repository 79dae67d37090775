import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The customer's profile row (the permissions of sending, swapping and staking, and their
 * notes), or undefined before it exists: no row means the defaults, everything allowed.
 */
export function customerProfile(db: Kysely<DB>, userId: string) {
  return db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}
