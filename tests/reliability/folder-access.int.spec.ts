import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { buildWorld, type Role, type World } from './world.js';
import { ONLY_MANAGERS, PROFILE_ROLE_DENIED } from '../../server/shared/access.js';
import { PROFILE_MESSAGES } from '../../server/routes/staff-profile/shared.js';
import { APPROVAL_MESSAGES } from '../../ledger/wallet/approvals.js';
import { CUSTOMERS_ONLY } from '../../server/routes/settings/notification-preferences.js';

/**
 * The role gates of the staff folders (their autohooks.ts, or a route's own `config.auth` where a
 * folder mixes customers and staff) are checked at onRequest: a caller of the wrong role who sends
 * an invalid body gets the role's 403, not a 400 that describes the schema; an anonymous one gets
 * 401; the right role still reaches the schema (400 for the same body) and the handler.
 */

type Signed = Exclude<Role, 'anonymous'>;

interface Gate {
  folder: string;
  method: InjectOptions['method'];
  url: string;
  /** A request the route's schema refuses. */
  invalid: { query?: Record<string, string>; payload?: unknown; headers?: Record<string, string> };
  /** Who is refused, and with which text. */
  refused: Signed[];
  text: string;
  /** A role the gate lets through. */
  admitted: Signed;
}

const NOT_A_UUID = 'not-a-uuid';
const CUSTOMER = ['USER'] as const satisfies Signed[];
const STAFF = ['WORKER', 'MANAGER', 'ADMIN'] as const satisfies Signed[];

