import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The probes' one question to the database: does it answer? (Rejects when it does not.) */
export async function pingDatabase(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
