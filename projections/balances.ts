import { sql } from 'kysely';
import type { RecordedEvent } from '../ledger/event-store/port.js';
import { AmountSums, isNegativeAmount } from '../ledger/money.js';
import {
  isWalletEventType,
  openedStatus,
  WALLET_STREAM_PREFIX,
  type TransactionStatus,
  type WalletEvent,
} from '../ledger/wallet/events.js';
import { bucketFor } from '../ledger/wallet/state.js';
import { table, timestampText, type Projection } from './projection.js';

interface Delta {
  userId: string;
  assetId: string;
  at: Date;
}

/**
 * balances(user, asset): the spec's balance (sum of Complete), pending deposits and pending
 * withdrawals (sums of Pending positive and negative amounts). Status events carry the
 * amount, so a batch folds into one delta per (user, asset) and one upsert. The sums are
 * exact integers of the smallest unit (`AmountSums`), not decimal.js: a replay folds one or
 * two amounts per event.
 */
export const balancesProjection: Projection = {
  name: 'balances',
  tables: ['balances'],
  handles: (type) =>
    type === 'wallet.deposit-requested' ||
    type === 'wallet.withdrawal-requested' ||
    type === 'wallet.send-requested' ||
    type === 'wallet.transaction-recorded' ||
    type === 'wallet.swap-requested' ||
    type === 'wallet.stake-opened' ||
    type === 'wallet.stake-paid-out' ||
    type === 'wallet.transaction-settled' ||
    type === 'wallet.transaction-failed',

  async apply(target, events) {
    const deltas = new Map<string, Delta>();
    const sums = {
      balance: new AmountSums<Delta>(),
      pendingDeposits: new AmountSums<Delta>(),
      pendingWithdrawals: new AmountSums<Delta>(),
    };
    const move = (e: RecordedEvent, assetId: string, amount: string, status: TransactionStatus, sign: 1 | -1) => {
      const b = bucketFor(status, isNegativeAmount(amount));
      if (!b) return;
      const userId = e.streamId.slice(WALLET_STREAM_PREFIX.length);
      const key = `${userId}/${assetId}`;
      let d = deltas.get(key);
      if (!d) {
        d = { userId, assetId, at: e.recordedAt };
        deltas.set(key, d);
      }
      sums[b].add(d, amount, sign);
      d.at = e.recordedAt;
    };
    for (const recorded of events) {
      if (!isWalletEventType(recorded.type)) continue;
      const e = { type: recorded.type, data: recorded.data } as WalletEvent;
      switch (e.type) {
        case 'wallet.deposit-requested':
        case 'wallet.withdrawal-requested':
        case 'wallet.send-requested':
          move(recorded, e.data.assetId, e.data.amount, 'Pending', 1);
          break;
        case 'wallet.transaction-recorded':
          move(recorded, e.data.assetId, e.data.amount, e.data.status, 1);
          break;
        case 'wallet.swap-requested':
        case 'wallet.stake-opened':
        case 'wallet.stake-paid-out':
          // A swap leg waits as Pending; a stake locks (and its payout returns) at once, Complete.
          move(recorded, e.data.assetId, e.data.amount, openedStatus(e)!, 1);
          break;
        case 'wallet.transaction-settled':
        case 'wallet.transaction-failed': {
          // Only Pending transactions change status (the decider refuses the rest).
          const amount = e.data.amount;
          move(recorded, e.data.assetId, amount, 'Pending', -1);
          move(recorded, e.data.assetId, amount, e.type === 'wallet.transaction-settled' ? 'Complete' : 'Failed', 1);
          break;
        }
      }
    }
    if (deltas.size === 0) return;
    // One text whatever the number of rows (arrays, not a VALUES list): parsed and planned once per connection.
    const rows = [...deltas.values()];
    const t = table(target, 'balances');
    await sql`
      insert into ${t} as b (user_id, asset_id, balance, pending_deposits, pending_withdrawals, updated_at)
      select * from unnest(${rows.map((d) => d.userId)}::uuid[], ${rows.map((d) => d.assetId)}::text[],
        ${rows.map((d) => sums.balance.get(d))}::numeric[], ${rows.map((d) => sums.pendingDeposits.get(d))}::numeric[],
        ${rows.map((d) => sums.pendingWithdrawals.get(d))}::numeric[], ${rows.map((d) => timestampText(d.at))}::timestamptz[])
      on conflict (user_id, asset_id) do update set
        balance = b.balance + excluded.balance,
        pending_deposits = b.pending_deposits + excluded.pending_deposits,
        pending_withdrawals = b.pending_withdrawals + excluded.pending_withdrawals,
        updated_at = excluded.updated_at`.execute(target.trx);
  },
};