const GATES: Gate[] = [
  // staff-users/autohooks.ts
  ...(['ban-user', 'unban-user'] as const).map((name): Gate => ({
    folder: 'staff-users',
    method: 'POST',
    url: `/functions/v1/${name}`,
    invalid: { payload: { targetUserId: NOT_A_UUID } },
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  })),
  {
    folder: 'staff-users',
    method: 'POST',
    url: '/functions/v1/update-transaction',
    invalid: { payload: { targetUserId: NOT_A_UUID, transactionId: 7, status: 'Lost' } },
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  },
  ...(['transactions', 'event-trail'] as const).map((tab): Gate => ({
    folder: 'staff-users',
    method: 'GET',
    url: `/api/v1/users/${NOT_A_UUID}/${tab}`,
    invalid: {},
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  })),
  // staff-profile/autohooks.ts (remove-user-mfa: its own config, managers and admins)
  ...(
    [
      ['set-dashboard-note', { userId: NOT_A_UUID, noteContent: 42 }],
      ['reset-user-password', { targetUserId: NOT_A_UUID }],
      ['update-all-user-permissions', { targetUserId: NOT_A_UUID, permissions: { can_send: 'yes' } }],
      ['set-user-wallet-address', { targetUserId: NOT_A_UUID, newAddress: ['x'] }],
      ['add-transaction', { targetUserId: NOT_A_UUID, isHidden: 'no' }],
    ] as const
  ).map(([name, payload]): Gate => ({
    folder: 'staff-profile',
    method: 'POST',
    url: `/functions/v1/${name}`,
    invalid: { payload },
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  })),
  {
    folder: 'staff-profile',
    method: 'POST',
    url: '/functions/v1/remove-user-mfa',
    invalid: { payload: { targetUserId: NOT_A_UUID } },
    refused: ['USER', 'WORKER'],
    text: PROFILE_MESSAGES.mfaRoles,
    admitted: 'MANAGER',
  },
  ...[`/api/v1/users/${NOT_A_UUID}/payment-methods`, `/api/v1/users/${NOT_A_UUID}/payment-methods/${randomUUID()}`].map((url): Gate => ({
    folder: 'staff-profile',
    method: 'GET',
    url,
    invalid: {},
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  })),
  // approvals/autohooks.ts (list-approvals and decide-approval: their own config)
  {
    folder: 'approvals',
    method: 'GET',
    url: `/api/v1/users/${NOT_A_UUID}/approvals`,
    invalid: {},
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  },
  {
    folder: 'approvals',
    method: 'POST',
    url: '/functions/v1/list-approvals',
    invalid: { payload: { scope: 'everything' } },
    refused: [...CUSTOMER],
    text: 'Access Denied: Only staff can see approval requests.',
    admitted: 'WORKER',
  },
  {
    folder: 'approvals',
    method: 'POST',
    url: '/functions/v1/decide-approval',
    invalid: { payload: { requestId: NOT_A_UUID, decision: 'maybe' } },
    refused: ['USER', 'WORKER'],
    text: APPROVAL_MESSAGES.worker,
    admitted: 'MANAGER',
  },
  // kyc/autohooks.ts (submit-kyc-data: its own config, customers only)
  ...(['approve-kyc', 'get-kyc-details'] as const).map((name): Gate => ({
    folder: 'kyc',
    method: 'POST',
    url: `/functions/v1/${name}`,
    invalid: { payload: { targetUserId: NOT_A_UUID } },
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  })),
  {
    folder: 'kyc',
    method: 'POST',
    url: '/functions/v1/submit-kyc-data',
    invalid: { payload: '{"not": json', headers: { 'content-type': 'application/json' } },
    refused: [...STAFF],
    text: 'Only customers submit identity verification.',
    admitted: 'USER',
  },
  // staff-workers: per-route config (the folder also serves a customer's own buying links and a public logo)
  {
    folder: 'staff-workers',
    method: 'POST',
    url: '/api/v1/buying-links',
    invalid: { payload: { userId: NOT_A_UUID, logo: 'a picture' } },
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  },
  {
    folder: 'staff-workers',
    method: 'DELETE',
    url: `/api/v1/buying-links/${randomUUID()}`,
    invalid: { query: { userId: NOT_A_UUID } },
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  },
  {
    folder: 'staff-workers',
    method: 'GET',
    url: '/api/v1/announcements',
    invalid: { query: { manager_id: NOT_A_UUID } },
    refused: [...CUSTOMER],
    text: 'Access Denied: These announcements are not for you.',
    admitted: 'WORKER',
  },
  {
    folder: 'staff-workers',
    method: 'POST',
    url: '/functions/v1/reset-worker-password',
    invalid: { payload: { workerId: NOT_A_UUID } },
    refused: ['USER', 'WORKER'],
    text: ONLY_MANAGERS,
    admitted: 'MANAGER',
  },
  ...(
    [
      ['check-user-ownership', { profileUserId: NOT_A_UUID }],
      ['check-manager-user-access', { targetUserId: NOT_A_UUID }],
    ] as const
  ).map(([name, payload]): Gate => ({
    folder: 'staff-workers',
    method: 'POST',
    url: `/functions/v1/${name}`,
    invalid: { payload },
    refused: [...CUSTOMER],
    text: PROFILE_ROLE_DENIED,
    admitted: 'WORKER',
  })),
  // settings: the notification preferences are a customer's own
  {
    folder: 'settings',
    method: 'PUT',
    url: '/api/v1/notification-preferences',
    invalid: { payload: { newSignIn: 'sometimes' } },
    refused: [...STAFF],
    text: CUSTOMERS_ONLY,
    admitted: 'USER',
  },
  // tickets: per-route config (the folder serves customers and staff)
  {
    folder: 'tickets',
    method: 'POST',
    url: '/functions/v1/create-support-ticket',
    invalid: { payload: { subject: 'Help', urgency: 'extreme' } },
    refused: [...STAFF],
    text: 'Only customers open support tickets.',
    admitted: 'USER',
  },
  {
    folder: 'tickets',
    method: 'POST',
    url: '/functions/v1/get-worker-tickets',
    invalid: { payload: { workerId: NOT_A_UUID, status: 'lost' } },
    refused: [...CUSTOMER],
    text: ONLY_MANAGERS,
    admitted: 'WORKER',
  },
];

