import type { Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import { comparePositions, type EventStore, type Position } from '../ledger/event-store/port.js';
import { ASSET_IDS } from '../ledger/assets.js';
import { formatAmount, money } from '../ledger/money.js';
import { isWalletEventType, WALLET_STREAM_PREFIX, type WalletEvent } from '../ledger/wallet/events.js';
import { assetBalance, evolve, initialState, type WalletState } from '../ledger/wallet/wallet.js';

export interface BalanceRow {
  user_id: string;
  asset_id: string;
  balance: string;
  pending_deposits: string;
  pending_withdrawals: string;
}

/** Folds every wallet stream of the log with the decider's own evolve: the balances the tables must show. */
export async function foldWalletBalances(store: EventStore, until?: Position | null, pageSize = 5000): Promise<Map<string, BalanceRow>> {
  const states = new Map<string, WalletState>();
  let after: Position | undefined;
  for (;;) {
    const page = await store.readAll({ after, maxCount: pageSize });
    if (page.length === 0) break;
    let done = false;
    for (const e of page) {
      if (until !== undefined && (until === null || comparePositions(e.position, until) > 0)) {
        done = true;
        break;
      }
      if (!e.streamId.startsWith(WALLET_STREAM_PREFIX) || !isWalletEventType(e.type)) continue;
      const userId = e.streamId.slice(WALLET_STREAM_PREFIX.length);
      states.set(userId, evolve(states.get(userId) ?? initialState(), { type: e.type, data: e.data } as WalletEvent));
    }
    if (done) break;
    after = page[page.length - 1]!.position;
  }
  const rows = new Map<string, BalanceRow>();
  for (const [userId, state] of states) {
    for (const assetId of ASSET_IDS) {
      if (!state.assets.has(assetId)) continue;
      const b = assetBalance(state, assetId);
      rows.set(`${userId}/${assetId}`, {
        user_id: userId,
        asset_id: assetId,
        balance: formatAmount(b.balance),
        pending_deposits: formatAmount(b.pendingDeposits),
        pending_withdrawals: formatAmount(b.pendingWithdrawals),
      });
    }
  }
  return rows;
}

/** The balances table as canonical strings, keyed like `foldWalletBalances`. */
export async function readBalanceRows(
  db: Kysely<DB>,
  schema = 'public',
  tableName: 'balances' | 'live_balances' = 'balances',
): Promise<Map<string, BalanceRow>> {
  const rows = await db
    .withSchema(schema)
    .selectFrom(tableName as 'balances')
    .select(['user_id', 'asset_id', 'balance', 'pending_deposits', 'pending_withdrawals'])
    .execute();
  const canon = (v: string) => formatAmount(money(v));
  return new Map(
    rows.map((r) => [
      `${r.user_id}/${r.asset_id}`,
      { ...r, balance: canon(r.balance), pending_deposits: canon(r.pending_deposits), pending_withdrawals: canon(r.pending_withdrawals) },
    ]),
  );
}
