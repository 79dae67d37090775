import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { anonymous, getJson } from '@/lib/api-client.js';
import { useRealtime } from '@/lib/realtime.js';
import type { AssetId } from '../assets.js';
import { customerKeys } from './keys.js';

export const AssetPriceSchema = z.object({ price: z.number().finite(), changePercent24Hr: z.number() });
export type AssetPrice = z.infer<typeof AssetPriceSchema>;
export type PriceMap = Partial<Record<AssetId, AssetPrice>>;

export const MARKET_DATA_ERROR = 'Failed to load market data.';

/** Prices are fetched again this often (spec 001 section 9). */
export const PRICE_REFRESH_MS = 60_000;

/** The entries that are prices; null when BTC or ETH is not among them (the spec's check). */
function priceMap(body: unknown): PriceMap | null {
  if (!body || typeof body !== 'object') return null;
  const prices: Record<string, AssetPrice> = {};
  for (const [asset, entry] of Object.entries(body)) {
    const parsed = AssetPriceSchema.safeParse(entry);
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

export type PricesState = { prices: PriceMap | null; loading: boolean; error: string | null };

/**
 * USD prices with 24 h change, refetched every 60 s and replaced whenever the server pushes
 * new ones; the last good prices stay shown while a refetch fails.
 */
export function usePrices(): PricesState {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: customerKeys.prices,
    queryFn: ({ signal }) => fetchPrices(signal),
    refetchInterval: PRICE_REFRESH_MS,
  });
  useRealtime('prices', (payload) => {
    const prices = priceMap(payload);
    if (prices) client.setQueryData(customerKeys.prices, prices);
  });
  return { prices: query.data ?? null, loading: query.isPending, error: query.error ? MARKET_DATA_ERROR : null };
}
