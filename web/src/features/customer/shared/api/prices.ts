import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AssetPrice, MARKET_DATA_ERROR, type PriceMap } from '@ledger/contract/prices.js';
import { anonymous, getJson } from '@/lib/api-client.js';
import { useRealtime } from '@/lib/realtime.js';
import { customerKeys } from './keys.js';

/** An asset's USD price and 24 h change, and the prices by asset (the prices contract). */
export type { AssetPrice, PriceMap } from '@ledger/contract/prices.js';
export { MARKET_DATA_ERROR };

/** Prices are fetched again this often (spec 001 section 9). */
export const PRICE_REFRESH_MS = 60_000;

/** The entries that are prices; null when BTC or ETH is not among them (the spec's check). */
function priceMap(body: unknown): PriceMap | null {
  if (!body || typeof body !== 'object') return null;
  const prices: Record<string, AssetPrice> = {};
  for (const [asset, entry] of Object.entries(body)) {
    const parsed = AssetPrice.safeParse(entry);
    if (parsed.success) prices[asset] = parsed.data;
  }
  return prices['BTC'] && prices['ETH'] ? (prices as PriceMap) : null;
}

/** GET crypto-prices (no auth). Fails when the answer lacks BTC or ETH, as the spec asks. */
export async function fetchPrices(signal?: AbortSignal): Promise<PriceMap> {
  const prices = priceMap(await getJson('functions/v1/crypto-prices', anonymous({ signal })));
  if (!prices) throw new Error(MARKET_DATA_ERROR);
  return prices;
}

/** The prices' read, for the hook and for a read ahead of the screen. */
export const pricesQuery = {
  queryKey: customerKeys.prices,
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchPrices(signal),
};

export type PricesState = { prices: PriceMap | null; loading: boolean; error: string | null };

/**
 * USD prices with 24 h change, refetched every 60 s and replaced whenever the server pushes
 * new ones; the last good prices stay shown while a refetch fails.
 */
export function usePrices(): PricesState {
  const client = useQueryClient();
  const query = useQuery({ ...pricesQuery, refetchInterval: PRICE_REFRESH_MS });
  useRealtime('prices', (payload) => {
    const prices = priceMap(payload);
    if (prices) client.setQueryData(customerKeys.prices, prices);
  });
  return { prices: query.data ?? null, loading: query.isPending, error: query.error ? MARKET_DATA_ERROR : null };
}
