import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerErrorHandling } from './errors.js';
import { EventStoreUnavailableError } from '../../ledger/event-store/port.js';
import { DatabaseBusyError } from '../db/pool.js';

/**
 * A database or event store that does not answer is the service's outage, not the client's
 * mistake and not a bug: 503 with Retry-After, in words a customer can act on, never internals.
 */
describe('an outage answers 503', () => {
  let app: FastifyInstance;
  const thrown = new Map<string, unknown>([
    ['event-store', new EventStoreUnavailableError('eventstoredb', new Error('14 UNAVAILABLE: No connection established'))],
    ['refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['shut-down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['too-many', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['pool-busy', new DatabaseBusyError(new Error('timeout exceeded when trying to connect'))],
    // A failover: the connection closed under the query (node-postgres gives no code), or reached a standby.
    ['connection-lost', new Error('Connection terminated unexpectedly')],
    ['not-queryable', new Error('Client has encountered a connection error and is not queryable')],
    ['read-only', Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' })],
    ['bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['constraint', Object.assign(new Error('duplicate key value violates unique constraint "users_pkey"'), { code: '23505' })],
  ]);
  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/:kind', async (request) => {
      throw thrown.get((request.params as { kind: string }).kind);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  for (const kind of ['event-store', 'refused', 'shut-down', 'too-many', 'pool-busy', 'connection-lost', 'not-queryable', 'read-only']) {
    it(`${kind}: 503, try again`, async () => {
      const res = await app.inject({ method: 'GET', url: `/${kind}` });
      expect([res.statusCode, res.json(), res.headers['retry-after']]).toEqual([
        503,
        { error: 'The service is temporarily unavailable. Please try again in a moment.' },
        '5',
      ]);
    });
  }

  for (const kind of ['bug', 'constraint']) {
    it(`${kind}: still a 500 that shows no internals`, async () => {
      const res = await app.inject({ method: 'GET', url: `/${kind}` });
      expect([res.statusCode, res.json()]).toEqual([500, { error: 'An unexpected error occurred.' }]);
    });
  }
});
