import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/* The KYC folder's reads of the profile table (projections/users.ts writes it); every query takes the database. */

/** A customer's verification status; undefined when they have no profile row yet. */
export function kycStatusOf(db: Kysely<DB>, userId: string) {
  return db.selectFrom('user_profiles').select('kyc_status').where('user_id', '=', userId).executeTakeFirst();
}

/** A customer's whole profile row (the submitted details and the documents' references); undefined when there is none. */
export function kycProfileOf(db: Kysely<DB>, userId: string) {
  return db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}
