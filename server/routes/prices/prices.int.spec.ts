import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSET_IDS } from '../../../ledger/assets.js';
import { registerErrorHandling } from '../../plugins/errors.js';
import { PriceCache } from '../../prices/price-cache.js';
import { SimulatedPriceFeed, type PriceFeed, type PriceMap } from '../../prices/price-feed.js';
import { priceRoutes } from './functions.js';

const quiet = { warn: () => {} };

async function build(cache: PriceCache): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await app.register(priceRoutes(cache), { prefix: '/functions/v1' });
  await app.ready();
  return app;
}

describe('GET /functions/v1/crypto-prices', () => {
  let app: FastifyInstance | undefined;
  let cache: PriceCache | undefined;
  afterEach(async () => {
    await app?.close();
    await cache?.stop();
    app = undefined;
    cache = undefined;
  });

  it('answers all ten assets from the cache, without auth, cacheable for 30 s', async () => {
    cache = new PriceCache(new SimulatedPriceFeed({ seed: 1 }), { log: quiet });
    await cache.start();
    app = await build(cache);
    const res = await app.inject({ method: 'GET', url: '/functions/v1/crypto-prices' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json() as PriceMap;
    expect(Object.keys(body)).toEqual(ASSET_IDS);
    for (const id of ASSET_IDS) {
      expect(body[id]).toEqual({ price: expect.any(Number), changePercent24Hr: expect.any(Number) });
      expect(body[id]!.price).toBeGreaterThan(0);
    }
    expect(body).toEqual(cache.current()!.prices);
  });

  it("answers 503 with the spec's text before the first successful fetch", async () => {
    const down: PriceFeed = { name: 'down', fetchPrices: () => Promise.reject(new Error('feed down')) };
    cache = new PriceCache(down, { log: quiet });
    await cache.start();
    app = await build(cache);
    const res = await app.inject({ method: 'GET', url: '/functions/v1/crypto-prices' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ error: 'Failed to load market data.' });
  });

  it('answers only the symbols the feed had, in the spec order', async () => {
    const partial: PriceFeed = {
      name: 'partial',
      fetchPrices: async () => ({ ETH: { price: 3_400, changePercent24Hr: -1.5 }, BTC: { price: 97_000, changePercent24Hr: 2 } }),
    };
    cache = new PriceCache(partial, { log: quiet });
    await cache.start();
    app = await build(cache);
    const res = await app.inject({ method: 'GET', url: '/functions/v1/crypto-prices' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"BTC":{"price":97000,"changePercent24Hr":2},"ETH":{"price":3400,"changePercent24Hr":-1.5}}');
  });
});
