import { sql } from 'kysely';
import { isApprovalEventType, type ApprovalEvent } from '../ledger/wallet/approvals.js';
import { WALLET_STREAM_PREFIX } from '../ledger/wallet/events.js';
import { table, timestampText, type Projection } from './projection.js';

/**
 * approval_requests from the wallet streams' approval events: one row per request under the
 * two-person rule, with its maker, its checker and reason once decided, and its status
 * (pending, approved, rejected, expired). The Approvals tab and the maker's list read it.
 */
export const approvalRequestsProjection: Projection = {
  name: 'approval-requests',
  tables: ['approval_requests'],
  handles: (type) => isApprovalEventType(type),

  async apply(target, events) {
    const rows = table(target, 'approval_requests');
    for (const recorded of events) {
      if (!isApprovalEventType(recorded.type) || !recorded.streamId.startsWith(WALLET_STREAM_PREFIX)) continue;
      const e = { type: recorded.type, data: recorded.data } as ApprovalEvent;
      const at = timestampText(recorded.recordedAt);
      if (e.type === 'wallet.approval-requested') {
        const d = e.data;
        const userId = recorded.streamId.slice(WALLET_STREAM_PREFIX.length);
        await sql`insert into ${rows} (request_id, user_id, action, transaction_id, asset_id, amount, price_usd, value_usd, maker_id, maker_role, status, requested_at, expires_at)
          values (${d.requestId}::uuid, ${userId}::uuid, ${d.action}, ${d.transactionId}::uuid, ${d.assetId}, ${d.amount}::numeric, ${d.priceUsd}::numeric,
            ${d.valueUsd}::numeric, ${d.makerId}::uuid, ${d.makerRole}, 'pending', ${at}::timestamptz, ${d.expiresAt}::timestamptz)
          on conflict (request_id) do nothing`.execute(target.trx);
      } else if (e.type === 'wallet.approval-expired') {
        await sql`update ${rows} set status = 'expired', decided_at = ${at}::timestamptz where request_id = ${e.data.requestId}::uuid`.execute(
          target.trx,
        );
      } else {
        const status = e.type === 'wallet.approval-approved' ? 'approved' : 'rejected';
        await sql`update ${rows} set status = ${status}, checker_id = ${e.data.checkerId}::uuid, checker_role = ${e.data.checkerRole},
          reason = ${e.data.reason}, decided_at = ${at}::timestamptz where request_id = ${e.data.requestId}::uuid`.execute(target.trx);
      }
    }
  },
};
