import { useMemo, useState } from 'react';
import { Banner } from '@/components/banner.js';
import { Card } from '@/components/card.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatCrypto, formatUsd } from '@/lib/money.js';
import { ASSET_IDS, ASSETS, type AssetId } from '../shared/assets.js';
import { availableBalance, effectiveBalance, priceOf, totalUsd } from '../shared/balances.js';
import { AssetIcon } from '../shared/components/asset-icon.js';
import { usePrices } from '../shared/api/prices.js';
import { useProfileDetails } from '../shared/api/profile.js';
import { SendReceiveModal } from './components/send-receive-modal.js';
import type { Wallet } from './wallet.js';

/** /dashboard/wallets (spec 001 section 2, "Wallets"). */
export function WalletsPage() {
  const { prices, loading: pricesLoading, error: pricesError } = usePrices();
  const { profile, loading: profileLoading, error: profileError, reload } = useProfileDetails();
  const [openId, setOpenId] = useState<AssetId | null>(null);
  // Balances change when staff settle or fail a transaction: the hook reads them again.

  const wallets: Wallet[] = useMemo(
    () =>
      profile
        ? ASSET_IDS.map((id) => ({
            id,
            name: ASSETS[id].name,
            balance: effectiveBalance(profile, id),
            available: availableBalance(profile, id),
            price: priceOf(prices, id),
            address: profile.addresses?.[id]?.trim() || null,
          }))
        : [],
    [profile, prices],
  );
  const current = profile && prices ? totalUsd((a) => effectiveBalance(profile, a), prices, ASSET_IDS) : null;
  const available = profile && prices ? totalUsd((a) => availableBalance(profile, a), prices, ASSET_IDS) : null;
  const open = wallets.find((w) => w.id === openId) ?? null;
  const summaryLoading = (profileLoading && !profile) || (pricesLoading && !prices);

  return (
    <div className="customer-screen wallets">
      <ScreenTitle>Wallets</ScreenTitle>
      {pricesError && <Banner variant="error">{pricesError}</Banner>}
      {profileError && <Banner variant="error">{profileError}</Banner>}

      <Card className="overview-card assets-summary" aria-labelledby="your-assets">
        <h2 id="your-assets" className="overview-card__title">
          Your Assets
        </h2>
        <dl className="assets-summary__stats">
          <div>
            <dt>Current Balance</dt>
            <dd data-testid="assets-current">{current ? formatUsd(current) : summaryLoading ? 'Loading...' : '—'}</dd>
          </div>
          <div>
            <dt>Available</dt>
            <dd data-testid="assets-available">{available ? formatUsd(available) : summaryLoading ? 'Loading...' : '—'}</dd>
          </div>
        </dl>
      </Card>

      <Card className="overview-card wallet-list-card" aria-labelledby="wallet-list-title">
        <h2 id="wallet-list-title" className="overview-card__title">
          Assets
        </h2>
        {profileLoading && !profile ? (
          <SkeletonRows rows={6} columns={3} label="Loading wallets..." />
        ) : wallets.length === 0 ? (
          <p className="empty-text">No wallets to show.</p>
        ) : (
          <>
            <div className="list-row list-row--head wallet-row wallet-row--head" aria-hidden="true">
              <span>Asset</span>
              <span>Price</span>
              <span>Balance</span>
              <span>Value</span>
            </div>
            <ul className="wallet-list">
              {wallets.map((w) => (
                <li key={w.id}>
                  <button
                    type="button"
                    className="list-row wallet-row"
                    onClick={() => setOpenId(w.id)}
                    aria-label={`${w.name} (${w.id}): ${formatCrypto(w.balance)} ${w.id}. Open send and receive`}
                  >
                    <span className="wallet-row__asset">
                      <AssetIcon asset={w.id} />
                      <span>
                        <span className="wallet-row__name">{w.name}</span>
                        <span className="muted wallet-row__ticker">{w.id}</span>
                      </span>
                    </span>
                    <span className="wallet-row__price muted">{w.price ? formatUsd(w.price) : '—'}</span>
                    <span className="wallet-row__balance mono">
                      {formatCrypto(w.balance)} <span className="muted">{w.id}</span>
                    </span>
                    <span className="wallet-row__value">{w.price ? formatUsd(w.balance.times(w.price)) : '—'}</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>

      <SendReceiveModal
        key={openId ?? 'closed'}
        wallet={open}
        onClose={() => setOpenId(null)}
        canSend={profile?.can_send !== false}
        sendDisabledNote={profile?.send_disabled_note ?? null}
        onSent={reload}
      />
    </div>
  );
}
