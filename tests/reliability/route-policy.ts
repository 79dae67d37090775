/**
 * Who may call what: one entry per route the app serves, with its policy class and a request
 * that passes the route's input schema, so the answer shows the access rule and not a 400.
 * The authorisation matrix (authorisation-matrix.int.spec.ts) fails for any route missing here.
 */
import { randomUUID } from 'node:crypto';
import type { Ids, Role } from './world.js';

export type Policy =
  /** anyone, signed in or not */
  | 'public'
  /** any signed-in user, about their own account only (no id, or ids of their own things) */
  | 'signed-in'
  /** a customer's own things: a foreign id in any field is refused; staff have no customer things */
  | 'customer-self'
  /** the customer themself, or staff who manage them (get-user-profile-details) */
  | 'self-or-staff-owner'
  /** staff who manage the customer named: worker (claimed), manager (their workers'), admin */
  | 'staff-owner'
  /** any staff role, no customer named */
  | 'staff'
  /** a manager about a worker who reports to them, or an admin */
  | 'manager-of-worker'
  /** managers and admins, nobody else */
  | 'manager-only'
  | 'admin-only'
  /** development tools (outbox); never registered in production */
  | 'dev-only';

/**
 * 'ok': 2xx or 3xx. 'allowed': past the access rule (not 401/403; a domain 4xx is fine).
 * '401', '403': exactly that. 'denied': 400, 403 or 404 and nothing written. '-': no such cell.
 */
export type Outcome = 'ok' | 'allowed' | '401' | '403' | 'denied' | '-';
export type Target = 'own' | 'foreign';
export type Cell = `${Role}/${Target}`;

