import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';

/**
 * The routes anyone may call without a session. Every other route answers an anonymous call
 * 401 before it reads the body, so a stranger learns nothing of what it expects.
 */
const PUBLIC_ROUTES = new Set([
  'GET /livez',
  'GET /readyz',
  'GET /healthz',
  'GET /metrics',
  'GET /docs',
  'GET /docs/json',
  'GET /docs/yaml',
  'GET /docs/static/*',
  'GET /docs/static/index.html',
  'GET /docs/static/swagger-initializer.js',
  'GET /realtime/v1',
  'POST /auth/v1/signup',
  'GET /auth/v1/verify',
  'POST /auth/v1/verify',
  'POST /auth/v1/token',
  'POST /auth/v1/otp',
  'POST /auth/v1/recover',
  'POST /auth/v1/resend',
  'GET /functions/v1/captcha-challenge',
  'POST /functions/v1/verify-recaptcha',
  'GET /functions/v1/crypto-prices',
  // Opened by an <img> and a new tab: the logo is no secret; the document link is its own credential.
  'GET /api/v1/buying-links/:id/logo',
  'GET /api/v1/kyc-documents',
  'GET /dev/mailbox',
  'GET /dev/mailbox.json',
]);

describe('access before the body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers an anonymous or forged call to every non-public route with 401, whatever body it sends', async () => {
    const routes = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThan(80);
    const guarded = routes.filter((r) => !PUBLIC_ROUTES.has(r));
    const answers: string[] = [];
    for (const route of guarded) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/:[A-Za-z]+/g, 'not-a-uuid');
      const withBody = method !== 'GET' && method !== 'DELETE';
      for (const authorization of [undefined, 'Bearer forged.token.value']) {
        const res = await t.app.inject({
          method: method as 'POST',
          url: `${url}?page=-1&junk=1`,
          headers: { ...(authorization ? { authorization } : {}), ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: '{"junk": [1, {"deeper": true}], "userId": 7}' } : {}),
        });
        answers.push(`${route} ${authorization ? 'forged' : 'anonymous'} -> ${res.statusCode} ${res.json().code ?? res.body}`);
      }
    }
    expect(answers.filter((a) => !a.endsWith('-> 401 not_authenticated'))).toEqual([]);
  });

  it('lists only routes that exist as public', () => {
    const routes = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    expect([...PUBLIC_ROUTES].filter((r) => !routes.has(r))).toEqual([]);
  });

  it("refuses a customer on a staff-only route with the role's 403 before reading the body, and still checks the body of a caller it lets in", async () => {
    const { access_token } = await registeredCustomer(t, 'route.access@example.com');
    const junk = { headers: { ...bearer(access_token), 'content-type': 'application/json' }, payload: '{"junk": true}' };
    const claim = await t.app.inject({ method: 'POST', url: '/functions/v1/claim-user', ...junk });
    expect([claim.statusCode, claim.json()]).toEqual([403, { error: 'Access Denied: Only workers can search for and claim users.' }]);
    const queue = await t.app.inject({ method: 'GET', url: '/api/v1/support-tickets/unassigned?page=-1', headers: bearer(access_token) });
    expect([queue.statusCode, queue.json()]).toEqual([403, { error: 'Access Denied: Only managers can see the ticket queue.' }]);
    const own = await t.app.inject({ method: 'POST', url: '/functions/v1/get-user-profile-details', ...junk });
    expect(own.statusCode).toBe(400);
  });
});
