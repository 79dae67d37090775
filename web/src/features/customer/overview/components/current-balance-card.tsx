import { memo } from 'react';
import type { Decimal } from 'decimal.js';
import { Link } from 'react-router-dom';
import { buttonClassName } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { formatCrypto, formatUsd } from '@/lib/money.js';
import type { AssetId } from '@/features/customer/shared/assets.js';
import { AssetIcon } from '@/features/customer/shared/components/asset-icon.js';
import { useCountUp } from '../hooks/use-count-up.js';

export type BalanceDetail = { asset: AssetId; name: string; amount: Decimal | null; usd: Decimal | null };

type CurrentBalanceCardProps = {
  /** Sum of effective balance x price; null while it cannot be known. */
  total: Decimal | null;
  loading: boolean;
  details: BalanceDetail[];
};

/** Total USD counted up over 1.5 s, the Balance Details for BTC, ETH and USDT, Send and Receive. */
export const CurrentBalanceCard = memo(function CurrentBalanceCard({ total, loading, details }: CurrentBalanceCardProps) {
  const shown = useCountUp(total);

  return (
    <Card className="overview-card balance-card" aria-labelledby="current-balance-title">
      <h2 id="current-balance-title" className="overview-card__title">
        Current Balance
      </h2>
      <p className="balance-card__total">
        {shown ? (
          <>
            <span aria-hidden="true" data-testid="total-balance">
              {formatUsd(shown)}
            </span>
            <span className="visually-hidden">{total ? formatUsd(total) : ''}</span>
          </>
        ) : loading ? (
          <span className="placeholder-text">Loading...</span>
        ) : (
          '—'
        )}
      </p>
      <p className="muted">Includes pending deposits and withdrawals</p>

      <h3 className="balance-card__subtitle">Balance Details</h3>
      <ul className="balance-list">
        {details.map((d) => (
          <li key={d.asset} className="balance-list__item">
            <AssetIcon asset={d.asset} size="small" />
            <span className="balance-list__name">{d.name}</span>
            <span className="balance-list__amount">
              <span className="mono">{d.amount ? formatCrypto(d.amount) : '—'}</span> {d.asset}
            </span>
            <span className="balance-list__usd muted">{d.usd ? formatUsd(d.usd) : '—'}</span>
          </li>
        ))}
      </ul>

      <div className="balance-card__actions">
        <Link to="/dashboard/wallets" className={buttonClassName('primary')}>
          Send Funds
        </Link>
        <Link to="/dashboard/wallets" className={buttonClassName('secondary')}>
          Receive Funds
        </Link>
      </div>
    </Card>
  );
});
