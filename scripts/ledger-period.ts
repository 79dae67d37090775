import type { AssetId } from '../ledger/assets.js';
import { periodImbalances, usdTotals, type PeriodBook, type PeriodLine, type PeriodUsdLine } from '../ledger/journal/period.js';
import { formatAmount } from '../ledger/money.js';
import type { PricesAt } from './ledger-prices.js';

/** `ledger trial-balance --from --to`'s period: opening, movements and closing per account and asset, and in USD. */
export interface PeriodTrialBalance {
  from: string;
  to: string;
  lines: PeriodLine[];
  /** Assets whose accounts do not sum to zero at the period's end (empty when the books balance). */
  imbalances: { assetId: AssetId; sum: string }[];
  prices: { at: string; source: string; usd: Partial<Record<AssetId, string>> };
  usd: PeriodUsdLine[];
  /** Assets without a price: left out of the USD totals. */
  unpriced: AssetId[];
}

export function periodTrialBalance(book: PeriodBook, prices: PricesAt): PeriodTrialBalance {
  const lines = book.lines();
  const { accounts, missing } = usdTotals(lines, prices.prices);
  return {
    from: book.from!.toISOString(),
    to: book.to.toISOString(),
    lines,
    imbalances: periodImbalances(lines),
    prices: {
      at: prices.at,
      source: prices.source,
      usd: Object.fromEntries(Object.entries(prices.prices).map(([a, p]) => [a, formatAmount(p)])),
    },
    usd: accounts,
    unpriced: missing,
  };
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function printPeriodTrialBalance(p: PeriodTrialBalance): void {
  console.log(`\nPeriod trial balance from ${p.from} to ${p.to} (by value date)\n`);
  if (p.lines.length === 0) console.log('(no postings up to the end of the period)');
  else
    console.log(
      table(
        ['account', 'asset', 'opening', 'increases', 'decreases', 'closing'],
        p.lines.map((l) => [l.account, l.assetId, l.opening, l.increases, l.decreases, l.closing]),
      ),
    );
  for (const i of p.imbalances) console.log(`FAIL ${i.assetId}: the accounts sum to ${i.sum} at the end of the period`);
  console.log(`\nIn USD at the prices of ${p.prices.at} (${p.prices.source === 'file' ? 'from --prices' : "the simulated feed's"}):\n`);
  console.log(
    table(
      ['account', '', 'opening', 'movements', 'closing'],
      p.usd.map((u) => [u.account, '', u.opening, u.movements, u.closing]),
    ),
  );
  if (p.unpriced.length) console.log(`(no price for ${p.unpriced.join(', ')}: left out of the USD totals)`);
}
