import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/* The staking reads (./api.ts). The permission a stake checks is server/shared/customer-profile.ts. */

/** The user's scheduled transactions of one status and type, by `scheduled_at` ascending (the spec's select). */
export function scheduledTransactions(db: Kysely<DB>, userId: string, status: 'pending' | 'completed', type: 'stake_payout') {
  return db
    .selectFrom('scheduled_transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', status)
    .where('type', '=', type)
    .orderBy('scheduled_at', 'asc')
    .orderBy('id')
    .execute();
}
