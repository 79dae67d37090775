import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/* The transactions folder's own reads (the list and one entry are server/transactions/list.ts, which the staff's list shares). */

/** A user's settled (`Complete`) transactions, oldest settlement first: what the balance history folds. */
export function settledTransactions(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('transactions')
    .select(['asset_id', 'amount', 'updated_at'])
    .where('user_id', '=', userId)
    .where('status', '=', 'Complete')
    .orderBy('updated_at')
    .execute();
}
