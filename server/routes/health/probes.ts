import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isStaffCaller } from '../../plugins/production-surface.js';
import { projectionLags } from '../../observability/projection-lag.js';
import { describeLiveFeed, eventStoreState, firstLine, withTimeout } from '../../../ledger/event-store/state.js';
import { pingDatabase } from './queries.js';
import { operatorAccess } from '../../observability/operator-access.js';

const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ kind: z.enum(['postgres', 'pglite']), ok: z.boolean() }),
  eventStore: z.enum(['postgres', 'eventstoredb']),
  projections: z.array(z.object({ name: z.string(), position: z.string(), lag: z.number().int(), lagCapped: z.boolean() })),
});
/** What an anonymous caller sees: ok or not, nothing of the set-up behind it. */
const AnonymousHealthSchema = z.object({ status: z.enum(['ok', 'degraded']) });
const HealthAnswer = z.union([HealthSchema, AnonymousHealthSchema]);

const ReadySchema = z.object({
  status: z.enum(['ready', 'not ready']),
  /** What keeps the instance out of the load balancer, one line each. */
  problems: z.array(z.string()),
  /** The event store in use: whether it answers, its head, its live subscription. */
  eventStore: z.object({
    name: z.enum(['postgres', 'eventstoredb']),
    reachable: z.boolean(),
    error: z.string().optional(),
    head: z.string().nullable(),
    live: z.object({ connected: z.boolean(), lastError: z.string().optional(), resubscribing: z.boolean() }),
  }),
  /** Each read model's lag behind the head, counted up to READY_MAX_LAG + 1 (`lagCapped`: at least that). */
  projections: z.array(z.object({ name: z.string(), lag: z.number().int(), lagCapped: z.boolean() })),
});

/** What /readyz tells a caller without the operators' token in production: ready or not, nothing of what is behind it. */
const AnonymousReadySchema = z.object({ status: z.enum(['ready', 'not ready']) });
const ReadyAnswer = z.union([ReadySchema, AnonymousReadySchema]);

/** Events not yet applied that /healthz counts at most (one read of the log per probe). */
const HEALTH_LAG_CAP = 1_000;

/** How long a readiness probe waits for the database or the event store. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * The probes (DESIGN.md, "It runs as a real deployment"): public, never rate limited, loaded
 * before the services (server/app.ts). /livez touches nothing, /readyz and /healthz ask the
 * database and the event store.
 */
const healthProbes: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const operator = operatorAccess(ledger.config);
  // Liveness: the process serves requests. Touches nothing else, so a database outage does
  // not make an orchestrator restart every instance.
  app.get(
    '/livez',
    {
      schema: {
        tags: ['health'],
        summary: 'The process is serving (no dependency checked)',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' as const }),
  );

  // Readiness: this instance can do its work now. Fails on a database or event store that
  // does not answer, or read tables more than READY_MAX_LAG events behind the log.
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'Database, event store and read tables fit to serve',
        response: { 200: ReadyAnswer, 503: ReadyAnswer },
      },
    },
    async (request, reply) => {
      const problems: string[] = [];
      const maxLag = ledger.config.READY_MAX_LAG;
      const [, { state: eventStore }] = await Promise.all([
        withTimeout(pingDatabase(ledger.database.db), 'the database', PROBE_TIMEOUT_MS).catch((err) => {
          problems.push(`database: ${firstLine(err)}`);
        }),
        eventStoreState(ledger.store, PROBE_TIMEOUT_MS),
      ]);
      if (!eventStore.reachable) problems.push(`event store (${eventStore.name}): ${eventStore.error}`);
      else if (eventStore.live.resubscribing)
        problems.push(`event store (${eventStore.name}): live subscription ${describeLiveFeed(eventStore.live)}`);
      let projections: Array<{ name: string; lag: number; lagCapped: boolean }> = [];
      if (!problems.length) {
        try {
          const lags = await withTimeout(projectionLags(ledger, maxLag + 1), 'the event store', PROBE_TIMEOUT_MS);
          projections = lags.map(({ name, lag, lagCapped }) => ({ name, lag, lagCapped }));
          for (const p of lags) {
            if (p.lag > maxLag) problems.push(`projection ${p.name}: more than ${maxLag} events behind the log`);
          }
        } catch (err) {
          problems.push(`event store (${ledger.store.name}): ${firstLine(err)}`);
        }
      }
      const ready = problems.length === 0;
      const status = ready ? ('ready' as const) : ('not ready' as const);
      reply.header('cache-control', 'no-store').status(ready ? 200 : 503);
      // The event store's kind and head and each read model's lag are for operators (METRICS_TOKEN).
      return operator(request) ? reply.send({ status, problems, eventStore, projections }) : reply.send({ status });
    },
  );

  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        summary: 'Up or not; database reachability and projection lag for staff',
        response: { 200: HealthAnswer, 503: HealthAnswer },
      },
    },
    async (request, reply) => {
      let dbOk = true;
      const staff = await isStaffCaller(request);
      try {
        await pingDatabase(ledger.database.db);
      } catch {
        dbOk = false;
      }
      if (!staff) return reply.status(dbOk ? 200 : 503).send({ status: dbOk ? 'ok' : 'degraded' });
      const projections = dbOk ? await projectionLags(ledger, HEALTH_LAG_CAP).catch(() => []) : [];
      const body = {
        status: dbOk ? ('ok' as const) : ('degraded' as const),
        database: { kind: ledger.database.kind, ok: dbOk },
        eventStore: ledger.store.name,
        projections,
      };
      return reply.status(dbOk ? 200 : 503).send(body);
    },
  );
};

export default healthProbes;
