import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/test-app.js';

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };

/** Operations whose answers are not declared yet (this list only shrinks). */
const UNDECLARED = new Set<string>([
  'GET /dev/mailbox',
  'POST /functions/v1/ban-user',
  'POST /functions/v1/unban-user',
  'POST /functions/v1/list-approvals',
  'POST /functions/v1/decide-approval',
  'GET /api/v1/users/{userId}/approvals',
  'POST /functions/v1/update-transaction',
  'GET /api/v1/users/{userId}/transactions',
  'POST /functions/v1/set-dashboard-note',
  'POST /functions/v1/reset-user-password',
  'POST /functions/v1/remove-user-mfa',
  'POST /functions/v1/update-all-user-permissions',
  'POST /functions/v1/set-user-wallet-address',
  'POST /functions/v1/add-transaction',
  'GET /api/v1/users/{userId}/payment-methods',
  'GET /api/v1/users/{userId}/payment-methods/{id}',
  'GET /api/v1/buying-links',
  'POST /api/v1/buying-links',
  'DELETE /api/v1/buying-links/{id}',
  'GET /api/v1/buying-links/{id}/logo',
  'GET /api/v1/users/{userId}/event-trail',
  'GET /api/v1/admin/staff-actions',
  'POST /functions/v1/search-user-by-email',
  'POST /functions/v1/claim-user',
  'POST /functions/v1/list-my-users',
  'POST /functions/v1/check-user-ownership',
  'POST /functions/v1/check-manager-user-access',
  'POST /functions/v1/create-worker-for-manager',
  'POST /functions/v1/reset-worker-password',
  'POST /functions/v1/get-users-for-manager',
  'POST /api/v1/rpc/get_worker_info',
  'POST /api/v1/rpc/create_announcement',
  'POST /api/v1/rpc/get_worker_manager',
  'GET /api/v1/announcements',
]);

describe('the OpenAPI description', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('gives every operation the schema of its answer and of its refusals', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const missing: string[] = [];
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const described = (prefix: RegExp) =>
          Object.entries(op.responses ?? {}).some(([status, answer]) => prefix.test(status) && Object.values(answer.content ?? {}).some((c) => c.schema !== undefined));
        const name = `${method.toUpperCase()} ${path}`;
        const complete = described(/^[23]/) && described(/^4/);
        if (!complete && !UNDECLARED.has(name)) missing.push(name);
        if (complete && UNDECLARED.has(name)) missing.push(`${name} (declared now: take it off the list)`);
      }
    }
    expect(operations).toBeGreaterThan(90);
    expect(missing).toEqual([]);
  });

  it('describes a refusal as the error shape the client reads', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const refusal = doc.paths['/functions/v1/crypto-prices'].get.responses['4XX'] ?? doc.paths['/functions/v1/crypto-prices'].get.responses['4xx'];
    expect(refusal.content['application/json'].schema).toMatchObject({ type: 'object', required: ['error'], properties: { error: { type: 'string' } } });
  });
});
