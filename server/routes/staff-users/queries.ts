import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { T_COLUMNS, type TransactionRow } from '../../transactions/list.js';

/* The staff user-profile folder's reads of the transaction and user tables; every query takes the database. */

/** The id of one of the user's transactions (hidden ones included), or undefined when it is not theirs or does not exist. */
export function userTransactionId(db: Kysely<DB>, userId: string, transactionId: string) {
  return db.selectFrom('transactions').select('id').where('id', '=', transactionId).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Up to `limit` of the user's transactions, hidden ones included, in the staff history's order
 * (sent_at desc, created_at desc, id); with `before`, only the rows after that transaction's row.
 */
export async function staffHistoryRows(db: Kysely<DB>, userId: string, before: string | undefined, limit: number) {
  // The list's order is (sent_at desc, created_at desc, id): the rows after the cursor's row.
  const after = before
    ? sql`and (t.sent_at, t.created_at) <= (c.sent_at, c.created_at)
            and ((t.sent_at, t.created_at) < (c.sent_at, c.created_at) or t.id > c.id)`
    : sql``;
  const cursor = before
    ? sql`, (select sent_at, created_at, id from transactions where id = ${before}::uuid and user_id = ${userId}::uuid) c`
    : sql``;
  const { rows } = await sql<TransactionRow>`
        select ${T_COLUMNS} from transactions t ${cursor} where t.user_id = ${userId}::uuid ${after}
        order by t.sent_at desc, t.created_at desc, t.id limit ${sql.lit(limit)}`.execute(db);
  return rows;
}

/** What Edit Transaction checks of one of the user's transactions; undefined when it is not theirs or does not exist. */
export function editableTransaction(db: Kysely<DB>, userId: string, transactionId: string) {
  return db
    .selectFrom('transactions')
    .select(['id', 'status', 'is_hidden', 'type', 'asset_id', 'amount'])
    .where('id', '=', transactionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A transaction's editable fields as Edit Transaction answers them; throws when there is no such transaction. */
export function editedTransaction(db: Kysely<DB>, transactionId: string) {
  return db.selectFrom('transactions').select(['id', 'status', 'type', 'note']).where('id', '=', transactionId).executeTakeFirstOrThrow();
}

/** The name and e-mail of the users among `ids` (no query for an empty list): the event trail's actors. */
export async function actorsByIds(db: Kysely<DB>, ids: string[]) {
  return ids.length ? await db.selectFrom('users').select(['id', 'full_name', 'email']).where('id', 'in', ids).execute() : [];
}