/** The expected answer of every cell, per policy class: [own target, foreign target]. */
export const EXPECTED: Record<Policy, Record<Role, [Outcome, Outcome]>> = {
  public: { anonymous: ['allowed', '-'], USER: ['allowed', '-'], WORKER: ['allowed', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'dev-only': { anonymous: ['allowed', '-'], USER: ['allowed', '-'], WORKER: ['allowed', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'signed-in': { anonymous: ['401', '-'], USER: ['allowed', 'denied'], WORKER: ['allowed', 'denied'], MANAGER: ['allowed', 'denied'], ADMIN: ['allowed', 'denied'] },
  'customer-self': { anonymous: ['401', '-'], USER: ['allowed', 'denied'], WORKER: ['denied', 'denied'], MANAGER: ['denied', 'denied'], ADMIN: ['denied', 'denied'] },
  'self-or-staff-owner': { anonymous: ['401', '-'], USER: ['allowed', 'denied'], WORKER: ['allowed', 'denied'], MANAGER: ['allowed', 'denied'], ADMIN: ['allowed', 'allowed'] },
  'staff-owner': { anonymous: ['401', '-'], USER: ['403', '403'], WORKER: ['allowed', '403'], MANAGER: ['allowed', '403'], ADMIN: ['allowed', 'allowed'] },
  staff: { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['allowed', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'manager-of-worker': { anonymous: ['401', '-'], USER: ['403', '403'], WORKER: ['403', '403'], MANAGER: ['allowed', '403'], ADMIN: ['allowed', 'allowed'] },
  'manager-only': { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['403', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'admin-only': { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['403', '-'], MANAGER: ['403', '-'], ADMIN: ['allowed', '-'] },
};

export interface RequestSpec {
  url?: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RoutePolicy {
  policy: Policy;
  /** A request that passes the schema; `ids` are the own or foreign ids of the cell. */
  request?: (ids: Ids, ctx: { password: string }) => RequestSpec;
  /** Each cell on a newly signed-in session (the call ends or changes the session). */
  fresh?: boolean;
  /** Cells whose answer differs from the class default, with the reason. */
  expect?: Partial<Record<Cell, Outcome>>;
  /** The route is checked elsewhere (a WebSocket); the file that does it. */
  coveredBy?: string;
  why?: string;
}

const nobody = () => `nobody-${randomUUID().slice(0, 8)}@example.com`;

export const ROUTE_POLICY: Record<string, RoutePolicy> = {
  // OpenAPI description and health: public by design.
  'GET /docs': { policy: 'public' },
  'GET /docs/static/index.html': { policy: 'public' },
  'GET /docs/static/swagger-initializer.js': { policy: 'public' },
  'GET /docs/json': { policy: 'public' },
  'GET /docs/yaml': { policy: 'public' },
  'GET /docs/static/*': { policy: 'public', request: () => ({ url: '/docs/static/swagger-ui.css' }) },
  'GET /healthz': { policy: 'public' },

  // /auth/v1: the steps before a session exists are public.
  'POST /auth/v1/signup': { policy: 'public', request: () => ({ body: { email: nobody(), password: 'long-enough-1', data: { full_name: 'Nobody' } } }) },
  'GET /auth/v1/verify': { policy: 'public', request: () => ({ query: { type: 'signup', token: 'not-a-token' } }) },
  'POST /auth/v1/verify': { policy: 'public', request: () => ({ body: { type: 'recovery', token: 'not-a-token' } }) },
  'POST /auth/v1/token': { policy: 'public', request: () => ({ query: { grant_type: 'refresh_token' }, body: { refresh_token: 'not-a-token' } }) },
  'POST /auth/v1/otp': { policy: 'public', request: () => ({ body: { email: nobody() } }) },
  'POST /auth/v1/recover': { policy: 'public', request: () => ({ body: { email: nobody() } }) },
  'POST /auth/v1/logout': { policy: 'signed-in', fresh: true, expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  'GET /auth/v1/user': { policy: 'signed-in', expect: { 'USER/own': 'ok', 'ADMIN/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  'PUT /auth/v1/user': { policy: 'signed-in', request: () => ({ body: {} }), expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  // An authenticator belongs to its user: another user's factor id is not found.
  'POST /auth/v1/factors': { policy: 'signed-in', request: () => ({ body: { factor_type: 'totp' } }), expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  // Unverified factors: the own one answers 404 'No verified authenticator app found' (allowed), a foreign one likewise.
  'POST /auth/v1/factors/:id/challenge': { policy: 'customer-self', request: (ids) => ({ url: `/auth/v1/factors/${ids.factorId}/challenge` }) },
  'POST /auth/v1/factors/:id/verify': {
    policy: 'customer-self',
    request: (ids) => ({ url: `/auth/v1/factors/${ids.factorId}/verify`, body: { challenge_id: randomUUID(), code: '000000' } }),
  },
  'DELETE /auth/v1/factors/:id': { policy: 'customer-self', fresh: true, request: (ids) => ({ url: `/auth/v1/factors/${ids.factorId}` }) },

  // /functions/v1 about the caller's own account.
  'GET /functions/v1/captcha-challenge': { policy: 'public' },
  'POST /functions/v1/verify-recaptcha': { policy: 'public', request: () => ({ body: { token: 'not-a-solution' } }) },
  'POST /functions/v1/log-login-details': { policy: 'signed-in', expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  // Mails only an account registered within the hour, once: harmless to expose.
  'POST /functions/v1/send-welcome-email': { policy: 'public', request: () => ({ body: { email: nobody(), name: 'Nobody' } }) },
  'POST /functions/v1/verify-and-update-password': {
    policy: 'signed-in',
    request: (_ids, ctx) => ({ body: { oldPassword: ctx.password, newPassword: ctx.password, verifyOnly: true } }),
    expect: { 'USER/own': 'ok', 'WORKER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'GET /functions/v1/get-login-history': { policy: 'signed-in', expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  'GET /dev/mailbox.json': { policy: 'dev-only' },
  'GET /dev/mailbox': { policy: 'dev-only' },
  'GET /functions/v1/crypto-prices': { policy: 'public' },
  'GET /realtime/v1': { policy: 'signed-in', coveredBy: 'tests/reliability/authorisation-matrix.int.spec.ts (WebSocket case)' },

  // Staff actions on a customer: the access rule of server/staff/access.ts.
  'POST /functions/v1/ban-user': { policy: 'staff-owner', request: (ids) => ({ body: { targetUserId: ids.userId } }) },
  'POST /functions/v1/unban-user': { policy: 'staff-owner', request: (ids) => ({ body: { targetUserId: ids.userId } }) },
  'POST /functions/v1/update-transaction': {
    policy: 'staff-owner',
    request: (ids) => ({ body: { targetUserId: ids.userId, transactionId: ids.transactionId, note: 'checked' } }),
  },

  // The customer's payment methods.
  'POST /functions/v1/add-raw-payment-method': {
    policy: 'signed-in',
    request: () => ({ body: { type: 'bank_account', bank_name: 'Matrix Bank', account_number: 'DE89370400440532013000' } }),
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'GET /api/v1/payment-methods': { policy: 'signed-in', expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  'GET /api/v1/payment-methods/:id': { policy: 'customer-self', request: (ids) => ({ url: `/api/v1/payment-methods/${ids.bankId}` }), expect: { 'USER/own': 'ok' } },
  'DELETE /api/v1/payment-methods/:id': { policy: 'customer-self', request: (ids) => ({ url: `/api/v1/payment-methods/${ids.spareBankId}` }) },

  // Notifications.
  'GET /api/v1/notifications': { policy: 'signed-in', expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  'POST /api/v1/notifications/:id/read': { policy: 'customer-self', request: (ids) => ({ url: `/api/v1/notifications/${ids.notificationId}/read` }), expect: { 'USER/own': 'ok' } },
  'POST /api/v1/notifications/read-all': { policy: 'signed-in', expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },

  // Customer money.
  'POST /functions/v1/get-user-profile-details': { policy: 'self-or-staff-owner', request: (ids) => ({ body: { targetUserId: ids.userId } }), expect: { 'USER/own': 'ok', 'ADMIN/foreign': 'ok' } },
  'POST /functions/v1/create-deposit-request': {
    policy: 'customer-self',
    request: (ids) => ({ body: { tokenId: 'BTC', amount: '0.1', paymentMethodId: ids.cardId, userId: ids.userId } }),
    expect: { 'USER/own': 'ok' },
  },
  'POST /functions/v1/create-withdrawal-request': {
    policy: 'customer-self',
    request: (ids) => ({ body: { tokenId: 'BTC', amount: '0.01', paymentMethodId: ids.bankId, userId: ids.userId } }),
    expect: { 'USER/own': 'ok' },
  },
  'POST /functions/v1/create-pending-withdrawal': {
    policy: 'signed-in',
    request: () => ({ body: { assetId: 'BTC', amount: '0.01', recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } }),
    expect: { 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'GET /api/v1/transactions': { policy: 'signed-in', expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' } },
  'GET /api/v1/transactions/:id': { policy: 'customer-self', request: (ids) => ({ url: `/api/v1/transactions/${ids.transactionId}` }), expect: { 'USER/own': 'ok' } },
};
