import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/* The approvals folder's reads of the table; the listings and the lapsing are the four-eyes service's (server/staff/four-eyes.ts). */

/** Whose an approval request is and who made it, or undefined when there is no such request. */
export function approvalRequestParties(db: Kysely<DB>, requestId: string) {
  return db
    .selectFrom('approval_requests')
    .select(['request_id', 'user_id', 'maker_id'])
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}
