import { ASSET_IDS } from '../assets.js';
import { formatAmount, money, type Money } from '../money.js';

export interface Settlement {
  assetId: string;
  /** Signed effect on the wallet, fee included. */
  amount: string;
  settledAt: Date;
}

export interface DayBalances {
  /** UTC calendar day, YYYY-MM-DD. */
  date: string;
  /** Settled balance per asset at the end of that day, decimal strings. */
  balances: Record<string, string>;
}

const DAY = 86_400_000;

/**
 * The settled balance of every asset at the end of each of the last `days` UTC days up to
 * and including `now`'s day. Pending amounts are not counted: a chart of what the customer held.
 */
export function dailyBalances(settlements: Settlement[], now: Date, days: number): DayBalances[] {
  const today = Math.floor(now.getTime() / DAY);
  const first = today - days + 1;
  const running = new Map<string, Money>(ASSET_IDS.map((a) => [a, money(0)]));
  const sorted = [...settlements].sort((a, b) => a.settledAt.getTime() - b.settledAt.getTime());
  let i = 0;
  const result: DayBalances[] = [];
  for (let day = first; day <= today; day++) {
    const end = (day + 1) * DAY;
    while (i < sorted.length && sorted[i]!.settledAt.getTime() < end) {
      const s = sorted[i++]!;
      running.set(s.assetId, (running.get(s.assetId) ?? money(0)).plus(money(s.amount)));
    }
    result.push({
      date: new Date(day * DAY).toISOString().slice(0, 10),
      balances: Object.fromEntries([...running].map(([asset, amount]) => [asset, formatAmount(amount)])),
    });
  }
  return result;
}
