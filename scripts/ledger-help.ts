import { PROJECTIONS } from '../projections/registry.js';
import { BACKUP_HELP, RESTORE_HELP } from './ledger-backup.js';
import { FINANCE_HELP } from './ledger-finance.js';
import { STAFF_HELP } from './ledger-staff.js';
import { BOOKS_HELP } from './ledger-books.js';

/** `npm run ledger -- help [command]`: the usage of the CLI (scripts/ledger.ts) and of each command. */
export const HELP: Record<string, string> = {
  backup: BACKUP_HELP,
  restore: RESTORE_HELP,
  '': `Usage: npm run ledger -- <command> [options]

Operator commands for the wallet ledger. They use DATABASE_URL (PostgreSQL) when it is
set, otherwise the embedded database in DATA_DIR (default ./var), which the running app
holds locked: stop the app first when using the embedded database.

Commands:
  migrate               apply database migrations (--status: list applied and pending ones)
  seed                  append generated wallet histories (for trials and benchmarks)
  replay [name|all]     rebuild read tables from the event log
  verify                recompute the event log's hash chains and seals (--seal DIGEST: against a digest kept
                        outside), rebuild into scratch tables, compare with the live ones, check invariants
  seal                  append a seal over the event log and print its digest to keep outside the database
                        (--backfill: chain the events written before the chain, once)
  stats                 event store state and head, events, streams, lag per projection
  create-staff          create a WORKER, MANAGER or ADMIN account with a one-time password
  backup                copy the embedded database and its keys to one file (--out FILE; BACKUP_PASSPHRASE or --without-keys)
  restore               restore the embedded database and its keys from a backup (--from FILE [--force] [--without-keys])
  trial-balance         per asset: owed to customers, pending, fees, external flows; must sum to zero
  balance               a customer's balances at any moment (--user, --at)
  statement             a customer's statement for a period (--user, --from, --to, --csv)
  close                 close a month of the books (--period YYYY-MM): entries dated in it are refused
  journal               the journal's postings of a period for a general ledger (--from, --to, --csv|--json)
  liabilities           every customer's liabilities at a moment with their Merkle root (--at, --publish)
  reserves              custody reserves against liabilities per asset (import FILE.csv)
  verify-proof          check a customer's proof of inclusion (FILE, --root)
  staff-actions         every staff action, filtered (--staff, --customer, --action, --from, --to, --csv)

Every command takes --help and --json (machine-readable output on stdout).`,
  migrate: `Usage: npm run ledger -- migrate [--status] [--json]

Applies pending migrations (also done by every command and on app start).

--status  lists the applied migrations (with when) and the pending ones, and applies nothing.`,
  seed: `Usage: npm run ledger -- seed [--events N] [--seed S] [--json]

Appends about N wallet events (default 100000) over N/100 new wallets. Every event is
decided by the wallet's own rules, so no available balance goes negative. The read
tables are brought up to date afterwards.`,
  replay: `Usage: npm run ledger -- replay [name|all] [--shadow] [--json]

Empties the named read model (${PROJECTIONS.map((p) => p.name).join(', ')}) or all of them and
rebuilds from the event log in one pass, printing events/s.

--shadow  rebuild while the app keeps serving: into copies of the tables, caught up to the
          live position, then swapped in by one transaction (PostgreSQL). The process runs
          at a lower priority (nice 10) so that the app's requests come first.`,
  verify: `Usage: npm run ledger -- verify [--seal DIGEST] [--json]

First recomputes every event's hash from its content and checks it against the stored one and
against its stream's previous event, and recomputes every seal's digest: an edited, deleted or
reordered event is named (stream, revision, position, type, id), also after every read table
was rebuilt from the log (replay all).

--seal DIGEST  a seal's digest kept outside the database (mail, ticket, paper): proves the log
               up to that seal, or names the seal it no longer matches, also when the seals in
               the database were rewritten with the log.

Then rebuilds every read model into scratch tables up to the position the live tables show,
compares them row by row, checks that no available balance is negative and that the
balances equal the fold of the events, that every event's journal postings sum to zero
(naming the first event that breaks it) and that the journal's customer accounts equal the
wallet balances. Exits 1 with the differences when they differ.`,
  seal: `Usage: npm run ledger -- seal [--backfill] [--json]

Appends a seal to the log (stream ledger-seals, the operator as actor): the Merkle root over
every stream's last event hash, up to the last event. Prints the digest: keep it outside the
database (mail, a ticket, paper), with the seal's number and date. \`ledger verify --seal DIGEST\`
later proves the log up to that seal. The app also seals every day at 00:15 UTC.

--backfill  chains the events written before the hash chain existed (once, PostgreSQL and
            PGlite), then seals. A log with unchained events cannot be sealed without it.`,
  stats: `Usage: npm run ledger -- stats [--json]

The event store in use (postgres or eventstoredb): whether it answers, its head position and,
for EventStoreDB, its live subscription; then events, streams and the lag of each projection.
A projection's lag counts the events after its checkpoint that it handles (0 when it is
caught up, even if events it does not read follow). Exits 1 when the event store does not
answer (its state line says why).`,
  'create-staff': `Usage: npm run ledger -- create-staff --role WORKER|MANAGER|ADMIN --email E --name "Full Name" [--json]

Creates a confirmed staff account and prints a one-time password, shown only this once.
The password must be changed at the first sign-in.`,
  ...FINANCE_HELP,
  ...STAFF_HELP,
  ...BOOKS_HELP,
};
