import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ASSETS } from '../../../ledger/assets.js';
import { MARKET_DATA_ERROR, Prices, type PriceMap } from '../../../ledger/contract/prices.js';
import type { PriceCache } from '../../prices/price-cache.js';

const ErrorSchema = z.object({ error: z.string() });

export { MARKET_DATA_ERROR };

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
          response: { 200: Prices, 503: ErrorSchema },
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
