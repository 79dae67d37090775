import { sql, type Kysely } from 'kysely';

/**
 * journal_transactions keeps only the transactions still Pending: a rule reads a transaction
 * again only to settle or fail it, and a Complete or Failed one posts nothing more. The rows
 * of closed transactions are dropped; the projection deletes a row when its transaction closes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from journal_transactions where status <> 'Pending'`.execute(db);
}

export async function down(): Promise<void> {
  // The closed rows come back with `ledger replay journal` under the previous code.
}
