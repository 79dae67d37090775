import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Decimal } from 'decimal.js';
import type { DB } from '../server/db/schema.js';
import type { EventStore, Position, RecordedEvent } from '../ledger/event-store/port.js';
import type { AssetId } from '../ledger/assets.js';
import { canonicalAmount, formatAmount, money } from '../ledger/money.js';
import { WALLET_STREAM_PREFIX } from '../ledger/wallet/events.js';
import type { TransactionStatus } from '../ledger/wallet/events.js';
import { customerAccount } from '../ledger/journal/accounts.js';
import { foldJournal } from '../ledger/journal/fold.js';
import { FourEyesAudit, type FourEyesAuditResult } from '../ledger/journal/four-eyes-audit.js';
import type { BalanceRow } from './read-models.js';
import { hasPostingRule, postingsFor, type JournalTransaction, type Posting } from '../ledger/journal/postings.js';
import { insertRows, type InsertColumn } from '../server/db/insert-rows.js';
import { table, timestampText, type PlannedWrite, type Projection, type ProjectionTarget } from './projection.js';

/** Events that change a transaction opened earlier, whose state the rule needs. */
const CHANGES = new Set(['wallet.transaction-settled', 'wallet.transaction-failed', 'wallet.transaction-edited']);

/** An event's row of journal_postings: its columns, then its legs as arrays. */
interface PostingsRow {
  e: RecordedEvent;
  userId: string;
  transactionId: string | null;
  postings: Posting[];
}

const POSTINGS_COLUMNS: InsertColumn<PostingsRow>[] = [
  { name: 'event_id', type: 'uuid', value: (r) => r.e.eventId },
  { name: 'commit_position', type: 'bigint', value: (r) => String(r.e.position.commit) },
  { name: 'prepare_position', type: 'bigint', value: (r) => String(r.e.position.prepare) },
  { name: 'user_id', type: 'uuid', value: (r) => r.userId },
  { name: 'transaction_id', type: 'uuid', value: (r) => r.transactionId },
  { name: 'recorded_at', type: 'timestamptz', value: (r) => timestampText(r.e.recordedAt) },
  { name: 'accounts', type: 'text[]', value: (r) => r.postings.map((p) => p.account) },
  { name: 'asset_ids', type: 'text[]', value: (r) => r.postings.map((p) => p.assetId) },
  { name: 'amounts', type: 'numeric[]', value: (r) => r.postings.map((p) => p.amount) },
];

/** A transaction the journal keeps while it is open, with its customer. */
type OpenTransaction = JournalTransaction & { userId: string };

/** The events the journal posts. */
const postable = (events: RecordedEvent[]) => events.filter((e) => e.streamId.startsWith(WALLET_STREAM_PREFIX) && hasPostingRule(e.type));

/**
 * Posts a page in memory. `stored` gives an open transaction as the table holds it before
 * the page (undefined for one it does not hold). Returns the page's writes, and the
 * transactions the page changed (their state after it).
 */
