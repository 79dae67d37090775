import { useState } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { formatCrypto } from '@/lib/money.js';
import { STAKE_MESSAGES, STAKE_PLANS, STAKEABLE_ASSETS, type StakeableAsset } from '@ledger/staking/plans.js';
import { assetName } from '../shared/assets.js';
import { availableBalance } from '../shared/balances.js';
import { AssetIcon } from '../shared/components/asset-icon.js';
import { useProfileDetails } from '../shared/api/profile.js';
import { StakeModal } from './components/stake-modal.js';
import './stake.css';

/** /dashboard/marketplace/stake/plans (spec 001: Stake Plans; plans from section 9). */
export function StakePlansPage() {
  const { profile, error, reload } = useProfileDetails();
  const [asset, setAsset] = useState<StakeableAsset | null>(null);
  const permitted = profile?.can_stake !== false;

  return (
    <div className="customer-screen stake">
      <ScreenTitle>Stake Plans</ScreenTitle>
      {error && <Banner variant="error">{error}</Banner>}
      {!permitted && <Banner variant="info">{profile?.stake_disabled_note || STAKE_MESSAGES.notAllowed}</Banner>}
      <div className="stake-grid">
        {STAKEABLE_ASSETS.map((a) => (
          <Card key={a} className="overview-card stake-card" aria-label={`${assetName(a)} stake plans`}>
            <div className="stake-card__head">
              <AssetIcon asset={a} />
              <div>
                <h2 className="overview-card__title">{assetName(a)}</h2>
                <p className="muted">
                  {a} · Available <span className="mono">{formatCrypto(availableBalance(profile, a))}</span>
                </p>
              </div>
            </div>
            <ul className="stake-card__plans">
              {STAKE_PLANS[a].map((p) => (
                <li key={p.days}>
                  <span className="stake-card__days">{p.days} Days</span>
                  <span className="stake-card__rate">{p.rate}% APY</span>
                  <span className="muted stake-card__min mono">
                    Min {p.minValue} {a} · Max {p.maxValue} {a}
                  </span>
                </li>
              ))}
            </ul>
            <Button className="button--block" onClick={() => setAsset(a)} disabled={!permitted}>
              Stake {a}
            </Button>
          </Card>
        ))}
      </div>
      <StakeModal asset={asset} profile={profile} onClose={() => setAsset(null)} onStaked={reload} />
    </div>
  );
}
