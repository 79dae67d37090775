import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createTestApp, type TestApp } from '../../tests/support/test-app.js';
import { createTestDatabase } from '../../tests/support/test-database.js';
import { loadConfig } from '../config.js';
import { createLedgerContext } from '../context.js';
import { healthRoutes } from './health.js';

/** Nothing listens on port 1: the EventStoreDB client's calls reject at once with UNAVAILABLE. */
const UNREACHABLE_EVENTSTORE = 'esdb://127.0.0.1:1?tls=false';

const noted = (n: number) => ({ eventId: randomUUID(), type: 'test.noted', version: 1, data: { n }, metadata: { actorId: 'test', actorRole: 'SYSTEM', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() } });

describe('/readyz reports the event store in use', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => {});
    t = undefined;
  });

  it('names the store, its head position and each read model\'s lag behind it', async () => {
    t = await createTestApp();
    await t.app.ledger.projector.stop();
    const { position } = await t.app.ledger.store.append(`test-${randomUUID()}`, [noted(1)], { expectedRevision: 'any' });
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.eventStore).toEqual({ name: 'postgres', reachable: true, head: `${position.commit}/${position.prepare}`, live: { connected: true, resubscribing: false } });
    expect(body.projections.map((p: { name: string }) => p.name)).toContain('users');
    for (const p of body.projections) expect(p).toMatchObject({ lag: 1, lagCapped: false });
  });

  it('answers 503 naming EventStoreDB when it does not answer, and tells the live subscription is resubscribing', async () => {
    // The app's start reads the log, so an instance whose EventStoreDB is down from the start
    // does not come up: the probe is tried on a running ledger whose store stopped answering.
    const database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://wallet.test', EVENTSTORE_URL: UNREACHABLE_EVENTSTORE });
    const ledger = await createLedgerContext(config, { database });
    ledger.projector.on('failed', () => {});
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(healthRoutes(ledger));
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.status).toBe('not ready');
      expect(body.problems.join('\n')).toMatch(/^event store \(eventstoredb\): .*UNAVAILABLE/m);
      expect(body.eventStore).toMatchObject({ name: 'eventstoredb', reachable: false, head: null, live: { connected: false } });
      expect(body.eventStore.error).toMatch(/UNAVAILABLE/);
      // The projections' live subscription failed too; their loop subscribes again with backoff.
      const deadline = Date.now() + 10_000;
      while (!ledger.store.status().resubscribing && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const again = (await app.inject({ method: 'GET', url: '/readyz' })).json();
      expect(again.eventStore.live).toMatchObject({ connected: false, resubscribing: true });
      expect(again.eventStore.live.lastError).toMatch(/UNAVAILABLE/);
    } finally {
      await app.close();
      await ledger.close();
      await database.close();
    }
  }, 30_000);
});
