import { useEffect, useState } from 'react';
import { fetchPrices, MARKET_DATA_ERROR, type PriceMap } from '../api/prices.js';

/** Prices are fetched again this often (spec 001 section 9). */
export const PRICE_REFRESH_MS = 60_000;

export type PricesState = { prices: PriceMap | null; loading: boolean; error: string | null };

/** USD prices with 24 h change, refetched every 60 s; the last good prices stay shown while a refetch fails. */
export function usePrices(): PricesState {
  const [state, setState] = useState<PricesState>({ prices: null, loading: true, error: null });

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
