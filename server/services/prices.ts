import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { PriceCache } from '../prices/price-cache.js';
import { createPriceFeed } from '../prices/price-feed.js';
import type { ServiceOptions } from '../app.js';

/** `app.prices`: the price feed's last answer, refreshed until the app closes. */
export default fp(
  async (app: FastifyInstance, { config }: ServiceOptions) => {
    const prices = new PriceCache(createPriceFeed({ url: config.PRICE_FEED_URL }), { log: app.log });
    await prices.start();
    app.addHook('onClose', () => prices.stop());
    app.decorate('prices', prices);
  },
  { name: 'prices' },
);
