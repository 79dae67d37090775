import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { redactUrl } from '../../server/plugins/security.js';

/** Security headers, the content security policy and cross-origin refusal, as a browser sees them. */
describe('web security', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The built client under this policy is checked in the browser: tests/e2e/security.e2e.ts.
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const csp = (header: string | string[] | number | undefined) =>
    Object.fromEntries(
      String(header)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );

  it('every answer carries helmet headers and a CSP without inline or foreign scripts', async () => {
    for (const url of ['/healthz', '/api/v1/transactions', '/login']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['strict-transport-security'], url).toMatch(/max-age=31536000/);
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
      const policy = csp(res.headers['content-security-policy']);
      expect(policy['script-src'], url).toEqual(["'self'"]);
      expect(policy['object-src'], url).toEqual(["'none'"]);
      expect(policy['frame-ancestors'], url).toEqual(["'none'"]);
      expect(policy['connect-src'], url).toEqual(["'self'"]);
      expect(policy['default-src'], url).toEqual(["'self'"]);
    }
  });

  it('sends no CORS header to a foreign origin, and a preflight from one is not granted', async () => {
    const origin = 'https://evil.example';
    const get = await t.app.inject({ method: 'GET', url: '/functions/v1/crypto-prices', headers: { origin } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/functions/v1/create-withdrawal-request',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('keeps tokens in URLs out of the log', () => {
    expect(redactUrl('/realtime/v1?token=eyJhbGciOi.abc.def')).toBe('/realtime/v1?token=[redacted]');
    expect(redactUrl('/auth/v1/verify?type=signup&token=abc-123')).toBe('/auth/v1/verify?type=signup&token=[redacted]');
    expect(redactUrl('/api/v1/transactions?page=2')).toBe('/api/v1/transactions?page=2');
  });
});
