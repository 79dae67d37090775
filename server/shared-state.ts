import { Redis } from 'ioredis';
import { ConfigError } from './config.js';

/** How long start-up waits for Redis before it gives up with a clear line. */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;

/**
 * The Redis that instances share rate limits and captcha memory through (REDIS_URL). Its
 * commands fail fast while Redis is away (one retry, no queue), so a request is never held
 * waiting for it; the client reconnects on its own.
 */
export async function openRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  // Outages are reported by the commands that fail; without a listener ioredis prints each one.
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    let where = 'the given address';
    try {
      const u = new URL(url);
      where = `${u.hostname}:${u.port || '6379'}`;
    } catch {
      // keep the generic wording
    }
    throw new ConfigError(
      `Invalid configuration: REDIS_URL: cannot use Redis at ${where} (${String((err as Error).message ?? err).split('\n')[0]})`,
    );
  }
  return redis;
}
