import type { Decimal } from 'decimal.js';
import type { AssetId } from '../../ledger/assets.js';
import { money } from '../../ledger/money.js';
import { HttpError } from '../errors.js';
import type { PriceCache } from './price-cache.js';

export const PRICES_UNAVAILABLE = 'Prices are not available right now. Please try again in a minute.';

/** The server's own USD price of an asset; USDT counts as 1 when the feed has none (spec 001 section 9). 503 without prices. */
export function usdPrice(prices: PriceCache, asset: AssetId): Decimal {
  const entry = prices.current()?.prices[asset];
  if (entry && Number.isFinite(entry.price) && entry.price > 0) return money(String(entry.price));
  if (asset === 'USDT') return money(1);
  throw new HttpError(503, PRICES_UNAVAILABLE);
}
