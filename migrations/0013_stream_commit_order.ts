import { sql, type Kysely } from 'kysely';

/**
 * Each stream remembers the commit-order label of its latest append. An appender that waited
 * for the stream's previous writer can hold an older transaction id than that writer; its
 * events are labelled no lower than the stream's last label, so readers that follow labels
 * never see a stream's later revisions before its earlier ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table streams add column last_tx xid8`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table streams drop column last_tx`.execute(db);
}
