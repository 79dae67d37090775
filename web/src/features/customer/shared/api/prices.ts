import { getJson, anonymous } from '../../../../lib/api-client.js';
import type { AssetId } from '../assets.js';

export type AssetPrice = { price: number; changePercent24Hr: number };
export type PriceMap = Partial<Record<AssetId, AssetPrice>>;

export const MARKET_DATA_ERROR = 'Failed to load market data.';

/** GET crypto-prices (no auth). Fails when the answer lacks BTC or ETH, as the spec asks. */
export async function fetchPrices(signal?: AbortSignal): Promise<PriceMap> {
  const prices = await getJson<PriceMap | null>('functions/v1/crypto-prices', anonymous({ signal }));
  if (!prices || typeof prices !== 'object' || !prices.BTC || !prices.ETH) throw new Error(MARKET_DATA_ERROR);
  return prices;
}
