import client from 'prom-client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { METRICS_TOKEN_NEEDED } from './operator-access.js';
import type { LedgerObserver } from '../context.js';

/**
 * The process's own metrics (CPU, memory, heap, event loop, GC), collected once per process:
 * each collector installs observers that stay for the life of the process.
 */
let processRegistry: client.Registry | undefined;
function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The app's Prometheus metrics, on a registry of its own (so two apps in one process, as in
 * the tests, do not share counters). Names are listed in docs/operations.md, "Observe".
 */
export class Metrics implements LedgerObserver {
  readonly registry = new client.Registry();
  readonly httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly commands = new client.Histogram({
    name: 'ledger_command_duration_seconds',
    help: 'Commands by type and outcome (accepted, replayed, unchanged, refused, conflict, error)',
    labelNames: ['type', 'outcome'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly conflicts = new client.Counter({
    name: 'ledger_append_conflicts_total',
    help: 'Appends refused because another writer moved the stream first, by stream category',
    labelNames: ['category'] as const,
    registers: [this.registry],
  });
  readonly retries = new client.Counter({
    name: 'ledger_command_retries_total',
    help: 'Commands decided again after an append conflict, by stream category',
    labelNames: ['category'] as const,
    registers: [this.registry],
  });
  readonly storeErrors = new client.Counter({
    name: 'ledger_event_store_errors_total',
    help: 'Event store calls that failed (not conflicts), by operation',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  readonly projectionFailures = new client.Counter({
    name: 'ledger_projection_failures_total',
    help: 'Pages of the log that failed to apply to the read tables (retried)',
    registers: [this.registry],
  });

  /** `ledger_projection_lag_events{projection}`, worked out when scraped (bounded, see projection-lag.ts). */
  projectionLag(collect: () => Promise<{ name: string; lag: number }[]>): void {
    new client.Gauge({
      name: 'ledger_projection_lag_events',
      help: 'Events in the log not yet applied to each read model (counted up to READY_MAX_LAG + 1)',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { name, lag } of await collect().catch(() => [])) this.set({ projection: name }, lag);
      },
    });
  }

  /**
   * `ledger_db_pool_connections{state}` of a PostgreSQL pool, read when scraped: `total` and
   * `idle` connections, and `waiting` requests queued for one. Through a failover, total drops
   * as dead connections are closed and waiting rises while no primary answers.
   */
  databasePool(pool: { totalCount: number; idleCount: number; waitingCount: number }): void {
    new client.Gauge({
      name: 'ledger_db_pool_connections',
      help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  command(type: string, outcome: string, seconds: number): void {
    this.commands.observe({ type, outcome }, seconds);
  }

  conflict(category: string, retried: boolean): void {
    this.conflicts.inc({ category });
    if (retried) this.retries.inc({ category });
  }

  storeError(operation: string): void {
    this.storeErrors.inc({ operation });
  }

  /** Times every request by its route pattern (never the raw URL: ids would make endless series) and serves `/metrics`. */
  register(app: FastifyInstance, mayRead: (request: FastifyRequest) => boolean = () => true): void {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!mayRead(request)) return reply.status(401).header('cache-control', 'no-store').send({ error: METRICS_TOKEN_NEEDED });
      const body = `${await processMetrics().metrics()}\n${await this.registry.metrics()}`;
      return reply.header('content-type', this.registry.contentType).header('cache-control', 'no-store').send(body);
    });
  }
}
