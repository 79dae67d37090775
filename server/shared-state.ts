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
    throw new ConfigError(
      `Invalid configuration: REDIS_URL: cannot use Redis at ${where(url)} (${String((err as Error).message ?? err).split('\n')[0]})`,
    );
  }
  // ioredis selects the URL's database on connecting and only emits an error when the server
  // refuses it, then carries on in database 0: asked again here, so that a refusal stops the start.
  const database = redis.options.db ?? 0;
  if (database !== 0) {
    try {
      await redis.select(database);
    } catch (err) {
      redis.disconnect();
      throw new ConfigError(
        `Invalid configuration: REDIS_URL: Redis at ${where(url)} has no database ${database} (${String((err as Error).message ?? err).split('\n')[0]})`,
      );
    }
  }
  return redis;
}

/** Redis' host and port, without the URL's password, for a message. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'the given address';
  }
}
