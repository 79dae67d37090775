import { useState } from 'react';
import { Card } from '@/components/card.js';
import { Pager } from '@/components/pager.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatListDateTime, formatSigned, toDecimal } from '@/lib/money.js';
import { REALTIME_ERROR, useRealtimeTrouble } from '@/lib/realtime.js';
import { assetName } from '../shared/assets.js';
import { AssetIcon } from '../shared/components/asset-icon.js';
import { StatusBadge } from '../shared/components/status-badge.js';
import { TransactionDetailModal } from './components/transaction-detail-modal.js';
import { StatementDownload } from './statement-download.js';
import { typeLabel } from './components/transaction-labels.js';
import { swapPair, type TransactionEntry } from './components/swap-entry.js';
import { PAGE_SIZE, useTransactionPage } from './hooks/use-transaction-page.js';
import './transactions.css';

/** /dashboard/transactions (spec 001 section 2, "Transactions"). */
export function TransactionsPage() {
  const [page, setPage] = useState(1);
  const { transactions, count, loading, error } = useTransactionPage(page);
  const [selected, setSelected] = useState<TransactionEntry | null>(null);
  const realtimeDown = useRealtimeTrouble();
  const pageCount = Math.max(1, Math.ceil(count / PAGE_SIZE));

  return (
    <div className="customer-screen transactions">
      <ScreenTitle>Transactions</ScreenTitle>
      {error && (
        // The spec's text already reads 'Error loading transactions: ...'.
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      {realtimeDown && (
        // New rows arrive live; while the connection is down the list may be stale.
        <p className="banner banner--error" role="alert" data-testid="realtime-error">
          {REALTIME_ERROR}
        </p>
      )}
      <Card className="overview-card tx-card" aria-label="Transaction history">
        {loading && transactions.length === 0 ? (
          <SkeletonRows rows={6} columns={4} label="Loading transactions..." />
        ) : transactions.length === 0 ? (
          !error && <p className="empty-text">No transactions found.</p>
        ) : (
          <>
            <div className="list-row list-row--head tx-row tx-row--head" aria-hidden="true">
              <span>Date</span>
              <span>Asset</span>
              <span>Type</span>
              <span className="tx-row__amount">Amount</span>
              <span className="tx-row__status">Status</span>
            </div>
            <ul className="tx-list" aria-busy={loading || undefined}>
              {(transactions as TransactionEntry[]).map((t) => {
                const negative = toDecimal(t.amount).isNegative();
                const swap = swapPair(t);
                if (swap) {
                  // One row for both legs (spec 001 section 4): spent and received side by side.
                  return (
                    <li key={t.id}>
                      <button type="button" className="list-row tx-row tx-row--swap" onClick={() => setSelected(t)} aria-haspopup="dialog">
                        <span className="tx-row__date">{formatListDateTime(t.sent_at)}</span>
                        <span className="tx-row__asset">
                          <AssetIcon asset={swap.spent.asset_id} size="small" />
                          <span>
                            {swap.spent.asset_id} → {swap.received.asset_id}
                          </span>
                        </span>
                        <span className="tx-row__type">{typeLabel('swap')}</span>
                        <span className="tx-row__amount mono tx-row__swap-amounts">
                          <span className="amount--negative">
                            {formatSigned(swap.spent.amount, 8)} {swap.spent.asset_id}
                          </span>
                          <span className="amount--positive">
                            {formatSigned(swap.received.amount, 8)} {swap.received.asset_id}
                          </span>
                        </span>
                        <span className="tx-row__status">
                          <StatusBadge status={t.status} />
                        </span>
                      </button>
                    </li>
                  );
                }
                return (
                  <li key={t.id}>
                    <button type="button" className="list-row tx-row" onClick={() => setSelected(t)} aria-haspopup="dialog">
                      <span className="tx-row__date">{formatListDateTime(t.sent_at)}</span>
                      <span className="tx-row__asset">
                        <AssetIcon asset={t.asset_id} size="small" />
                        <span>
                          {t.asset_id} <span className="muted tx-row__asset-name">{assetName(t.asset_id)}</span>
                        </span>
                      </span>
                      <span className="tx-row__type">{typeLabel(t.type)}</span>
                      <span className={`tx-row__amount mono ${negative ? 'amount--negative' : 'amount--positive'}`}>
                        {formatSigned(t.amount, 8)} {t.asset_id}
                      </span>
                      <span className="tx-row__status">
                        <StatusBadge status={t.status} />
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </>
        )}
        <Pager page={page} pageCount={pageCount} onPageChange={setPage} total={count} disabled={loading} />
      </Card>
      <StatementDownload />
      <TransactionDetailModal transaction={selected} onClose={() => setSelected(null)} />
    </div>
  );
}
