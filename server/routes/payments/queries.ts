import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { VIEW_COLUMNS } from '../../payments/payment-method-store.js';

/*
 * The payment methods folder's SQL: the customer's list (one method of theirs is the store's
 * findOwn, server/payments/payment-method-store.ts) and the sealed bank account numbers, which
 * are kept outside the event log.
 */

/** A customer's own payment methods, newest first. */
export function ownPaymentMethods(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('user_payment_methods_raw')
    .select(VIEW_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Keeps a bank account's encrypted number; a method that already has one keeps it (no row returned then). */
export function sealAccountNumber(db: Kysely<DB>, paymentMethodId: string, accountNumberEncrypted: string) {
  return db
    .insertInto('payment_method_secrets')
    .values({ payment_method_id: paymentMethodId, account_number_encrypted: accountNumberEncrypted })
    .onConflict((oc) => oc.column('payment_method_id').doNothing())
    .returning('payment_method_id')
    .execute();
}

/** Drops a payment method's sealed number, if it has one. */
export function dropAccountNumber(db: Kysely<DB>, paymentMethodId: string) {
  return db.deleteFrom('payment_method_secrets').where('payment_method_id', '=', paymentMethodId).execute();
}
