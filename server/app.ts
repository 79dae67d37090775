import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import autoload from '@fastify/autoload';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createLedgerContext, type LedgerContext } from './context.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerClient } from './plugins/client.js';
import { registerSecurity, requestForLog } from './plugins/security.js';
import { acceptEmptyBodies } from './plugins/empty-bodies.js';
import { guardDocs } from './plugins/production-surface.js';
import { answerSerializer, declareRefusals, openApiTransform } from './plugins/responses.js';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyCompress from '@fastify/compress';
import type { AuthServices } from './auth/index.js';
import { AuthError } from './auth/errors.js';
import type { FourEyes } from './staff/four-eyes.js';
import type { PayoutScheduler } from './marketplace/payout-scheduler.js';
import type { DailySeal } from './audit/daily-seal.js';
import type { PriceCache } from './prices/price-cache.js';
import type { RealtimeHub } from './realtime/hub.js';
import type { LiveFeed } from './realtime/live-feed.js';
import type { BlobStore } from './blobs/blob-store.js';
import type { Redis } from 'ioredis';
import { openRedis } from './shared-state.js';
import { Metrics } from './observability/metrics.js';
import { registerRequestId, requestIdOf, trustedPeer } from './observability/request-id.js';
import { operatorAccess } from './observability/operator-access.js';
import { projectionLags } from './observability/projection-lag.js';

declare module 'fastify' {
  interface FastifyInstance {
    ledger: LedgerContext;
    authServices: AuthServices;
    prices: PriceCache;
    realtime: RealtimeHub;
    /** The two-person rule on staff actions that move value (docs/finance.md, "Four eyes"). */
    fourEyes: FourEyes;
    /** The one follower of the log for every realtime hint and policy (server/realtime/live-feed.ts). */
    liveFeed: LiveFeed;
    /** Pays matured stakes (server/marketplace/payout-scheduler.ts). */
    payouts: PayoutScheduler;
    dailySeal: DailySeal;
    /** Uploaded files (KYC documents, attachments, logos). */
    blobs: BlobStore;
    /** Shared by every instance when REDIS_URL is set: rate limits and captcha memory (null: this process's memory). */
    redis: Redis | null;
    /** The Prometheus metrics served at /metrics. */
    metrics: Metrics;
    /** Every route registered, in order: what `/docs/json` and the access checks are held to. */
    routeTable: ReadonlyArray<{ method: string; url: string }>;
  }
}

/** What every plugin of server/services/ is given (autoload's `options`). */
export interface ServiceOptions {
  config: Config;
}

/**
 * The services (server/services/, each a fastify-plugin with its `name` and `dependencies`,
 * decorating the instance) and the routes by feature (server/routes/<feature>/, each file a
 * plugin with its `autoPrefix`; a folder's `autohooks` file declares what its routes ask of the
 * caller). Under tsx and vitest these are the .ts sources, under plain node build/server/.
 */
const SERVICES_DIR = path.join(import.meta.dirname, 'services');
const ROUTES_DIR = path.join(import.meta.dirname, 'routes');
const HEALTH_DIR = path.join(ROUTES_DIR, 'health');

export interface BuildOptions {
  /** Use this database instead of opening one from the config (tests). */
  database?: Database;
  /** Directory of the built client; default web/dist. */
  clientDir?: string;
  /** Where the log goes instead of stdout (tests scan it for secrets). */
  logStream?: NodeJS.WritableStream;
}

/** TRUST_PROXY as fastify takes it: a hop count trusts the nearest N addresses, whatever they are. */
function trustProxyOption(setting: Config['TRUST_PROXY']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting ?? false;
}

