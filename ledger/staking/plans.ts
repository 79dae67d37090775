import { Decimal } from 'decimal.js';

/*
 * The stake plan catalogue (spec 001 section 9). The server checks a stake against it and
 * the Stake Plans screen draws its cards from it, so both read this one module: it imports
 * nothing but decimal.js and runs in Node and in the browser alike.
 */

export interface StakePlan {
  days: number;
  /** Percent APY, as the spec writes it. */
  rate: string;
  minValue: string;
  maxValue: string;
}

/** Assets with plans, in the spec's order. DOT is swappable but has no plan. */
export const STAKEABLE_ASSETS = ['BTC', 'ETH', 'USDT', 'BNB', 'SOL', 'XRP', 'ADA', 'DOGE', 'LTC'] as const;
export type StakeableAsset = (typeof STAKEABLE_ASSETS)[number];

const D = Decimal.clone({ precision: 60, toExpNeg: -60, toExpPos: 60 });
const times = (value: string, factor: number) => new D(value).times(factor).toFixed();

/** The short plans: 7, 14 and 30 days; the 14-day minimum is twice the 7-day one, the 30-day five times. */
function shortPlans(min7: string, max: string): StakePlan[] {
  return [
    { days: 7, rate: '2.7', minValue: min7, maxValue: max },
    { days: 14, rate: '4.7', minValue: times(min7, 2), maxValue: max },
    { days: 30, rate: '9.1', minValue: times(min7, 5), maxValue: max },
  ];
}

/** The long plans: 180, 365 and 730 days, one minimum for all three. */
function longPlans(min: string, max180: string, max365: string, max730: string): StakePlan[] {
  return [
    { days: 180, rate: '8', minValue: min, maxValue: max180 },
    { days: 365, rate: '12', minValue: min, maxValue: max365 },
    { days: 730, rate: '42', minValue: min, maxValue: max730 },
  ];
}

export const STAKE_PLANS: Readonly<Record<StakeableAsset, readonly StakePlan[]>> = Object.freeze({
  BTC: shortPlans('0.0117769844', '2.2376270413'),
  ETH: shortPlans('0.19699969781', '37.4294258326'),
  USDT: shortPlans('500.3001801081', '95057.034220532'),
  BNB: shortPlans('1.6025641026', '304.4871794872'),
  SOL: shortPlans('5.034739704', '956.6005437519'),
  XRP: longPlans('1740669', '9740669', '9671064.20404575', '9990669'),
  ADA: shortPlans('951.1128019783', '180711.43237588'),
  DOGE: shortPlans('6247.6571285768', '1187054.8544296'),
  LTC: longPlans('16147.25', '96147.25', '99147.25', '99947.26'),
});

export function isStakeableAsset(value: unknown): value is StakeableAsset {
  return typeof value === 'string' && (STAKEABLE_ASSETS as readonly string[]).includes(value);
}

/** The plan for an asset and duration, or null when the catalogue has none. */
export function findStakePlan(assetId: string, days: number): StakePlan | null {
  if (!isStakeableAsset(assetId)) return null;
  return STAKE_PLANS[assetId].find((p) => p.days === days) ?? null;
}

/** Digits kept for an estimate: the ledger's scale. */
const SCALE = 18;

/** Estimated earnings = amount x rate/100 x days/365, rounded down to 18 decimals (never promised above the rule). */
export function estimatedEarnings(amount: Decimal.Value, rate: Decimal.Value, days: number): string {
  const value = new D(amount).times(rate).dividedBy(100).times(days).dividedBy(365);
  const rounded = value.toDecimalPlaces(SCALE, Decimal.ROUND_DOWN);
  return rounded.isZero() ? '0' : rounded.toFixed();
}

export const STAKE_MESSAGES = {
  invalidAmount: 'Please enter a valid positive amount.',
  insufficient: (available: string, asset: string) => `Insufficient balance. You have ${available} ${asset} available.`,
  belowMin: (min: string, asset: string) => `Amount must be at least ${min} ${asset}`,
  aboveMax: (max: string, asset: string) => `Amount cannot exceed ${max} ${asset}`,
  notAllowed: 'Staking is not allowed for your account.',
  missing: 'Stake plan information or user context is missing.',
  insufficientInline: 'Insufficient funds.',
} as const;

export type StakeAmountCheck = { ok: true } | { ok: false; message: string };

/**
 * The amount rules of a stake, in the order the spec lists them: positive, within the
 * available balance, at least the plan's minimum, at most its maximum.
 * `available` is what the customer can spend (balance + pending withdrawals).
 */
export function checkStakeAmount(
  plan: StakePlan,
  assetId: string,
  amount: Decimal.Value,
  available: Decimal.Value,
  formatAvailable?: (d: Decimal) => string,
): StakeAmountCheck {
  let value: Decimal;
  try {
    value = new D(amount);
  } catch {
    return { ok: false, message: STAKE_MESSAGES.invalidAmount };
  }
  if (!value.isFinite() || value.lte(0)) return { ok: false, message: STAKE_MESSAGES.invalidAmount };
  const have = new D(available);
  if (value.gt(have)) {
    const shown = formatAvailable ? formatAvailable(have) : have.toFixed();
    return { ok: false, message: STAKE_MESSAGES.insufficient(shown, assetId) };
  }
  if (value.lt(plan.minValue)) return { ok: false, message: STAKE_MESSAGES.belowMin(plan.minValue, assetId) };
  if (value.gt(plan.maxValue)) return { ok: false, message: STAKE_MESSAGES.aboveMax(plan.maxValue, assetId) };
  return { ok: true };
}
