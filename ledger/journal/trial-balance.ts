import type { Decimal } from 'decimal.js';
import { ASSET_IDS, type AssetId } from '../assets.js';
import { formatAmount, ZERO } from '../money.js';
import { parseAccount, type AccountKind } from './accounts.js';

/** One asset's line of the trial balance. All amounts are canonical decimal strings. */
export interface TrialBalanceLine {
  assetId: AssetId;
  /** What the house owes customers now: available plus held (the spec's balance, summed). */
  customerLiabilities: string;
  customerAvailable: string;
  /** Held for pending withdrawals and sends (still owed). */
  pendingWithdrawals: string;
  /** Announced deposits not yet received. */
  pendingDeposits: string;
  staked: string;
  feesEarned: string;
  adjustments: string;
  /** Manual transactions of staff, all members together (`staffAdjustments` of the balance has them per member). */
  staffAdjustments: string;
  swapConversion: string;
  stakingRewards: string;
  /** Net flow with the outside world: negative when more came in than went out. */
  externalNet: string;
  inTransit: string;
  /** The sum of every account of the asset: zero when the books balance. */
  total: string;
  reconciles: boolean;
}

export interface TrialBalance {
  lines: TrialBalanceLine[];
  reconciles: boolean;
}

/**
 * Per asset: customers' liabilities and pending amounts, the house's fees, and the flows
 * with the world. The books reconcile when, per asset, every account sums to zero
 * (liabilities + staked + fees + adjustments + staff adjustments + swap conversion + staking rewards + external = 0)
 * and the deposits in transit mirror the customers' pending deposits.
 */
export function trialBalance(entries: Iterable<[string, AssetId, Decimal]>): TrialBalance {
  const sums = new Map<AssetId, Map<AccountKind, Decimal>>();
  for (const [account, assetId, amount] of entries) {
    const { kind } = parseAccount(account);
    let m = sums.get(assetId);
    if (!m) sums.set(assetId, (m = new Map()));
    m.set(kind, (m.get(kind) ?? ZERO).plus(amount));
  }
  const lines: TrialBalanceLine[] = [];
  for (const assetId of ASSET_IDS) {
    const m = sums.get(assetId);
    if (!m) continue;
    const k = (kind: AccountKind) => m.get(kind) ?? ZERO;
    let total = ZERO;
    for (const v of m.values()) total = total.plus(v);
    const reconciles = total.isZero() && k('pending-in').plus(k('in-transit')).isZero();
    lines.push({
      assetId,
      customerLiabilities: formatAmount(k('available').plus(k('pending-out'))),
      customerAvailable: formatAmount(k('available')),
      pendingWithdrawals: formatAmount(k('pending-out')),
      pendingDeposits: formatAmount(k('pending-in')),
      staked: formatAmount(k('staked')),
      feesEarned: formatAmount(k('fees')),
      adjustments: formatAmount(k('adjustments')),
      staffAdjustments: formatAmount(k('staff-adjustments')),
      swapConversion: formatAmount(k('swap-conversion')),
      stakingRewards: formatAmount(k('staking-rewards')),
      externalNet: formatAmount(k('external')),
      inTransit: formatAmount(k('in-transit')),
      total: formatAmount(total),
      reconciles,
    });
  }
  return { lines, reconciles: lines.every((l) => l.reconciles) };
}
