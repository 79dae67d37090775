import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerContext } from '../context.js';
import { notificationsDecider } from '../../ledger/notifications/notifications.js';
import { bearer, createTestApp, registeredCustomer, solveCaptcha, type TestApp } from '../../tests/support/test-app.js';

/** Operators' view of one instance: client address behind a proxy, request ids, metrics, probes. */
describe('operations', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => {});
    t = undefined;
  });

  /** Signs in from `remoteAddress` with the given X-Forwarded-For and answers the address login history shows. */
  async function signInAddress(app: TestApp, email: string, remoteAddress: string, forwardedFor: string): Promise<string> {
    const from = { remoteAddress, headers: { 'x-forwarded-for': forwardedFor } };
    const res = await app.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      ...from,
      payload: { email, password: 'correct horse 1' },
    });
    expect(res.statusCode).toBe(200);
    const logged = await app.app.inject({
      method: 'POST',
      url: '/functions/v1/log-login-details',
      ...from,
      headers: { ...from.headers, ...bearer(res.json().access_token) },
      payload: {},
    });
    expect(logged.statusCode).toBe(200);
    const history = await app.app.inject({
      method: 'GET',
      url: '/functions/v1/get-login-history',
      headers: bearer(res.json().access_token),
    });
    return history.json()[0].ip_address;
  }

  it('without TRUST_PROXY the socket address is the client, and X-Forwarded-For is ignored (no spoofing past the limits)', async () => {
    t = await createTestApp();
    await registeredCustomer(t, 'direct@example.com');
    expect(await signInAddress(t, 'direct@example.com', '10.9.9.9', '203.0.113.7')).toBe('10.9.9.9');
    // A client that sends a new X-Forwarded-For each time still meets one limit (/auth/v1/recover: 10 a minute).
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/recover',
        remoteAddress: '198.51.100.50',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
        payload: { email: `nobody${i}@example.com` },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10)).not.toContain(429);
    expect(codes[10]).toBe(429);
  });

  it('with TRUST_PROXY as CIDR blocks the address the trusted proxy forwards is the client', async () => {
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    await registeredCustomer(t, 'proxied@example.com');
    expect(await signInAddress(t, 'proxied@example.com', '10.9.9.9', '203.0.113.7')).toBe('203.0.113.7');
    // From an address outside the list the header is not believed.
    expect(await signInAddress(t, 'proxied@example.com', '192.0.2.1', '203.0.113.8')).toBe('192.0.2.1');
    // Clients behind the one proxy have limits of their own.
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/recover',
        remoteAddress: '10.1.1.1',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
        payload: { email: `nobody${i}@example.com` },
      });
      expect(res.statusCode).not.toBe(429);
    }
  });

  it('with TRUST_PROXY as a hop count only that many addresses from the right are believed', async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    await registeredCustomer(t, 'hops@example.com');
    // The client wrote 198.51.100.1 itself; the one trusted proxy appended what it saw.
    expect(await signInAddress(t, 'hops@example.com', '172.16.0.2', '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    // What docs/operations.md says events record: the sign-in's address, none at registration.
    const user = await t.app.ledger.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'hops@example.com')
      .executeTakeFirstOrThrow();
    const events = await t.app.ledger.store.readStream(`user-${user.id}`);
    const registered = events.find((e) => e.type === 'user.registered')!;
    expect(JSON.stringify(registered.data)).not.toMatch(/"ip/);
    expect(registered.metadata).not.toHaveProperty('ip');
    expect(events.filter((e) => e.type === 'user.signed-in').map((e) => (e.data as { ipAddress: string }).ipAddress)).toContain(
      '203.0.113.9',
    );
  });

  it('takes a valid X-Request-Id from a trusted proxy, returns it and makes it the correlation id of the events the request causes', async () => {
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      remoteAddress: '10.2.2.2',
      headers: { 'x-request-id': 'edge-7f3a9c21-signup' },
      payload: {
        email: 'traced@example.com',
        password: 'correct horse 1',
        data: { full_name: 'Traced' },
        gotrue_meta_security: { captcha_token: await solveCaptcha(t.app) },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('edge-7f3a9c21-signup');
    const events = await t.app.ledger.store.readAll({ maxCount: 1_000 });
    const caused = events.filter((e) => e.metadata.correlationId === 'edge-7f3a9c21-signup');
    expect(caused.map((e) => e.type)).toContain('user.registered');

    // A client's own id (not through a trusted proxy) is never taken: it would choose the events' correlation id.
    const direct = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/recover',
      remoteAddress: '192.0.2.60',
      headers: { 'x-request-id': 'client-chosen-id' },
      payload: { email: 'traced@example.com' },
    });
    expect(direct.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // An id unfit for logs is replaced by a new one, which is returned.
    const bad = await t.app.inject({
      method: 'GET',
      url: '/livez',
      remoteAddress: '10.2.2.2',
      headers: { 'x-request-id': 'two words "and" quotes' },
    });
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers['x-request-id']).not.toBe(bad.headers['x-request-id']);
  });

  it('serves Prometheus metrics by route, command, projection and process after traffic', async () => {
    t = await createTestApp();
    await registeredCustomer(t, 'metered@example.com');
    await t.app.inject({ method: 'GET', url: '/no/such/route' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/auth\/v1\/signup",status_code="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1/);
    expect(text).toMatch(/ledger_command_duration_seconds_count\{type="Register",outcome="accepted"\} 1/);
    expect(text).toMatch(/ledger_projection_lag_events\{projection="balances"\} 0/);
    // On PostgreSQL, its pool: connections open and none waiting after the traffic.
    if (t.database.kind === 'postgres') {
      expect(Number(/ledger_db_pool_connections\{state="total"\} (\d+)/.exec(text)?.[1])).toBeGreaterThan(0);
      // The projectors poll beside the scrape, so one scrape may catch a query queued for a
      // moment; once the traffic is over the queue empties.
      const app = t.app;
      const waiting = async () => /ledger_db_pool_connections\{state="waiting"\} (\d+)/.exec((await app.inject('/metrics')).body)?.[1];
      await expect.poll(waiting).toBe('0');
    }
    for (const name of [
      'ledger_append_conflicts_total',
      'ledger_command_retries_total',
      'ledger_event_store_errors_total',
      'process_cpu_user_seconds_total',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });

  it('without TRUST_PROXY no X-Request-Id is taken from anyone', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/livez', remoteAddress: '10.2.2.2', headers: { 'x-request-id': 'edge-abc-1' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('in production /metrics needs METRICS_TOKEN, and /readyz without it says ready or not ready only', async () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'j'.repeat(40),
      DATA_ENCRYPTION_KEY: 'a'.repeat(64),
      PUBLIC_URL: 'https://wallet.example.com',
      MAIL_OUTBOX: 'true',
    };
    const token = 'operators-only-token-1234';
    t = await createTestApp({ ...production, METRICS_TOKEN: token });
    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('http_request_duration_seconds');
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer('wrong-token-wrong-token') })).statusCode).toBe(401);
    const operator = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(token) });
    expect(operator.statusCode).toBe(200);
    expect(operator.body).toContain('# TYPE http_request_duration_seconds histogram');

    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz', headers: bearer(token) })).json()).toMatchObject({
      status: 'ready',
      problems: [],
      eventStore: { name: 'postgres' },
    });
    await t.close();

    // Without a token set, production shows the metrics to nobody.
    t = await createTestApp(production);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('counts an append that lost a race to another instance, and its retry', async () => {
    t = await createTestApp();
    // A second instance's ledger on the same database, writing to the same stream in between.
    const other = await createLedgerContext(
      { ...t.app.ledger.config, PROJECTION_WAIT_MS: 0 },
      { database: t.database, startProjections: false },
    );
    const id = randomUUID();
    const ctx = { actor: { id, role: 'USER' } };
    const markAll = () => ({ type: 'MarkAllRead' as const, upTo: new Date().toISOString() });
    try {
      await t.app.ledger.execute(notificationsDecider, id, markAll(), ctx);
      await other.execute(notificationsDecider, id, markAll(), ctx);
      // This instance's cached revision is now behind: the append conflicts, is retried and lands.
      expect((await t.app.ledger.execute(notificationsDecider, id, markAll(), ctx)).events).toHaveLength(1);
    } finally {
      await other.close();
    }
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/ledger_append_conflicts_total\{category="notifications"\} 1\n/);
    expect(text).toMatch(/ledger_command_retries_total\{category="notifications"\} 1\n/);
    expect(text).toMatch(/ledger_command_duration_seconds_count\{type="MarkAllRead",outcome="accepted"\} 2\n/);
  });

  it('/livez answers while the database is down; /readyz and the event store error count tell the outage', async () => {
    t = await createTestApp();
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ status: 'ready', problems: [] });
    await t.database.release();
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().status).toBe('not ready');
    expect(ready.json().problems.join('\n')).toMatch(/^database: /m);
    expect(ready.json().problems.join('\n')).toMatch(/^event store \(postgres\): /m);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(
      /ledger_event_store_errors_total\{operation="headPosition"\} [1-9]/,
    );
  });

  it('/readyz fails while a read model is more than READY_MAX_LAG events behind the log', async () => {
    t = await createTestApp({ READY_MAX_LAG: '1' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await t.app.ledger.projector.stop();
    const noted = (n: number) => ({
      eventId: randomUUID(),
      type: 'test.noted',
      version: 1,
      data: { n },
      metadata: {
        actorId: 'test',
        actorRole: 'SYSTEM',
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: new Date().toISOString(),
      },
    });
    await t.app.ledger.store.append(`test-${randomUUID()}`, [noted(1)], { expectedRevision: 'any' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await t.app.ledger.store.append(`test-${randomUUID()}`, [noted(2)], { expectedRevision: 'any' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().problems).toContain('projection users: more than 1 events behind the log');
  });
});
