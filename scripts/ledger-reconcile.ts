import { sql } from 'kysely';
import type { Database } from '../server/db/database.js';
import { comparePositions, type EventStore, type Position } from '../ledger/event-store/port.js';
import { formatAmount, money } from '../ledger/money.js';
import type { TrialBalance, TrialBalanceLine } from '../ledger/journal/trial-balance.js';
import { journalProjection } from '../projections/journal.js';
import { balancesProjection } from '../projections/balances.js';
import type { Projection } from '../projections/projection.js';

/**
 * `ledger trial-balance`'s last check: the balances and journal read tables against the trial
 * balance folded from the log, when they show the log up to its head.
 */

export interface ReadModelCheck {
  table: string;
  /** False when the read model is not at the log's head (the app is writing): not compared. */
  checked: boolean;
  differences: string[];
}

/**
 * The live loop writes a read model's checkpoint only with a page that holds some of its
 * events (or after SKIP_LIMIT others), so on an idle ledger whose last events are edits,
 * sign-ins or tickets the balances and journal checkpoints stay behind the head. A read model
 * is at the head when no event it handles lies between its checkpoint and the head; more than
 * this many events in between counts as not at the head (the app is writing).
 */
const AT_HEAD_LOOKAHEAD = 1000;

async function showsHead(database: Database, store: EventStore, projection: Projection, head: Position): Promise<boolean> {
  const cp = await database.db.selectFrom('projection_checkpoints').selectAll().where('name', '=', projection.name).executeTakeFirst();
  if (!cp) return false;
  const at: Position = { commit: BigInt(cp.commit_position), prepare: BigInt(cp.prepare_position) };
  const order = comparePositions(at, head);
  if (order >= 0) return order === 0;
  const between = await store.readAll({ after: at, maxCount: AT_HEAD_LOOKAHEAD });
  const upToHead = between.filter((e) => comparePositions(e.position, head) <= 0);
  const reachesHead = upToHead.length > 0 && comparePositions(upToHead[upToHead.length - 1]!.position, head) === 0;
  return reachesHead && !upToHead.some((e) => projection.handles(e.type));
}

/** Compares the trial balance with the balances and journal tables, when they show the log up to `head`. */
export async function reconcileReadModels(
  database: Database,
  store: EventStore,
  tb: TrialBalance,
  head: Position,
): Promise<ReadModelCheck[]> {
  const shown = {
    balances: await showsHead(database, store, balancesProjection, head),
    journal: await showsHead(database, store, journalProjection, head),
  };
  const at = (name: 'balances' | 'journal') => shown[name];
  const line = (a: string): TrialBalanceLine | undefined => tb.lines.find((l) => l.assetId === a);
  const out: ReadModelCheck[] = [];

  const balances: ReadModelCheck = { table: 'balances', checked: at('balances'), differences: [] };
  if (balances.checked) {
    const { rows } = await sql<{ asset_id: string; balance: string; pd: string; pw: string }>`
      select asset_id, sum(balance)::text as balance, sum(pending_deposits)::text as pd, sum(pending_withdrawals)::text as pw
      from balances group by asset_id`.execute(database.db);
    for (const r of rows) {
      const l = line(r.asset_id);
      const pairs: [string, string, string][] = [
        ['customer liabilities', l?.customerLiabilities ?? '0', r.balance],
        ['pending deposits', l?.pendingDeposits ?? '0', r.pd],
        ['pending withdrawals', l?.pendingWithdrawals ?? '0', formatAmount(money(r.pw).negated())],
      ];
      for (const [what, journal, table] of pairs) {
        if (!money(journal).eq(table))
          balances.differences.push(`${r.asset_id} ${what}: journal ${journal}, balances table ${formatAmount(money(table))}`);
      }
    }
  }
  out.push(balances);

  const journal: ReadModelCheck = { table: 'journal_entries', checked: at('journal'), differences: [] };
  if (journal.checked) {
    const { rows } = await sql<{ asset_id: string; account_kind: string; sum: string }>`
      select asset_id, account_kind, sum(amount)::text as sum from journal_entries group by asset_id, account_kind`.execute(database.db);
    const field: Record<string, keyof TrialBalanceLine> = {
      available: 'customerAvailable',
      'pending-out': 'pendingWithdrawals',
      'pending-in': 'pendingDeposits',
      staked: 'staked',
      fees: 'feesEarned',
      adjustments: 'adjustments',
      'staff-adjustments': 'staffAdjustments',
      'swap-conversion': 'swapConversion',
      'staking-rewards': 'stakingRewards',
      external: 'externalNet',
      'in-transit': 'inTransit',
    };
    for (const r of rows) {
      const expected = String(line(r.asset_id)?.[field[r.account_kind]!] ?? '0');
      if (!money(expected).eq(r.sum))
        journal.differences.push(`${r.asset_id} ${r.account_kind}: log ${expected}, journal table ${formatAmount(money(r.sum))}`);
    }
  }
  out.push(journal);
  return out;
}
