import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The user profile's reads (spec 002 section 7); every query takes the database. */

/** The reasons kept with a customer's switched-off permissions; undefined for an account that is not a customer's. */
export function permissionNotesOf(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('user_profiles')
    .select(['buy_disabled_note', 'sell_disabled_note', 'stake_disabled_note'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Only what may be shown of a payment method: brand, last four and expiry of a card; bank name and last four. */
const SHOWN = ['id', 'user_id', 'type', 'card_brand', 'last4', 'expiry_date', 'bank_name', 'bank_last4', 'created_at'] as const;

/** A customer's payment methods, newest first, masked. */
export function paymentMethodsOf(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('user_payment_methods_raw')
    .select(SHOWN)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** One of a customer's payment methods, masked. */
export function paymentMethodOf(db: Kysely<DB>, userId: string, id: string) {
  return db.selectFrom('user_payment_methods_raw').select(SHOWN).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}
