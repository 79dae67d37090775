import type { Decimal } from 'decimal.js';
import { bucketBalances } from '@ledger/contract/payments.js';
import { toDecimal, ZERO } from '@/lib/money.js';
import type { AssetId } from './assets.js';
import type { ProfileDetails } from './api/profile.js';
import type { PriceMap } from './api/prices.js';

/*
 * The balance rules of spec 001 section 9 are the ledger's (bucketBalances in the payments
 * contract); the screens add only that what can be withdrawn is floored at 0.
 */

type Maps = Pick<ProfileDetails, 'balances' | 'pendingDeposits' | 'pendingWithdrawals'>;

function buckets(profile: Maps, asset: AssetId) {
  return bucketBalances(asset, {
    balance: toDecimal(profile.balances?.[asset]),
    pendingDeposits: toDecimal(profile.pendingDeposits?.[asset]),
    pendingWithdrawals: toDecimal(profile.pendingWithdrawals?.[asset]),
  });
}

/** Balance plus everything pending either way (the overview's and the wallet list's figure). */
export function effectiveBalance(profile: Maps | null | undefined, asset: AssetId): Decimal {
  return profile ? buckets(profile, asset).effective : ZERO;
}

/** What can be spent now: balance plus pending withdrawals, floored at 0. */
export function availableBalance(profile: Maps | null | undefined, asset: AssetId): Decimal {
  if (!profile) return ZERO;
  const available = buckets(profile, asset).available;
  return available.isNegative() ? ZERO : available;
}

/** The USD price of an asset; USDT counts as 1 when the feed has no price for it. Null when unknown. */
export function priceOf(prices: PriceMap | null | undefined, asset: AssetId): Decimal | null {
  const entry = prices?.[asset];
  if (entry && Number.isFinite(entry.price)) return toDecimal(entry.price);
  if (asset === 'USDT') return toDecimal(1);
  return null;
}

/** Sum over the priced assets of amount x price. */
export function totalUsd(amountOf: (asset: AssetId) => Decimal, prices: PriceMap | null | undefined, assets: readonly AssetId[]): Decimal {
  let total = ZERO;
  for (const asset of assets) {
    const price = priceOf(prices, asset);
    if (price) total = total.plus(amountOf(asset).times(price));
  }
  return total;
}
