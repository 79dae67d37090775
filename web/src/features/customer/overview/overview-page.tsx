import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { ASSET_IDS, ASSETS } from '../shared/assets.js';
import { effectiveBalance, priceOf, totalUsd } from '../shared/balances.js';
import { usePrices } from '../shared/api/prices.js';
import { useProfileDetails } from '../shared/api/profile.js';
import { CurrentBalanceCard, type BalanceDetail } from './components/current-balance-card.js';
import { KycStatusCard } from './components/kyc-status-card.js';
import { PriceCard } from './components/price-card.js';
import { RecentTransactionsCard } from './components/recent-transactions-card.js';
import { useRecentTransactions } from './api/recent-transactions.js';
import { KycInfoModal } from '../kyc/kyc-info-modal.js';
import { KycVerificationModal } from '../kyc/kyc-verification-modal.js';
import { BalanceChart } from './components/balance-chart.js';
import { useBalanceHistory } from './api/balance-history.js';

const PRICED = ['BTC', 'ETH'] as const;
const DETAILS = [
  { asset: 'BTC', name: ASSETS.BTC.name },
  { asset: 'ETH', name: ASSETS.ETH.name },
  // The overview calls Tether 'US Dollars' (spec 001 section 1).
  { asset: 'USDT', name: 'US Dollars' },
] as const;

/** /dashboard/overview (spec 001 section 2, "Overview"). */
export function OverviewPage() {
  const navigate = useNavigate();
  const { prices, loading: pricesLoading, error: pricesError } = usePrices();
  // A deposit settled, a withdrawal failed, a new transaction: the profile, the recent list and
  // the history are each read again by their own hook (the realtime hint).
  const { profile, loading: profileLoading, error: profileError, reload: reloadProfile } = useProfileDetails();
  const { reload: _reloadRecent, ...recent } = useRecentTransactions();
  const [kycModal, setKycModal] = useState<'info' | 'verify' | null>(null);
  const history = useBalanceHistory();

  // Each card is redrawn only when what it shows changes (they are memo components): the page
  // renders again for every answer that arrives, and the values below keep their identity
  // until their own inputs change.
  const balances = useMemo(() => (profile ? new Map(ASSET_IDS.map((a) => [a, effectiveBalance(profile, a)])) : null), [profile]);
  const balanceOf = (asset: (typeof ASSET_IDS)[number]) => balances?.get(asset) ?? null;
  // The total needs both the balances and the prices; without prices it is not known.
  const total = useMemo(() => (balances && prices ? totalUsd((a) => balances.get(a)!, prices, ASSET_IDS) : null), [balances, prices]);
  const details: BalanceDetail[] = useMemo(
    () =>
      DETAILS.map(({ asset, name }) => {
        const amount = balances?.get(asset) ?? null;
        const price = prices ? priceOf(prices, asset) : null;
        return { asset, name, amount, usd: amount && price ? amount.times(price) : null };
      }),
    [balances, prices],
  );
  const openVerify = useCallback(() => setKycModal('verify'), []);
  const openInfo = useCallback(() => setKycModal('info'), []);

  return (
    <div className="customer-screen overview">
      <div className="screen-head">
        <ScreenTitle>Overview</ScreenTitle>
        <Button onClick={() => void navigate('/dashboard/payments', { state: { activeTab: 'deposit' } })}>Buy Crypto</Button>
      </div>

      {profile?.dashboard_note && <Banner variant="info">{profile.dashboard_note}</Banner>}
      {pricesError && <Banner variant="error">{pricesError}</Banner>}
      {profileError && <Banner variant="error">{profileError}</Banner>}

      <div className="overview-grid">
        {PRICED.map((asset) => (
          <PriceCard key={asset} asset={asset} price={prices?.[asset] ?? null} pricesLoading={pricesLoading} balance={balanceOf(asset)} />
        ))}
        <KycStatusCard status={profile?.kyc_status} loading={profileLoading && !profile} onVerify={openVerify} onLearnMore={openInfo} />
        <CurrentBalanceCard total={total} loading={profileLoading || pricesLoading} details={details} />
        <RecentTransactionsCard {...recent} />
        <BalanceChart days={history.days} prices={prices} loading={history.loading || pricesLoading} error={history.error} />
      </div>
      <KycInfoModal open={kycModal === 'info'} onClose={() => setKycModal(null)} />
      <KycVerificationModal open={kycModal === 'verify'} onClose={() => setKycModal(null)} onSubmitted={reloadProfile} />
    </div>
  );
}
