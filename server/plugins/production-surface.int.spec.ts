import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';
import { DOCS_STAFF_ONLY } from './production-surface.js';

const production = {
  NODE_ENV: 'production',
  JWT_SECRET: 'j'.repeat(40),
  DATA_ENCRYPTION_KEY: 'a'.repeat(64),
  PUBLIC_URL: 'https://wallet.example.com',
  MAIL_OUTBOX: 'true',
};

/** A staff member who has set their own password (a one-time password only reaches the change page). */
async function staffToken(t: TestApp): Promise<string> {
  const { password } = await createStaff(t.app.authServices.accounts, {
    email: 'docs.worker@example.com',
    fullName: 'Docs Worker',
    role: 'WORKER',
  });
  const first = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    payload: { email: 'docs.worker@example.com', password },
  });
  const token = first.json().access_token as string;
  const changed = await t.app.inject({
    method: 'PUT',
    url: '/auth/v1/user',
    headers: bearer(token),
    payload: { password: 'worker own 77' },
  });
  expect(changed.statusCode, changed.body).toBe(200);
  return token;
}

describe('production surface', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(production);
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows /docs and /docs/json to a signed-in staff member only', async () => {
    for (const url of ['/docs', '/docs/json', '/docs/static/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([res.statusCode, res.json()], url).toEqual([401, { error: DOCS_STAFF_ONLY }]);
    }
    const customer = await registeredCustomer(t, 'docs.customer@example.com');
    const asCustomer = await t.app.inject({ method: 'GET', url: '/docs/json', headers: bearer(customer.access_token) });
    expect(asCustomer.statusCode).toBe(401);
    expect(asCustomer.body).not.toContain('/auth/v1');

    const staff = await t.app.inject({ method: 'GET', url: '/docs/json', headers: bearer(await staffToken(t)) });
    expect(staff.statusCode).toBe(200);
    expect(staff.json().paths).toHaveProperty('/auth/v1/token');
  });

  it('tells an anonymous caller of /healthz only whether the service is ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect([res.statusCode, res.json()]).toEqual([200, { status: 'ok' }]);
  });
});

describe('production surface with DOCS_PUBLIC=true', () => {
  it('shows /docs/json to anyone', async () => {
    const t = await createTestApp({ ...production, DOCS_PUBLIC: 'true' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
      expect(res.statusCode).toBe(200);
      expect(res.json().paths).toHaveProperty('/healthz');
    } finally {
      await t.close();
    }
  });
});