describe('folder access: the role gate of the staff folders comes before the body', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await buildWorld(t, 'folders');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const call = async (gate: Gate, role: Role) =>
    t.app.inject({
      method: gate.method,
      url: gate.url,
      query: gate.invalid.query,
      headers: { ...(await w.headers(role)), ...gate.invalid.headers },
      ...(gate.invalid.payload !== undefined ? { payload: gate.invalid.payload as InjectOptions['payload'] } : {}),
    });

  it('names only routes the app serves, each once', () => {
    const served = new Set(t.app.routeInventory.map((r) => `${r.method} ${r.url.replace(/:[A-Za-z]+/g, ':')}`));
    const gated = new Set(GATES.map((g) => `${g.method} ${g.url.replace(NOT_A_UUID, ':').replace(/[0-9a-f-]{36}/, ':')}`));
    for (const key of gated) expect(served, key).toContain(key);
    expect(gated.size).toBe(GATES.length);
  });

  const nameOf = (g: Gate) => `${g.method} ${g.url.replace(NOT_A_UUID, ':userId').replace(/[0-9a-f-]{36}/, ':id')} (${g.folder})`;
  it.each(GATES.map((g) => [nameOf(g), g] as const))(
    '%s: anonymous 401, the wrong role 403 with its text, the right role the schema 400',
    async (_name, gate) => {
      const before = await w.eventCount();
      const anonymous = await call(gate, 'anonymous');
      expect(anonymous.statusCode).toBe(401);
      for (const role of gate.refused) {
        const res = await call(gate, role);
        expect([role, res.statusCode, res.json()]).toEqual([role, 403, { error: gate.text }]);
      }
      const admitted = await call(gate, gate.admitted);
      expect(admitted.statusCode).toBe(400);
      expect(await w.eventCount()).toBe(before);
    },
  );

  it('lets the right role through to the handler, whose finer checks still apply', async () => {
    const as = async (role: Role, method: InjectOptions['method'], url: string, payload?: Record<string, unknown>) => {
      const res = await t.app.inject({ method, url, headers: await w.headers(role), ...(payload ? { payload } : {}) });
      return [res.statusCode, res.json()] as const;
    };
    // The worker reaches the customer they claimed...
    expect((await as('WORKER', 'GET', `/api/v1/users/${w.owned.userId}/transactions`))[0]).toBe(200);
    expect((await as('WORKER', 'GET', `/api/v1/users/${w.owned.userId}/payment-methods`))[0]).toBe(200);
    expect((await as('WORKER', 'POST', '/functions/v1/set-dashboard-note', { userId: w.owned.userId, noteContent: 'Called' }))[0]).toBe(
      200,
    );
    expect((await as('MANAGER', 'GET', `/api/v1/users/${w.owned.userId}/approvals`))[0]).toBe(200);
    expect((await as('ADMIN', 'POST', '/functions/v1/get-kyc-details', { targetUserId: w.owned.userId }))[0]).toBe(200);
    expect((await as('WORKER', 'GET', `/api/v1/announcements?manager_id=${w.manager}`))[0]).toBe(200);
    expect((await as('WORKER', 'POST', '/functions/v1/get-worker-tickets', { workerId: w.worker }))[0]).toBe(200);
    expect((await as('USER', 'POST', '/functions/v1/create-support-ticket', { subject: 'Folders', message: 'A question' }))[0]).toBe(200);
    expect(await as('WORKER', 'DELETE', `/api/v1/buying-links/${randomUUID()}?userId=${w.owned.userId}`)).toEqual([
      404,
      { error: expect.any(String) },
    ]);
    // ...and not one they did not (ownership stays the handler's, after the body is read).
    const denied = { error: 'Access Denied: You do not have permission to view this profile.' };
    expect(await as('WORKER', 'GET', `/api/v1/users/${w.other.userId}/transactions`)).toEqual([403, denied]);
    expect(await as('WORKER', 'POST', '/functions/v1/ban-user', { targetUserId: w.other.userId })).toEqual([403, denied]);
    expect(await as('MANAGER', 'POST', '/functions/v1/approve-kyc', { targetUserId: w.other.userId })).toEqual([403, denied]);
    expect(await as('WORKER', 'POST', '/functions/v1/get-worker-tickets', { workerId: w.otherWorker })).toEqual([
      403,
      { error: 'Access Denied: You can only see your own tickets.' },
    ]);
  });
});
