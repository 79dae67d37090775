import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import { START, formatPosition, type EventStore, type Position } from '../ledger/event-store/port.js';
import type { Projection } from './projection.js';
import { ProjectionRunner } from './runner.js';
import { PROJECTIONS } from './registry.js';
import { money } from '../ledger/money.js';
import { foldWalletBalances, readBalanceRows, type BalanceRow } from './read-models.js';
import { checkJournal, type JournalCheck } from './journal.js';

const SCRATCH = 'ledger_verify';
const SHOWN = 20;

export interface TableDiff {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  /** Rows the live table has that a rebuild from the log does not (at most 20 shown). */
  onlyLive: Record<string, unknown>[];
  /** Rows a rebuild has that the live table lacks. */
  onlyRebuilt: Record<string, unknown>[];
}

export interface VerifyReport {
  ok: boolean;
  projections: { name: string; position: string; eventsApplied: number; tables: TableDiff[] }[];
  /** (user, asset) rows whose available balance (balance + pending withdrawals) is negative. */
  negativeAvailable: BalanceRow[];
  /** (user, asset) rows where the balances table differs from folding the events with the decider. */
  foldMismatches: { key: string; table: BalanceRow | null; fold: BalanceRow | null }[];
  /** The double-entry journal's zero-sum and reconciliation check (when the journal is verified). */
  journal?: JournalCheck;
}

/**
 * Rebuilds every read model into scratch tables up to the exact position the live
 * tables show (taken from one snapshot), compares row by row, and checks the ledger's
 * invariants. Read-only for the live tables.
 */
export async function verifyReadModels(
  db: Kysely<DB>,
  store: EventStore,
  opts: { projections?: Projection[]; onProgress?: (name: string, events: number) => void; separationDays?: number } = {},
): Promise<VerifyReport> {
  const projections = opts.projections ?? PROJECTIONS;
  await sql`drop schema if exists ${sql.id(SCRATCH)} cascade`.execute(db);
  await sql`create schema ${sql.id(SCRATCH)}`.execute(db);
  try {
    await sql`create table ${sql.table(`${SCRATCH}.projection_checkpoints`)} (like public.projection_checkpoints including all)`.execute(
      db,
    );
    const report: VerifyReport = { ok: true, projections: [], negativeAvailable: [], foldMismatches: [] };
    let balancesAt: Position | null = null;
    let journalAt: Position | null = null;

    for (const projection of projections) {
      // One snapshot: the live checkpoint and a copy of the live rows at that checkpoint.
      const livePosition = await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const cp = await trx.selectFrom('projection_checkpoints').selectAll().where('name', '=', projection.name).executeTakeFirst();
          for (const t of projection.tables) {
            await sql`create table ${sql.table(`${SCRATCH}.live_${t}`)} as select * from ${sql.table(`public.${t}`)}`.execute(trx);
          }
          return cp ? { commit: BigInt(cp.commit_position), prepare: BigInt(cp.prepare_position) } : START;
        });
      for (const t of projection.tables) {
        await sql`create table ${sql.table(`${SCRATCH}.${t}`)} (like ${sql.table(`public.${t}`)} including all)`.execute(db);
      }
      const runner = new ProjectionRunner(db, store, projection, { schema: SCRATCH, batchSize: 5000 });
      const eventsApplied = await runner.catchUp({ until: livePosition, onBatch: (n) => opts.onProgress?.(projection.name, n) });
      const tables: TableDiff[] = [];
      for (const t of projection.tables) {
        const live = sql.table(`${SCRATCH}.live_${t}`);
        const rebuilt = sql.table(`${SCRATCH}.${t}`);
        const count = async (tbl: typeof live) =>
          Number((await sql<{ n: string }>`select count(*) as n from ${tbl}`.execute(db)).rows[0]!.n);
        const onlyLive = (
          await sql<Record<string, unknown>>`(select * from ${live} except all select * from ${rebuilt}) limit ${SHOWN}`.execute(db)
        ).rows;
        const onlyRebuilt = (
          await sql<Record<string, unknown>>`(select * from ${rebuilt} except all select * from ${live}) limit ${SHOWN}`.execute(db)
        ).rows;
        tables.push({ table: t, liveRows: await count(live), rebuiltRows: await count(rebuilt), onlyLive, onlyRebuilt });
        if (onlyLive.length || onlyRebuilt.length) report.ok = false;
      }
      report.projections.push({ name: projection.name, position: formatPosition(livePosition), eventsApplied, tables });
      if (projection.name === 'balances') balancesAt = livePosition;
      if (projection.name === 'journal') journalAt = livePosition;
    }

    if (projections.some((p) => p.name === 'balances')) {
      const live = await readBalanceRows(db, SCRATCH, 'live_balances');
      report.negativeAvailable = [...live.values()].filter((r) => money(r.balance).plus(r.pending_withdrawals).isNegative());
      const fold = await foldWalletBalances(store, balancesAt ?? START);
      for (const key of new Set([...live.keys(), ...fold.keys()])) {
        const a = live.get(key) ?? null;
        const b = fold.get(key) ?? null;
        if (JSON.stringify(a && strip(a)) !== JSON.stringify(b && strip(b))) report.foldMismatches.push({ key, table: a, fold: b });
      }
      if (report.negativeAvailable.length || report.foldMismatches.length) report.ok = false;
      report.foldMismatches = report.foldMismatches.slice(0, SHOWN);
    }
    if (projections.some((p) => p.name === 'journal')) {
      const at = journalAt ?? START;
      const wallet = await foldWalletBalances(store, at);
      report.journal = await checkJournal(db, store, {
        until: at,
        postingsTable: `${SCRATCH}.live_journal_postings`,
        wallet,
        separationDays: opts.separationDays,
      });
      if (!report.journal.ok) report.ok = false;
    }
    return report;
  } finally {
    await sql`drop schema if exists ${sql.id(SCRATCH)} cascade`.execute(db);
  }
}

function strip(r: BalanceRow) {
  return [r.user_id, r.asset_id, r.balance, r.pending_deposits, r.pending_withdrawals];
}
