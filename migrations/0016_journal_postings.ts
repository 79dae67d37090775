import { sql, type Kysely } from 'kysely';

/**
 * The journal stores one row per posted event, its postings as arrays (leg i is element
 * i + 1 of `accounts`, `asset_ids` and `amounts`), instead of one row per posting that
 * repeated the event's six columns on each of its two to four legs. A replay writes
 * 2.5 times fewer rows and index entries. `journal_entries` stays, as a view with the
 * same columns and rows as the table it replaces, for everything that reads the journal.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table journal_postings (
      event_id uuid primary key,
      commit_position bigint not null,
      prepare_position bigint not null,
      user_id uuid,
      transaction_id uuid,
      recorded_at timestamptz not null,
      accounts text[] not null,
      asset_ids text[] not null,
      amounts numeric(38, 18)[] not null,
      constraint journal_postings_legs check (
        cardinality(accounts) > 0 and cardinality(asset_ids) = cardinality(accounts) and cardinality(amounts) = cardinality(accounts))
    )`.execute(db);
  await sql`
    insert into journal_postings (event_id, commit_position, prepare_position, user_id, transaction_id, recorded_at, accounts, asset_ids, amounts)
    select event_id, commit_position, prepare_position, user_id, transaction_id, recorded_at,
      array_agg(account order by leg), array_agg(asset_id order by leg), array_agg(amount order by leg)
    from journal_entries group by event_id, commit_position, prepare_position, user_id, transaction_id, recorded_at`.execute(db);
  await sql`drop table journal_entries`.execute(db);
  await createEntriesView(db);
}

/** One row per posting, as the journal_entries table had them (migrations/0011_journal.ts). */
async function createEntriesView(db: Kysely<any>): Promise<void> {
  await sql`
    create view journal_entries as
    select p.event_id, (l.leg - 1)::smallint as leg, p.commit_position, p.prepare_position, p.user_id, p.transaction_id,
      l.account, split_part(l.account, ':', -1) as account_kind, l.asset_id, l.amount::numeric(38, 18) as amount, p.recorded_at
    from journal_postings p
    cross join lateral unnest(p.accounts, p.asset_ids, p.amounts) with ordinality as l (account, asset_id, amount, leg)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter view journal_entries rename to journal_entries_view`.execute(db);
  await sql`create table journal_entries as select * from journal_entries_view`.execute(db);
  await sql`drop view journal_entries_view`.execute(db);
  await sql`drop table journal_postings`.execute(db);
  for (const column of [
    'event_id',
    'leg',
    'commit_position',
    'prepare_position',
    'account',
    'account_kind',
    'asset_id',
    'amount',
    'recorded_at',
  ]) {
    await sql`alter table journal_entries alter column ${sql.id(column)} set not null`.execute(db);
  }
  await sql`alter table journal_entries add primary key (event_id, leg)`.execute(db);
}
