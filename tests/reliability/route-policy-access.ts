/** Who may call the routes of access and the caller's own account: documentation and probes, /auth/v1, the account's functions, development tools (the entries of ROUTE_POLICY, route-policy.ts). */
import { randomUUID } from 'node:crypto';
import type { RoutePolicy } from './route-policy.js';

const nobody = () => `nobody-${randomUUID().slice(0, 8)}@example.com`;

export const ACCESS_ROUTES: Record<string, RoutePolicy> = {
  // OpenAPI description and health: public by design.
  'GET /docs': { policy: 'public' },
  'GET /docs/static/index.html': { policy: 'public' },
  'GET /docs/static/swagger-initializer.js': { policy: 'public' },
  'GET /docs/json': { policy: 'public' },
  'GET /docs/yaml': { policy: 'public' },
  'GET /docs/static/*': { policy: 'public', request: () => ({ url: '/docs/static/swagger-ui.css' }) },
  'GET /healthz': { policy: 'public' },
  // Probes and metrics for the orchestrator and Prometheus (docs/operations.md: keep /metrics off the public proxy).
  'GET /livez': { policy: 'public' },
  'GET /readyz': { policy: 'public' },
  'GET /metrics': { policy: 'public' },

  // /auth/v1: the steps before a session exists are public.
  'POST /auth/v1/signup': {
    policy: 'public',
    request: () => ({ body: { email: nobody(), password: 'long-enough-1', data: { full_name: 'Nobody' } } }),
  },
  'GET /auth/v1/verify': { policy: 'public', request: () => ({ query: { type: 'signup', token: 'not-a-token' } }) },
  'POST /auth/v1/verify': { policy: 'public', request: () => ({ body: { type: 'recovery', token: 'not-a-token' } }) },
  'POST /auth/v1/token': {
    policy: 'public',
    request: () => ({ query: { grant_type: 'refresh_token' }, body: { refresh_token: 'not-a-token' } }),
  },
  'POST /auth/v1/otp': { policy: 'public', request: () => ({ body: { email: nobody() } }) },
  'POST /auth/v1/recover': { policy: 'public', request: () => ({ body: { email: nobody() } }) },
  'POST /auth/v1/resend': { policy: 'public', request: () => ({ body: { type: 'signup', email: nobody() } }) },
  'POST /auth/v1/logout': {
    policy: 'signed-in',
    fresh: true,
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'GET /auth/v1/user': {
    policy: 'signed-in',
    expect: {
      'USER/own': 'ok',
      'ADMIN/own': 'ok',
      'USER/foreign': '-',
      'WORKER/foreign': '-',
      'MANAGER/foreign': '-',
      'ADMIN/foreign': '-',
    },
  },
  'PUT /auth/v1/user': {
    policy: 'signed-in',
    request: () => ({ body: {} }),
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'GET /auth/v1/sessions': {
    policy: 'signed-in',
    expect: {
      'USER/own': 'ok',
      'ADMIN/own': 'ok',
      'USER/foreign': '-',
      'WORKER/foreign': '-',
      'MANAGER/foreign': '-',
      'ADMIN/foreign': '-',
    },
  },
  // Only the caller's own sessions can be ended: any other id (here one of no session) is not found.
  'DELETE /auth/v1/sessions/:id': {
    policy: 'signed-in',
    request: () => ({ url: `/auth/v1/sessions/${randomUUID()}` }),
    expect: { 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  // An authenticator belongs to its user: another user's factor id is not found.
  'POST /auth/v1/factors': {
    policy: 'signed-in',
    request: () => ({ body: { factor_type: 'totp' } }),
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  // Unverified factors: the own one answers 404 'No verified authenticator app found' (allowed), a foreign one likewise.
  'POST /auth/v1/factors/:id/challenge': {
    policy: 'customer-self',
    request: (ids) => ({ url: `/auth/v1/factors/${ids.factorId}/challenge` }),
  },
  'POST /auth/v1/factors/:id/verify': {
    policy: 'customer-self',
    request: (ids) => ({ url: `/auth/v1/factors/${ids.factorId}/verify`, body: { challenge_id: randomUUID(), code: '000000' } }),
  },
  'DELETE /auth/v1/factors/:id': { policy: 'customer-self', fresh: true, request: (ids) => ({ url: `/auth/v1/factors/${ids.factorId}` }) },

  // /functions/v1 about the caller's own account.
  'GET /functions/v1/captcha-challenge': { policy: 'public' },
  'POST /functions/v1/verify-recaptcha': { policy: 'public', request: () => ({ body: { token: 'not-a-solution' } }) },
  'POST /functions/v1/log-login-details': {
    policy: 'signed-in',
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  // The caller's own welcome mail, once; the body's address and name are ignored.
  'POST /functions/v1/send-welcome-email': {
    policy: 'signed-in',
    request: () => ({ body: { email: nobody(), name: 'Nobody' } }),
    expect: { 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'POST /functions/v1/verify-and-update-password': {
    policy: 'signed-in',
    request: (_ids, ctx) => ({ body: { oldPassword: ctx.password, newPassword: ctx.password, verifyOnly: true } }),
    expect: {
      'USER/own': 'ok',
      'WORKER/own': 'ok',
      'USER/foreign': '-',
      'WORKER/foreign': '-',
      'MANAGER/foreign': '-',
      'ADMIN/foreign': '-',
    },
  },
  'GET /dev/mailbox.json': { policy: 'dev-only' },
  'GET /dev/mailbox': { policy: 'dev-only' },
  'GET /functions/v1/crypto-prices': { policy: 'public' },
  'GET /realtime/v1': { policy: 'signed-in', coveredBy: 'tests/reliability/authorisation-matrix.int.spec.ts (WebSocket case)' },
};
