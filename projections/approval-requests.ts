import { sql } from 'kysely';
import { isApprovalEventType, type ApprovalEvent, type Valuation } from '../ledger/wallet/approvals.js';
import { WALLET_STREAM_PREFIX } from '../ledger/wallet/events.js';
import { table, timestampText, type Projection } from './projection.js';

/** Events that can carry a staff action's valuation: those that ran alone count in the maker's daily sum. */
const VALUED = new Set(['wallet.transaction-recorded', 'wallet.transaction-settled']);

/**
 * approval_requests from the wallet streams' approval events: one row per request under the
 * two-person rule, with its maker, its checker and reason once decided, and its status
 * (pending, approved, rejected, expired). The Approvals tab and the maker's list read it.
 * Beside it, staff_limit_usage: each staff action that moved money alone, for the makers'
 * rolling daily sums (ledger/wallet/staff-rule.ts).
 */
export const approvalRequestsProjection: Projection = {
  name: 'approval-requests',
  tables: ['approval_requests', 'staff_limit_usage'],
  handles: (type) => isApprovalEventType(type) || VALUED.has(type),

  async apply(target, events) {
    const rows = table(target, 'approval_requests');
    for (const recorded of events) {
      if (!recorded.streamId.startsWith(WALLET_STREAM_PREFIX)) continue;
      if (VALUED.has(recorded.type)) {
        const d = recorded.data as { transactionId: string; approvalRequestId?: string; valuation?: Valuation };
        const v = d.valuation;
        if (d.approvalRequestId || !v?.makerId || !v.valuedAt) continue;
        const userId = recorded.streamId.slice(WALLET_STREAM_PREFIX.length);
        await sql`insert into ${table(target, 'staff_limit_usage')} (event_id, maker_id, user_id, transaction_id, value_usd, valued_at)
          values (${recorded.eventId}::uuid, ${v.makerId}::uuid, ${userId}::uuid, ${d.transactionId}::uuid, ${v.valueUsd}::numeric,
            ${v.valuedAt}::timestamptz)
          on conflict (event_id) do nothing`.execute(target.trx);
        continue;
      }
      if (!isApprovalEventType(recorded.type)) continue;
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
