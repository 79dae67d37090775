import { useEffect, useState } from 'react';
import { useRealtime } from '../../../../lib/realtime.js';
import { fetchPrices, MARKET_DATA_ERROR, type PriceMap } from '../api/prices.js';

/** Prices are fetched again this often (spec 001 section 9). */
export const PRICE_REFRESH_MS = 60_000;

export type PricesState = { prices: PriceMap | null; loading: boolean; error: string | null };

function isPrice(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const { price, changePercent24Hr } = value as Record<string, unknown>;
  return typeof price === 'number' && Number.isFinite(price) && typeof changePercent24Hr === 'number';
}

/** A price map pushed over the realtime connection, or null when it is not one (or lacks BTC and ETH). */
function pushedPrices(payload: unknown): PriceMap | null {
  if (!payload || typeof payload !== 'object') return null;
  const map = payload as Record<string, unknown>;
  if (!isPrice(map['BTC']) || !isPrice(map['ETH'])) return null;
  const prices: Record<string, unknown> = {};
  for (const [asset, entry] of Object.entries(map)) if (isPrice(entry)) prices[asset] = entry;
  return prices as PriceMap;
}

/**
 * USD prices with 24 h change, refetched every 60 s and replaced whenever the server pushes
 * new ones; the last good prices stay shown while a refetch fails.
 */
export function usePrices(): PricesState {
  const [state, setState] = useState<PricesState>({ prices: null, loading: true, error: null });

  useRealtime('prices', (payload) => {
    const prices = pushedPrices(payload);
    if (prices) setState({ prices, loading: false, error: null });
  });

  useEffect(() => {
    let controller = new AbortController();
    const load = () => {
      controller.abort();
      controller = new AbortController();
      const { signal } = controller;
      fetchPrices(signal)
        .then((prices) => {
          if (!signal.aborted) setState({ prices, loading: false, error: null });
        })
        .catch(() => {
          if (!signal.aborted) setState((s) => ({ prices: s.prices, loading: false, error: MARKET_DATA_ERROR }));
        });
    };
    load();
    const timer = window.setInterval(load, PRICE_REFRESH_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, []);

  return state;
}
