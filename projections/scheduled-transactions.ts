import { sql } from 'kysely';
import { WALLET_STREAM_PREFIX, type WalletEventData } from '../ledger/wallet/events.js';
import { table, timestampText, type Projection } from './projection.js';

/**
 * scheduled_transactions: a row per stake, pending until its payout is recorded. The payout
 * scheduler reads the due rows from here, so the schedule is rebuilt from the log by replay.
 */
export const scheduledTransactionsProjection: Projection = {
  name: 'scheduled-transactions',
  tables: ['scheduled_transactions'],
  handles: (type) => type === 'wallet.stake-opened' || type === 'wallet.stake-paid-out',

  async apply(target, events) {
    const t = table(target, 'scheduled_transactions');
    for (const e of events) {
      if (e.type === 'wallet.stake-opened') {
        const d = e.data as WalletEventData<'wallet.stake-opened'>;
        await sql`insert into ${t} (id, user_id, asset_id, amount, duration_days, rate, estimated_earnings, scheduled_at, status, type, created_at)
          values (${d.stakeId}::uuid, ${e.streamId.slice(WALLET_STREAM_PREFIX.length)}::uuid, ${d.assetId}, ${d.principal}::numeric, ${d.durationDays},
            ${d.rate}::numeric, ${d.estimatedEarnings}::numeric, ${d.maturesAt}::timestamptz, 'pending', 'stake_payout', ${timestampText(e.recordedAt)}::timestamptz)`.execute(
          target.trx,
        );
      } else if (e.type === 'wallet.stake-paid-out') {
        const d = e.data as WalletEventData<'wallet.stake-paid-out'>;
        await sql`update ${t} set status = 'completed', completed_at = ${timestampText(e.recordedAt)}::timestamptz, payout_transaction_id = ${d.transactionId}::uuid
          where id = ${d.stakeId}::uuid`.execute(target.trx);
      }
    }
  },
};
