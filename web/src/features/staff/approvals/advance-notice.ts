import type { PriceMap } from '@ledger/contract/prices.js';
import { needsSecondApproval } from '@ledger/wallet/approvals.js';
import { money, parseAmount } from '@ledger/money.js';
import { formatUsd } from '@/lib/money.js';
import { useCustomerApprovals } from './api.js';

/*
 * Before a submit, the profile's Add Transaction and Edit Transaction dialogs say when the action
 * will wait for a second person (the two-person rule, docs/finance.md "Four eyes"). The limit is
 * the server's (FOUR_EYES_LIMIT_USD, read with the customer's approvals); the value is the amount
 * at the prices the screen has. The notice only foretells: the wallet decider judges the action
 * on submit, also on the daily sums and the price checks, and the answer says whether it waits.
 */

/** When the action meets the rule: on this submit (it moves money now), or once it is completed later (added as Pending). */
export type RuleMoment = 'now' | 'on-completion';

type NoticeInput = {
  /** The rule's limit per action in USD as the server gave it; undefined while unknown (no notice then). */
  limitUsd: string | undefined;
  assetId: string;
  /** The amount as typed or stored (a decimal string, signed or not). */
  amount: string;
  prices: PriceMap;
  moment: RuleMoment;
};

/** The notice for this action, or null when, at the screen's prices, it stays within the limit (or cannot be valued). */
export function secondApprovalNotice({ limitUsd, assetId, amount, prices, moment }: NoticeInput): string | null {
  if (limitUsd === undefined) return null;
  const typed = parseAmount(amount, { allowNegative: true });
  if (!typed.ok) return null;
  const wait =
    moment === 'now'
      ? "once submitted, it will wait for a second person's approval."
      : "added as Pending it moves no money; completing it will wait for a second person's approval.";
  const limit = money(limitUsd);
  if (limit.isZero()) return `Every staff action that moves money needs a second person: ${wait}`;
  // As the server values it (server/prices/usd-price.ts): the feed's price, USDT at 1 without one.
  const feed = prices[assetId as keyof PriceMap]?.price;
  const price = feed !== undefined && Number.isFinite(feed) && feed > 0 ? money(String(feed)) : assetId === 'USDT' ? money(1) : null;
  if (!price) return null;
  const value = typed.value.abs().times(price).toDecimalPlaces(18);
  if (!needsSecondApproval(value.toFixed(), limitUsd)) return null;
  return `Worth about ${formatUsd(value)}, above the ${formatUsd(limit)} limit for one staff action: ${wait}`;
}

/** The rule's limit per action, from the customer's approvals read (shared with the profile's approval banners). */
export function useApprovalLimit(userId: string): string | undefined {
  return useCustomerApprovals(userId).data?.limitUsd;
}
