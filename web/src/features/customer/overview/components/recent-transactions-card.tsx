import { memo } from 'react';
import { Link } from 'react-router-dom';
import { Card } from '@/components/card.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatShortDateTime, formatSigned, toDecimal } from '@/lib/money.js';
import type { Transaction } from '@/features/customer/shared/api/transactions.js';
import { customerIcons } from '@/features/customer/shared/components/icons.js';
import { mergeSwaps, type RecentRow } from './recent-row.js';

type RecentTransactionsCardProps = { transactions: Transaction[]; loading: boolean; error: string | null };

/**
 * The status icon rules of spec 001 section 4: Complete is a green arrow (down when
 * received, up when sent), Failed is red, anything else a yellow clock.
 */
function StatusIcon({ status, received }: { status: string; received: boolean }) {
  const tone = status === 'Complete' ? 'complete' : status === 'Failed' ? 'failed' : 'pending';
  const icon =
    status === 'Complete'
      ? received
        ? customerIcons.arrowDown
        : customerIcons.arrowUp
      : status === 'Failed'
        ? customerIcons.cross
        : customerIcons.clock;
  return (
    <span className={`tx-icon tx-icon--${tone}`} title={status}>
      {icon}
      <span className="visually-hidden">{status}</span>
    </span>
  );
}

function Row({ row }: { row: RecentRow }) {
  if (row.kind === 'swap') {
    return (
      <li className="recent-list__item">
        <StatusIcon status={row.to.status} received />
        <div className="recent-list__main">
          <p className="recent-list__title">
            {row.from.asset_id} → {row.to.asset_id} <span className="muted">Swap</span>
          </p>
          <p className="recent-list__date muted">{formatShortDateTime(row.to.sent_at)}</p>
        </div>
        <div className="recent-list__amount">
          <p className="amount--negative mono">
            {formatSigned(row.from.amount)} {row.from.asset_id}
          </p>
          <p className="amount--positive mono">
            {formatSigned(row.to.amount)} {row.to.asset_id}
          </p>
        </div>
      </li>
    );
  }
  const t = row.transaction;
  const received = !toDecimal(t.amount).isNegative();
  return (
    <li className="recent-list__item">
      <StatusIcon status={t.status} received={received} />
      <div className="recent-list__main">
        <p className="recent-list__title">
          {t.asset_id} <span className="muted">{received ? 'Received' : 'Sent'}</span>
        </p>
        <p className="recent-list__date muted">{formatShortDateTime(t.sent_at)}</p>
      </div>
      <p className={`recent-list__amount mono ${received ? 'amount--positive' : 'amount--negative'}`}>
        {formatSigned(t.amount)} {t.asset_id}
      </p>
    </li>
  );
}

export const RecentTransactionsCard = memo(function RecentTransactionsCard({ transactions, loading, error }: RecentTransactionsCardProps) {
  const rows = mergeSwaps(transactions);
  return (
    <Card className="overview-card recent-card" aria-labelledby="recent-title">
      <div className="overview-card__header">
        <h2 id="recent-title" className="overview-card__title">
          Recent Transactions
        </h2>
        <Link to="/dashboard/transactions" className="see-all">
          See All -&gt;
        </Link>
      </div>
      {loading ? (
        <SkeletonRows rows={3} label="Loading recent transactions..." />
      ) : error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : rows.length === 0 ? (
        <p className="empty-text">No recent transactions found.</p>
      ) : (
        <ul className="recent-list">
          {rows.map((row) => (
            <Row key={row.key} row={row} />
          ))}
        </ul>
      )}
    </Card>
  );
});
