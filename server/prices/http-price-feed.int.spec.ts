import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpPriceFeed } from './price-feed.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local stand-in for the market-data API; each test sets what it answers. */
describe('HttpPriceFeed against a local stub server', () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  const requests: { method?: string; url?: string; accept?: string }[] = [];

  const json =
    (body: unknown, status = 200): Handler =>
    (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push({ method: req.method, url: req.url, accept: req.headers.accept });
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    requests.length = 0;
    handler = json({});
  });

  const feed = (timeoutMs = 2_000) => new HttpPriceFeed({ url: `${base}/v1/prices?key=secret`, timeoutMs });

  it('maps a good answer, accepts numbers sent as strings and drops unknown symbols', async () => {
    handler = json({
      BTC: { price: 97_123.45, changePercent24Hr: 1.25 },
      ETH: { price: '3412.5', changePercent24Hr: '-2.5' },
      USDT: { price: 1.0001, changePercent24Hr: 0.01 },
      DOGE: { price: '0.3215', changePercent24Hr: 4 },
      SHIB: { price: 0.00002, changePercent24Hr: 3 },
      PEPE: 'not even an object',
    });
    const prices = await feed().fetchPrices();
    expect(prices).toEqual({
      BTC: { price: 97_123.45, changePercent24Hr: 1.25 },
      ETH: { price: 3412.5, changePercent24Hr: -2.5 },
      USDT: { price: 1.0001, changePercent24Hr: 0.01 },
      DOGE: { price: 0.3215, changePercent24Hr: 4 },
    });
    expect(requests).toEqual([{ method: 'GET', url: '/v1/prices?key=secret', accept: 'application/json' }]);
  });

  it('rejects a body that is not JSON', async () => {
    handler = json('<html>oops</html>');
    await expect(feed().fetchPrices()).rejects.toThrow(/^Price feed 127\.0\.0\.1:\d+ answered something that is not JSON$/);
  });

  it('rejects a body that is not an object keyed by symbol', async () => {
    handler = json([1, 2, 3]);
    await expect(feed().fetchPrices()).rejects.toThrow(/answered a malformed body: expected an object keyed by symbol/);
    handler = json('null');
    await expect(feed().fetchPrices()).rejects.toThrow(/answered a malformed body/);
  });

  it('rejects a malformed entry for one of our assets, naming it', async () => {
    handler = json({ BTC: { price: 'lots', changePercent24Hr: 1 }, ETH: { price: 3400, changePercent24Hr: 0 } });
    await expect(feed().fetchPrices()).rejects.toThrow(/answered a malformed body: BTC\.price: expected a number or a numeric string$/);
    handler = json({ BTC: { price: 97_000, changePercent24Hr: 1 }, ETH: { price: 3400 } });
    await expect(feed().fetchPrices()).rejects.toThrow(/malformed body: ETH\.changePercent24Hr: expected a number or a numeric string$/);
    handler = json({ BTC: { price: -5, changePercent24Hr: 1 }, ETH: { price: 3400, changePercent24Hr: 0 } });
    await expect(feed().fetchPrices()).rejects.toThrow(/BTC\.price: expected a price above 0/);
  });

  it('rejects an HTTP 500', async () => {
    handler = json({ error: 'internal' }, 500);
    await expect(feed().fetchPrices()).rejects.toThrow(/^Price feed 127\.0\.0\.1:\d+ answered HTTP 500$/);
  });

  it('rejects an answer without BTC', async () => {
    handler = json({ ETH: { price: 3400, changePercent24Hr: 0 }, SOL: { price: 180, changePercent24Hr: 0 } });
    await expect(feed().fetchPrices()).rejects.toThrow(/answered without BTC$/);
    handler = json({ SOL: { price: 180, changePercent24Hr: 0 } });
    await expect(feed().fetchPrices()).rejects.toThrow(/answered without BTC and ETH$/);
  });

  it('rejects when the server does not answer in time', async () => {
    handler = () => {
      // Never answers.
    };
    const started = Date.now();
    await expect(feed(200).fetchPrices()).rejects.toThrow(/^Price feed 127\.0\.0\.1:\d+ did not answer within 200 ms$/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('rejects when the body stalls after the headers', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"BTC":');
    };
    await expect(feed(200).fetchPrices()).rejects.toThrow(/did not answer within 200 ms/);
  });

  it('rejects with a clear message when nothing listens, without the full URL', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await new HttpPriceFeed({ url: `http://127.0.0.1:${port}/prices?key=secret` }).fetchPrices().then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(new RegExp(`^Price feed 127\\.0\\.0\\.1:${port} could not be reached`));
    expect((error as Error).message).not.toContain('secret');
  });
});
