import type { Decimal } from 'decimal.js';
import { toDecimal, ZERO } from '../../../lib/money.js';
import type { AssetId } from './assets.js';
import type { ProfileDetails } from './api/profile.js';
import type { PriceMap } from './api/prices.js';

/*
 * The balance rules of spec 001 section 9: effective = balance + pending deposits + pending
 * withdrawals (the API sends pending withdrawals as zero or negative); available = balance +
 * pending withdrawals, floored at 0 for what can be withdrawn.
 */

type Maps = Pick<ProfileDetails, 'balances' | 'pendingDeposits' | 'pendingWithdrawals'>;

export function effectiveBalance(profile: Maps | null | undefined, asset: AssetId): Decimal {
  if (!profile) return ZERO;
  return toDecimal(profile.balances?.[asset])
    .plus(toDecimal(profile.pendingDeposits?.[asset]))
    .plus(toDecimal(profile.pendingWithdrawals?.[asset]));
}

export function availableBalance(profile: Maps | null | undefined, asset: AssetId): Decimal {
  if (!profile) return ZERO;
  const available = toDecimal(profile.balances?.[asset]).plus(toDecimal(profile.pendingWithdrawals?.[asset]));
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
