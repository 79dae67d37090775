import { sql, type Kysely } from 'kysely';

/**
 * Published liabilities (docs/finance.md, "Liabilities and proofs of inclusion"): each
 * `ledger liabilities --at T --publish` keeps its Merkle root and every customer's leaf, so a
 * customer can download their proof of inclusion in Settings without the log being folded
 * again. The publication itself is the event `books.liabilities-published`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table liabilities_snapshots (
      root text primary key,
      taken_at timestamptz not null,
      published_at timestamptz not null,
      customers integer not null,
      totals jsonb not null
    )`.execute(db);
  await sql`
    create table liabilities_leaves (
      root text not null references liabilities_snapshots (root) on delete cascade,
      leaf_index integer not null,
      user_id text not null,
      customer_hash text not null,
      balances jsonb not null,
      leaf text not null,
      primary key (root, leaf_index)
    )`.execute(db);
  await sql`create index liabilities_leaves_user on liabilities_leaves (user_id, root)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table liabilities_leaves`.execute(db);
  await sql`drop table liabilities_snapshots`.execute(db);
}