function post(
  wallet: RecordedEvent[],
  stored: (id: string) => OpenTransaction | undefined,
): { write: PlannedWrite; changed: Map<string, OpenTransaction> } {
  const changed = new Map<string, OpenTransaction>();
  // One context for the page, its customer set per event (the rules use it synchronously).
  const ctx = { userId: '', transaction: (id: string) => changed.get(id) ?? stored(id) };
  const rows: PostingsRow[] = [];
  for (const e of wallet) {
    const userId = e.streamId.slice(WALLET_STREAM_PREFIX.length);
    ctx.userId = userId;
    const result = postingsFor(e.type, e.data, ctx);
    if (!result) continue;
    if (result.transaction) changed.set(result.transaction.transactionId, { ...result.transaction, userId });
    if (result.postings.length === 0) continue;
    rows.push({ e, userId, transactionId: (e.data as { transactionId?: string }).transactionId ?? null, postings: result.postings });
  }
  // Only Pending transactions are kept: a closed one posts nothing more (see the rules).
  const open: OpenTransaction[] = [];
  const closed: string[] = [];
  for (const [id, t] of changed) {
    if (t.status === 'Pending') open.push(t);
    else if (stored(id)) closed.push(id);
  }
  const write = async (target: ProjectionTarget) => {
    const tTx = table(target, 'journal_transactions');
    await insertRows(target.trx, `${target.schema}.journal_postings`, POSTINGS_COLUMNS, rows);
    if (closed.length > 0) await sql`delete from ${tTx} where transaction_id = any(${closed}::uuid[])`.execute(target.trx);
    if (open.length > 0) {
      await sql`
        insert into ${tTx} (transaction_id, user_id, asset_id, amount, fee, kind, status, staff_id)
        select * from unnest(${open.map((r) => r.transactionId)}::uuid[], ${open.map((r) => r.userId)}::uuid[], ${open.map((r) => r.assetId)}::text[],
          ${open.map((r) => r.amount)}::numeric[], ${open.map((r) => r.fee)}::numeric[],
          ${open.map((r) => r.kind)}::text[], ${open.map((r) => r.status)}::text[], ${open.map((r) => r.staffId ?? null)}::text[])
        on conflict (transaction_id) do update set kind = excluded.kind, status = excluded.status`.execute(target.trx);
    }
  };
  return { write, changed };
}

type StoredRow = {
  transaction_id: string;
  user_id: string;
  asset_id: string;
  amount: string;
  fee: string;
  kind: string;
  status: string;
  staff_id: string | null;
};

/** journal_transactions' rows as `StoredRow`s, from `from` (the table and any condition). */
const selectStored = (from: RawBuilder<unknown>) =>
  sql<StoredRow>`select transaction_id, user_id, asset_id, amount::text, fee::text, kind, status, staff_id from ${from}`;

function openTransaction(r: StoredRow): OpenTransaction {
  return {
    transactionId: r.transaction_id,
    userId: r.user_id,
    assetId: r.asset_id as AssetId,
    amount: canonicalAmount(r.amount),
    fee: canonicalAmount(r.fee),
    kind: r.kind,
    status: r.status as TransactionStatus,
    ...(r.staff_id !== null ? { staffId: r.staff_id } : {}),
  };
}

/**
 * The journal: every wallet event posted as balanced entries (ledger/journal/postings.ts),
 * one row per event in journal_postings (its legs as arrays; the view journal_entries shows
 * one row per leg), and journal_transactions: what the rules need to know of a transaction
 * when it settles, kept while it is Pending. A batch reads the transactions it changes once,
 * posts in memory, writes the postings and the transactions still open with unnest
 * (server/db/insert-rows.ts), and deletes the ones that closed. A replay's planner reads the
 * open transactions once, when it starts, and keeps them in memory from page to page.
 */
export const journalProjection: Projection = {
  name: 'journal',
  tables: ['journal_postings', 'journal_transactions'],
  fillFactors: { journal_postings: 90 },
  handles: (type) => type.startsWith('wallet.') && hasPostingRule(type),

  async apply(target, events: RecordedEvent[]) {
    const wallet = postable(events);
    if (wallet.length === 0) return;
    const stored = new Map<string, OpenTransaction>();
    const wanted = [...new Set(wallet.filter((e) => CHANGES.has(e.type)).map((e) => (e.data as { transactionId: string }).transactionId))];
    if (wanted.length > 0) {
      const { rows } = await selectStored(
        sql`${table(target, 'journal_transactions')} where transaction_id = any(${wanted}::uuid[])`,
      ).execute(target.trx);
      for (const r of rows) stored.set(r.transaction_id, openTransaction(r));
    }
    await post(wallet, (id) => stored.get(id)).write(target);
  },

  async planner(db, schema) {
    const { rows } = await selectStored(sql`${sql.table(`${schema}.journal_transactions`)}`).execute(db);
    /** journal_transactions as the pages planned so far leave it. */
    const open = new Map(rows.map((r) => [r.transaction_id, openTransaction(r)]));
    return (events) => {
      const { write, changed } = post(postable(events), (id) => open.get(id));
      for (const [id, t] of changed) {
        if (t.status === 'Pending') open.set(id, t);
        else open.delete(id);
      }
      return write;
    };
  },
};

