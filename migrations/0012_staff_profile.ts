import { sql, type Kysely } from 'kysely';

/** user_crypto_buying_links: a customer's custom buying links, folded from the buying-links streams. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table user_crypto_buying_links (
      id uuid primary key,
      user_id uuid not null,
      url text not null,
      name text not null,
      logo_blob_id uuid not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index user_crypto_buying_links_user on user_crypto_buying_links (user_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table user_crypto_buying_links`.execute(db);
}
