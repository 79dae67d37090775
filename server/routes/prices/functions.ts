import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ASSETS, ASSET_IDS } from '../../../ledger/assets.js';
import type { PriceCache } from '../../prices/price-cache.js';
import type { PriceMap } from '../../prices/price-feed.js';

const AssetPriceSchema = z.object({
  price: z.number().describe('USD'),
  changePercent24Hr: z.number(),
});

/** The spec's prices map: keyed by symbol, each with price and changePercent24Hr. */
const PricesSchema = z.partialRecord(z.enum(ASSET_IDS), AssetPriceSchema);

const ErrorSchema = z.object({ error: z.string() });

export const MARKET_DATA_ERROR = 'Failed to load market data.';

export const autoPrefix = '/functions/v1';

/** `GET crypto-prices` (mounted under /functions/v1): no auth, answered from the price cache. */
export function priceRoutes(cache: PriceCache): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/crypto-prices',
      {
        config: { rateLimit: { max: 120, timeWindow: '1 minute' }, auth: 'public' },
        schema: {
          tags: ['functions'],
          summary: 'USD price and 24 h change per asset, refreshed every 60 s',
          response: { 200: PricesSchema, 503: ErrorSchema },
        },
      },
      async (_request, reply) => {
        const snapshot = cache.current();
        if (!snapshot) return reply.status(503).header('cache-control', 'no-store').send({ error: MARKET_DATA_ERROR });
        // In the spec's order of assets.
        const prices: PriceMap = {};
        for (const { id } of ASSETS) {
          const entry = snapshot.prices[id];
          if (entry) prices[id] = { price: entry.price, changePercent24Hr: entry.changePercent24Hr };
        }
        return reply
          .status(200)
          .header('cache-control', 'public, max-age=30')
          .header('last-modified', new Date(snapshot.updatedAt).toUTCString())
          .send(prices);
      },
    );
  };
}

/** Loaded by autoload from server/routes/: the prices of the app's price cache (server/services/prices.ts). */
const pricesFunctions: FastifyPluginAsyncZod = async (app) => {
  await app.register(priceRoutes(app.prices));
};
export default pricesFunctions;