export interface JournalCheck {
  ok: boolean;
  /** Wallet events the rules posted. */
  events: number;
  /** The first event in log order whose postings do not sum to zero per asset (or that no rule covers). */
  firstUnbalanced: { eventId: string; type: string; position?: string; problem: string } | null;
  /** The first event whose rows in the journal table do not sum to zero per asset. */
  firstUnbalancedInTable: { eventId: string; assetId: string; sum: string; position: string } | null;
  /** Wallet event types without a posting rule. */
  typesWithoutRule: string[];
  /** Customer accounts that differ from the wallet balances folded by the decider (at most 20). */
  customerMismatches: { key: string; journal: string; wallet: string }[];
  /** The two-person rule: staff money moved above the limit without an approval fails the check. */
  fourEyes: FourEyesAuditResult;
}

/**
 * The journal's invariants up to `until`: every event's postings sum to zero per asset
 * (from the rules and in `postingsTable`, a copy of journal_postings), and the customer
 * accounts equal the decider's balances (available = balance + pending withdrawals,
 * held = -pending withdrawals, pending-in = pending deposits).
 */
export async function checkJournal(
  db: Kysely<DB>,
  store: EventStore,
  opts: {
    until: Position | null;
    postingsTable: string;
    wallet: Map<string, BalanceRow>;
    onProgress?: (events: number) => void;
    /** FOUR_EYES_SEPARATION_DAYS: how long an account's creator or password setter may not check its requests. */
    separationDays?: number;
  },
): Promise<JournalCheck> {
  const audit = new FourEyesAudit({ separationDays: opts.separationDays });
  const book = await foldJournal(
    store,
    { until: opts.until },
    {
      onProgress: opts.onProgress,
      onEvent: (e) => audit.apply({ eventId: e.eventId, streamId: e.streamId, type: e.type, data: e.data, metadata: e.metadata }),
    },
  );
  const { rows } = await sql<{ event_id: string; asset_id: string; sum: string; commit_position: string; prepare_position: string }>`
    select p.event_id, l.asset_id, sum(l.amount)::text as sum, p.commit_position::text, p.prepare_position::text
    from ${sql.table(opts.postingsTable)} p cross join lateral unnest(p.asset_ids, p.amounts) as l (asset_id, amount)
    group by p.event_id, l.asset_id, p.commit_position, p.prepare_position having sum(l.amount) <> 0
    order by p.commit_position, p.prepare_position limit 1`.execute(db);
  const bad = rows[0];
  const customerMismatches: JournalCheck['customerMismatches'] = [];
  const expect = (key: string, journal: Decimal, wallet: Decimal) => {
    if (!journal.eq(wallet) && customerMismatches.length < 20)
      customerMismatches.push({ key, journal: formatAmount(journal), wallet: formatAmount(wallet) });
  };
  for (const [key, w] of opts.wallet) {
    const asset = w.asset_id as AssetId;
    expect(`${key} available`, book.balance(customerAccount(w.user_id, 'available'), asset), money(w.balance).plus(w.pending_withdrawals));
    expect(`${key} pending-out`, book.balance(customerAccount(w.user_id, 'pending-out'), asset), money(w.pending_withdrawals).negated());
    expect(`${key} pending-in`, book.balance(customerAccount(w.user_id, 'pending-in'), asset), money(w.pending_deposits));
  }
  const check: JournalCheck = {
    ok: false,
    events: book.events,
    firstUnbalanced: book.firstProblem,
    firstUnbalancedInTable: bad
      ? {
          eventId: bad.event_id,
          assetId: bad.asset_id,
          sum: formatAmount(money(bad.sum)),
          position: `${bad.commit_position}/${bad.prepare_position}`,
        }
      : null,
    typesWithoutRule: [...book.unruledTypes],
    customerMismatches,
    fourEyes: audit.result,
  };
  check.ok =
    !check.firstUnbalanced && !check.firstUnbalancedInTable && customerMismatches.length === 0 && audit.result.problems.length === 0;
  return check;
}
