import type { Decimal } from 'decimal.js';
import { ASSET_IDS, type AssetId } from '../assets.js';
import { formatAmount, money, ZERO } from '../money.js';
import { parseAccount } from './accounts.js';
import type { Posting } from './postings.js';

/** One account and asset of a period trial balance: opening + increases + decreases = closing. */
export interface PeriodLine {
  account: string;
  assetId: AssetId;
  opening: string;
  increases: string;
  decreases: string;
  closing: string;
}

/** An account's lines valued in USD at the period end's prices. */
export interface PeriodUsdLine {
  account: string;
  opening: string;
  movements: string;
  closing: string;
}

interface Sums {
  opening: Decimal;
  increases: Decimal;
  decreases: Decimal;
}

/** Customers' accounts are summed per kind (`customer:*:available`); their detail is `ledger liabilities`. */
export function periodAccount(account: string): string {
  const { owner, kind } = parseAccount(account);
  return owner === 'customer' ? `customer:*:${kind}` : account;
}

const OWNER_ORDER = ['customer', 'staff', 'house', 'world'];
const ownerRank = (account: string) => {
  const i = OWNER_ORDER.indexOf(account.split(':')[0]!);
  return i < 0 ? OWNER_ORDER.length : i;
};

/**
 * The books of a period by value date: every posting dated before `from` is in the opening
 * balance, those from `from` to `to` are the period's movements, later ones are left out. The
 * log is folded in its own order (a settlement needs its request), each posting counted by its
 * event's value date. Per full account name (`customer:{id}:available`), so that the same fold
 * also answers the liabilities per customer at `to`.
 */
export class PeriodBook {
  /** `${account}|${asset}` -> sums */
  private readonly sums = new Map<string, Sums>();

  constructor(
    readonly from: Date | null,
    readonly to: Date,
  ) {}

  add(valueDate: Date, postings: Posting[]): void {
    const t = valueDate.getTime();
    if (t > this.to.getTime()) return;
    const before = this.from !== null && t < this.from.getTime();
    for (const p of postings) {
      const key = `${p.account}|${p.assetId}`;
      let s = this.sums.get(key);
      if (!s) this.sums.set(key, (s = { opening: ZERO, increases: ZERO, decreases: ZERO }));
      const amount = money(p.amount);
      if (before) s.opening = s.opening.plus(amount);
      else if (amount.isNegative()) s.decreases = s.decreases.plus(amount);
      else s.increases = s.increases.plus(amount);
    }
  }

  /** [account, asset, closing] of every account posted to up to `to`. */
  *closings(): Iterable<[string, AssetId, Decimal]> {
    for (const [key, s] of this.sums) {
      const i = key.lastIndexOf('|');
      yield [key.slice(0, i), key.slice(i + 1) as AssetId, s.opening.plus(s.increases).plus(s.decreases)];
    }
  }

  /** The trial balance's lines: customers' accounts summed per kind, the others one by one; by owner, account, asset. */
  lines(): PeriodLine[] {
    const grouped = new Map<string, Sums>();
    for (const [key, s] of this.sums) {
      const i = key.lastIndexOf('|');
      const k = `${periodAccount(key.slice(0, i))}|${key.slice(i + 1)}`;
      const g = grouped.get(k) ?? { opening: ZERO, increases: ZERO, decreases: ZERO };
      grouped.set(k, {
        opening: g.opening.plus(s.opening),
        increases: g.increases.plus(s.increases),
        decreases: g.decreases.plus(s.decreases),
      });
    }
    return [...grouped]
      .map(([key, s]) => {
        const i = key.lastIndexOf('|');
        return {
          account: key.slice(0, i),
          assetId: key.slice(i + 1) as AssetId,
          opening: formatAmount(s.opening),
          increases: formatAmount(s.increases),
          decreases: formatAmount(s.decreases),
          closing: formatAmount(s.opening.plus(s.increases).plus(s.decreases)),
        };
      })
      .sort(
        (a, b) =>
          ownerRank(a.account) - ownerRank(b.account) ||
          a.account.localeCompare(b.account) ||
          ASSET_IDS.indexOf(a.assetId) - ASSET_IDS.indexOf(b.assetId),
      );
  }
}

/** Per asset, the sum of every account's closing: zero when the period's books balance. */
export function periodImbalances(lines: PeriodLine[]): { assetId: AssetId; sum: string }[] {
  const sums = new Map<AssetId, Decimal>();
  for (const l of lines) sums.set(l.assetId, (sums.get(l.assetId) ?? ZERO).plus(l.closing));
  return [...sums].filter(([, s]) => !s.isZero()).map(([assetId, s]) => ({ assetId, sum: formatAmount(s) }));
}

/** Every account's opening, movements and closing in USD at `prices` (the period end's), summed over its assets. */
export function usdTotals(
  lines: PeriodLine[],
  prices: Partial<Record<AssetId, Decimal>>,
): { accounts: PeriodUsdLine[]; missing: AssetId[] } {
  const missing = new Set<AssetId>();
  const acc = new Map<string, { opening: Decimal; movements: Decimal; closing: Decimal }>();
  for (const l of lines) {
    const price = prices[l.assetId];
    if (!price) {
      missing.add(l.assetId);
      continue;
    }
    const a = acc.get(l.account) ?? { opening: ZERO, movements: ZERO, closing: ZERO };
    acc.set(l.account, {
      opening: a.opening.plus(money(l.opening).times(price)),
      movements: a.movements.plus(money(l.increases).plus(l.decreases).times(price)),
      closing: a.closing.plus(money(l.closing).times(price)),
    });
  }
  const usd = (d: Decimal) => formatAmount(d.toDecimalPlaces(2));
  return {
    accounts: [...acc].map(([account, a]) => ({ account, opening: usd(a.opening), movements: usd(a.movements), closing: usd(a.closing) })),
    missing: [...missing],
  };
}