/** The whole HTTP application; `inject` it in tests, `listen` in main.ts. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const metrics = new Metrics();
  const ledger = await createLedgerContext(config, { database: opts.database, observer: metrics });
  let redis: Redis | null = null;
  try {
    redis = config.REDIS_URL ? await openRedis(config.REDIS_URL) : null;
  } catch (err) {
    await ledger.close();
    throw err;
  }
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password'],
            serializers: { req: requestForLog },
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          },
    // Which proxies may tell the client's address (X-Forwarded-For): none unless TRUST_PROXY says.
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // A trusted proxy's X-Request-Id when it is a sane one, else a new UUID (server/observability/request-id.ts).
    genReqId: requestIdOf(trustedPeer(config.TRUST_PROXY)),
    bodyLimit: 1024 * 1024,
  });
  const routeTable: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeTable.push({ method, url: route.url });
  });
  app.decorate('routeTable', routeTable);
  app.decorate('ledger', ledger);
  app.decorate('redis', redis);
  app.decorate('metrics', metrics);
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  registerRequestId(app);
  metrics.projectionLag(() => projectionLags(ledger, config.READY_MAX_LAG + 1));
  if (ledger.database.pool) metrics.databasePool(ledger.database.pool);
  ledger.projector.on('failed', (err: unknown, retryInMs: number) => {
    metrics.projectionFailures.inc();
    app.log.error({ err, retryInMs }, 'projections: a page of the log failed to apply; the read tables wait until it passes');
  });
  app.addHook('onClose', async () => ledger.close());
  app.setValidatorCompiler(validatorCompiler);
  // Outside production an answer with a field its schema does not declare is an error (tests see it).
  app.setSerializerCompiler(answerSerializer(config.NODE_ENV !== 'production'));
  registerErrorHandling(app);
  acceptEmptyBodies(app);
  declareRefusals(app);
  await registerSecurity(app);
  guardDocs(app, config);
  metrics.register(app, operatorAccess(config));

  // Answers of 1 KB and more are sent with brotli or gzip when the client accepts them (a
  // transaction page of 50 rows shrinks about tenfold). Not the sign-in family (/auth/): its answers
  // hold tokens next to what the caller sent, the mix a compression side channel (BREACH) reads.
  // Request bodies are never inflated: a small compressed body must not become a large one.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/auth/')) route.compress = false;
  });
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'wallet-ledger API', version: '0.1.0', description: 'Custodial wallet on an event-sourced ledger.' },
      tags: [{ name: 'health' }, { name: 'auth' }, { name: 'functions' }, { name: 'api' }],
    },
    transform: openApiTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  // Limits are set per route (sign-in, sign-up, codes); none applies unless a route asks.
  // This hook runs before the plugin's own, so the factor applies to every route's limit.
  if (config.RATE_LIMIT_FACTOR !== 1) {
    app.addHook('onRoute', (route) => {
      const limit = (route.config as { rateLimit?: { max?: number } } | undefined)?.rateLimit;
      if (typeof limit?.max === 'number') limit.max *= config.RATE_LIMIT_FACTOR;
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: (request) => request.ip ?? 'unknown',
    // With Redis every instance counts against one limit; keys are named per deployment.
    ...(redis ? { redis, nameSpace: `${config.REDIS_KEY_PREFIX}rate-limit:`, skipOnError: true } : {}),
    errorResponseBuilder: () => new AuthError(429, 'rate_limited', 'Too many requests. Please wait a moment and try again.'),
  });

  // The probes (server/routes/health/) before the services, as the app's first routes: they are
  // public and unlimited, and no service's onRoute hook (the guard's, the websocket plugin's
  // handler wrapper) sees them. The routes' autoload below leaves their folder out.
  await app.register(autoload, { dir: HEALTH_DIR, ignorePattern: /\.spec\.[jt]s$/ });
  // The services, in the order of their dependencies: auth (whose guard checks every route
  // registered after it), blobs, prices, four eyes, realtime, the live feed, payouts, the daily seal.
  await app.register(autoload, { dir: SERVICES_DIR, options: { config } satisfies ServiceOptions });
  // The spec's three call families (DESIGN.md, "The API keeps the spec's call tables"), one folder
  // of server/routes/ per feature (the tests beside the routes are not plugins). A folder's module
  // that exports no plugin as its default (its queries.ts, a helper its route files share) is
  // imported and left unregistered by autoload.
  await app.register(autoload, {
    dir: ROUTES_DIR,
    dirNameRoutePrefix: false,
    autoHooks: true,
    cascadeHooks: true,
    ignorePattern: /\.spec\.[jt]s$|^health$/,
  });

  await registerClient(app, opts.clientDir);
  return app;
}
