import { z } from 'zod';
import { ASSET_IDS } from '../assets.js';

/*
 * Prices (spec 001 section 9): the USD price and 24-hour change of each asset, as
 * GET /functions/v1/crypto-prices answers them and the realtime 'prices' topic pushes them
 * (docs/api-money.md). Prices are display data, so they are plain numbers; amounts never are.
 */

/** The spec's text when prices cannot be had: the 503 answer's error and what the overview shows. */
export const MARKET_DATA_ERROR = 'Failed to load market data.';

/** One asset's price in USD and its change over 24 hours, in percent. */
export const AssetPrice = z.object({
  price: z.number().describe('USD'),
  changePercent24Hr: z.number(),
});
export type AssetPrice = z.infer<typeof AssetPrice>;

/** Prices keyed by asset id; a feed may lack some assets (only BTC and ETH are required), so one may be missing. */
export const Prices = z.partialRecord(z.enum(ASSET_IDS), AssetPrice);
export type PriceMap = z.infer<typeof Prices>;
