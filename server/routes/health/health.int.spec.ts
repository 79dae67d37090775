import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, ipFor, solveCaptcha, type TestApp } from '../../../tests/support/test-app.js';

/** Nothing listens on port 1: the EventStoreDB client's calls reject at once with UNAVAILABLE. */
const UNREACHABLE_EVENTSTORE = 'esdb://127.0.0.1:1?tls=false';

const noted = (n: number) => ({
  eventId: randomUUID(),
  type: 'test.noted',
  version: 1,
  data: { n },
  metadata: { actorId: 'test', actorRole: 'SYSTEM', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() },
});

describe('/readyz reports the event store in use', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => {});
    t = undefined;
  });

  it("names the store, its head position and each read model's lag behind it", async () => {
    t = await createTestApp();
    await t.app.ledger.projector.stop();
    const { position } = await t.app.ledger.store.append(`test-${randomUUID()}`, [noted(1)], { expectedRevision: 'any' });
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.eventStore).toEqual({
      name: 'postgres',
      reachable: true,
      head: `${position.commit}/${position.prepare}`,
      live: { connected: true, resubscribing: false },
    });
    expect(body.projections.map((p: { name: string }) => p.name)).toContain('users');
    for (const p of body.projections) expect(p).toMatchObject({ lag: 1, lagCapped: false });
  });

  it('an app whose EventStoreDB is down from the start comes up, lives, and answers 503 naming it until it answers', async () => {
    t = await createTestApp({ EVENTSTORE_URL: UNREACHABLE_EVENTSTORE });
    t.app.ledger.projector.on('failed', () => {});
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body.status).toBe('not ready');
    expect(body.problems.join('\n')).toMatch(/^event store \(eventstoredb\): .*UNAVAILABLE/m);
    expect(body.eventStore).toMatchObject({ name: 'eventstoredb', reachable: false, head: null, live: { connected: false } });
    expect(body.eventStore.error).toMatch(/UNAVAILABLE/);
    // The projections' live subscription failed too; their loop subscribes again with backoff.
    const deadline = Date.now() + 10_000;
    while (!t.app.ledger.store.status().resubscribing && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const again = (await t.app.inject({ method: 'GET', url: '/readyz' })).json();
    expect(again.eventStore.live).toMatchObject({ connected: false, resubscribing: true });
    expect(again.eventStore.live.lastError).toMatch(/UNAVAILABLE/);
    // A sign-up, which appends to the log, is refused with a clear answer, not left hanging.
    const email = 'esdb-down@example.com';
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      remoteAddress: ipFor(email),
      payload: {
        email,
        password: 'correct horse 1',
        data: { full_name: 'Down Store' },
        gotrue_meta_security: { captcha_token: await solveCaptcha(t.app, ipFor(email)) },
      },
    });
    expect([signUp.statusCode, signUp.json(), signUp.headers['retry-after']]).toEqual([
      503,
      { error: 'The service is temporarily unavailable. Please try again in a moment.' },
      '5',
    ]);
  }, 30_000);
});
