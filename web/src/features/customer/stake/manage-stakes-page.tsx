import { Link } from 'react-router-dom';
import { Banner } from '@/components/banner.js';
import { Card } from '@/components/card.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatCrypto, formatListDateTime } from '@/lib/money.js';
import { assetName } from '../shared/assets.js';
import { AssetIcon } from '../shared/components/asset-icon.js';
import { STAKE_TEXT, useActiveStakes } from './api/stake.js';
import './stake.css';

/** /dashboard/marketplace/stake/manage (spec 001: Manage Stakes, each active stake 'Holding'). */
export function ManageStakesPage() {
  const active = useActiveStakes();
  const stakes = active.data ?? [];
  const loading = active.isPending || active.isFetching;
  const error = active.error ? STAKE_TEXT.loadFailed : null;

  return (
    <div className="customer-screen stake">
      <ScreenTitle>Manage Stakes</ScreenTitle>
      {error && <Banner variant="error">{error}</Banner>}
      <Card className="overview-card" aria-label="Active stakes">
        {loading && stakes.length === 0 ? (
          <SkeletonRows rows={3} columns={5} label="Loading active stakes..." />
        ) : stakes.length === 0 ? (
          !error && (
            <p className="empty-text">
              You have no active stakes. <Link to="/dashboard/marketplace/stake/plans">See the stake plans</Link>
            </p>
          )
        ) : (
          <>
            <div className="stake-row stake-row--head" aria-hidden="true">
              <span>Asset</span>
              <span>Amount</span>
              <span>Plan</span>
              <span>Estimated earnings</span>
              <span>Matures</span>
              <span>Status</span>
            </div>
            <ul className="stake-list">
              {stakes.map((s) => (
                <li key={s.id} className="stake-row">
                  <span className="tx-row__asset">
                    <AssetIcon asset={s.asset_id} size="small" />
                    <span>
                      {s.asset_id} <span className="muted">{assetName(s.asset_id)}</span>
                    </span>
                  </span>
                  <span className="mono">
                    {formatCrypto(s.amount)} {s.asset_id}
                  </span>
                  <span>
                    {s.duration_days} days · {s.rate}% APY
                  </span>
                  <span className="mono">
                    +{formatCrypto(s.estimated_earnings)} {s.asset_id}
                  </span>
                  <span>{formatListDateTime(s.scheduled_at)}</span>
                  <span>
                    <span className="status-badge status-badge--pending">{STAKE_TEXT.holding}</span>
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </div>
  );
}
