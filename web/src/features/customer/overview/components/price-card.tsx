import { memo } from 'react';
import type { Decimal } from 'decimal.js';
import { Card } from '@/components/card.js';
import { formatCrypto, formatPercent, formatUsd } from '@/lib/money.js';
import { ASSETS, type AssetId } from '@/features/customer/shared/assets.js';
import type { AssetPrice } from '@/features/customer/shared/api/prices.js';
import { AssetIcon } from '@/features/customer/shared/components/asset-icon.js';

type PriceCardProps = {
  asset: AssetId;
  price: AssetPrice | null;
  pricesLoading: boolean;
  /** Balance plus pending deposits plus pending withdrawals; null while unknown. */
  balance: Decimal | null;
};

/** One priced asset: USD price, 24 h change, 'Your balance' and its USD value. */
export const PriceCard = memo(function PriceCard({ asset, price, pricesLoading, balance }: PriceCardProps) {
  const info = ASSETS[asset];
  const change = price?.changePercent24Hr ?? null;
  const usd = price && balance ? balance.times(price.price) : null;

  return (
    <Card className="overview-card price-card" aria-labelledby={`price-${asset}`}>
      <div className="price-card__head">
        <AssetIcon asset={asset} />
        <div>
          <h2 id={`price-${asset}`} className="overview-card__title">
            {info.name}
          </h2>
          <p className="muted">{asset}</p>
        </div>
        {change !== null && (
          <span className={`change ${change < 0 ? 'change--down' : 'change--up'}`} aria-label={`24h change ${formatPercent(change)}`}>
            {formatPercent(change)}
          </span>
        )}
      </div>
      <p className="price-card__price">
        {price ? formatUsd(price.price) : pricesLoading ? <span className="placeholder-text">Loading...</span> : '—'}
      </p>
      <dl className="price-card__balance">
        <dt>Your balance</dt>
        <dd>
          <span className="mono">{balance ? formatCrypto(balance) : '—'}</span> {asset}
        </dd>
        <dt className="visually-hidden">Value in USD</dt>
        <dd className="muted">{usd ? formatUsd(usd) : '—'}</dd>
      </dl>
    </Card>
  );
});
