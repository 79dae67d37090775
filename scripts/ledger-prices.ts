import fs from 'node:fs';
import type { Decimal } from 'decimal.js';
import { ASSET_IDS, isAssetId, type AssetId } from '../ledger/assets.js';
import { money } from '../ledger/money.js';
import { SimulatedPriceFeed } from '../server/prices/price-feed.js';
import { FinanceUsageError } from './ledger-finance.js';

export interface PricesAt {
  at: string;
  /** `file`: given with --prices; `simulated`: the feed the app used then (no PRICE_FEED_URL). */
  source: 'file' | 'simulated';
  prices: Partial<Record<AssetId, Decimal>>;
}

/**
 * USD prices at a moment of the past, for valuing the books: from `--prices FILE` (a JSON
 * object `{"BTC": "97000.5", ...}`) or, without a real feed, the simulated feed's own price at
 * that moment (it depends only on the time, so it is what the app showed then). A real feed
 * answers only the current price, so with PRICE_FEED_URL the file is required.
 */
export function pricesAt(at: Date, file: string | undefined, priceFeedUrl: string | undefined): Promise<PricesAt> | PricesAt {
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new FinanceUsageError(`--prices ${file}: not a readable JSON file (${(err as Error).message}).`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new FinanceUsageError(`--prices ${file}: must be a JSON object of USD prices by asset, like {"BTC": "97000"}.`);
    const prices: Partial<Record<AssetId, Decimal>> = {};
    for (const [asset, value] of Object.entries(parsed)) {
      if (!isAssetId(asset)) throw new FinanceUsageError(`--prices ${file}: ${asset} is not one of ${ASSET_IDS.join(', ')}.`);
      if ((typeof value !== 'string' && typeof value !== 'number') || !/^\d+(\.\d+)?$/.test(String(value)) || money(String(value)).lte(0))
        throw new FinanceUsageError(`--prices ${file}: the price of ${asset} must be a positive decimal.`);
      prices[asset] = money(String(value));
    }
    return { at: at.toISOString(), source: 'file', prices };
  }
  if (priceFeedUrl) throw new FinanceUsageError('--prices FILE is required with PRICE_FEED_URL: the feed answers only the current prices.');
  return new SimulatedPriceFeed({ now: () => at.getTime() }).fetchPrices().then((map) => {
    const prices: Partial<Record<AssetId, Decimal>> = {};
    for (const a of ASSET_IDS) {
      const p = map[a]?.price;
      if (p !== undefined && Number.isFinite(p) && p > 0) prices[a] = money(String(p));
    }
    return { at: at.toISOString(), source: 'simulated' as const, prices };
  });
}
