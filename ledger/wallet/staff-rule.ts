import { Decimal } from 'decimal.js';
import { formatAmount, money, ZERO } from '../money.js';
import type { StaffRole, Valuation, WaitReason } from './approvals.js';
import type { WalletState } from './state.js';

/**
 * The two-person rule's policy and the facts a staff money action is judged on (docs/finance.md,
 * "Four eyes"). The server gathers the facts (the price of the moment and its age, the recent
 * median, what the maker did alone elsewhere today); the wallet decider alone decides, from them
 * and from the wallet's own state, whether the action runs now or waits for a second person.
 */
export interface FourEyesPolicy {
  /** Per action: a value above it waits (0: every action waits). */
  limitUsd: string;
  /** Per rolling 24 hours, per maker and per customer: an action that would pass either sum waits. */
  dailyLimitUsd: string;
  /** A price older than this (seconds) cannot value an action alone. */
  maxPriceAgeS: number;
  /** How far a price may stand from its recent median, as a share (0.5: within +-50%). */
  priceBand: string;
  /** How long a request waits for a checker. */
  expiryHours: number;
}

/** The price an action is valued at, as the server's feed gave it. */
export interface PriceFact {
  usd: string;
  /** Seconds since the feed answered with it. */
  ageS: number;
  /** The median of the last hour's prices of the asset; null when there is no history yet. */
  medianUsd: string | null;
}

/** Who acts and the facts the rule needs: carried by every staff command that moves money. */
export interface StaffAct {
  maker: { id: string; role: StaffRole };
  /** The server's time of the action. */
  now: string;
  policy: FourEyesPolicy;
  price: PriceFact;
  /** The value the maker moved alone, on every wallet, in the 24 hours before `now`. */
  makerDayUsd: string;
  /** The id of the request, should the action have to wait. */
  requestId: string;
}

export const DAY_MS = 86_400_000;

/** What the customer's wallet received or paid through staff acting alone in the 24 hours before `now`. */
export function customerDayUsd(state: WalletState, now: string): Decimal {
  const since = Date.parse(now) - DAY_MS;
  let sum = ZERO;
  for (const s of state.staffSolo) if (Date.parse(s.at) > since) sum = sum.plus(s.valueUsd);
  return sum;
}

/** Whether the price can value an action alone: fresh, and within the band of its recent median. */
export function priceProblems(price: PriceFact, policy: FourEyesPolicy): WaitReason[] {
  const reasons: WaitReason[] = [];
  if (!(price.ageS <= policy.maxPriceAgeS)) reasons.push('stale-price');
  if (price.medianUsd !== null) {
    const median = money(price.medianUsd);
    const band = money(policy.priceBand);
    const usd = money(price.usd);
    if (median.isZero() || usd.lt(median.times(Decimal.sub(1, band))) || usd.gt(median.times(band.plus(1))))
      reasons.push('price-out-of-band');
  }
  return reasons;
}

/**
 * Values a staff action that moves `amount` (at the act's price of its asset) and says why it must wait, if it must:
 * above the single limit, past the maker's or the customer's rolling day, or on a price that
 * cannot be trusted alone. An empty list: it runs now, with this valuation kept on its event.
 */
export function judgeStaffAction(state: WalletState, act: StaffAct, amount: Decimal): { valuation: Valuation; reasons: WaitReason[] } {
  const { policy } = act;
  const price = money(act.price.usd);
  const value = amount.abs().times(price).toDecimalPlaces(18);
  const limit = money(policy.limitUsd);
  const daily = money(policy.dailyLimitUsd);
  const reasons: WaitReason[] = [];
  if (limit.isZero() || value.gt(limit)) reasons.push('over-limit');
  if (money(act.makerDayUsd).plus(value).gt(daily)) reasons.push('maker-daily');
  if (customerDayUsd(state, act.now).plus(value).gt(daily)) reasons.push('customer-daily');
  reasons.push(...priceProblems(act.price, policy));
  return {
    valuation: {
      priceUsd: formatAmount(price),
      valueUsd: formatAmount(value),
      limitUsd: formatAmount(limit),
      dailyLimitUsd: formatAmount(daily),
      makerId: act.maker.id,
      valuedAt: act.now,
    },
    reasons,
  };
}
