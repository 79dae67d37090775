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
  /** managers about customers of their workers, admins about every customer; no worker */
  | 'manager-owner'
  /** workers only (claiming customers, their own list) */
  | 'worker-only'
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
  public: {
    anonymous: ['allowed', '-'],
    USER: ['allowed', '-'],
    WORKER: ['allowed', '-'],
    MANAGER: ['allowed', '-'],
    ADMIN: ['allowed', '-'],
  },
  'dev-only': {
    anonymous: ['allowed', '-'],
    USER: ['allowed', '-'],
    WORKER: ['allowed', '-'],
    MANAGER: ['allowed', '-'],
    ADMIN: ['allowed', '-'],
  },
  'signed-in': {
    anonymous: ['401', '-'],
    USER: ['allowed', 'denied'],
    WORKER: ['allowed', 'denied'],
    MANAGER: ['allowed', 'denied'],
    ADMIN: ['allowed', 'denied'],
  },
  'customer-self': {
    anonymous: ['401', '-'],
    USER: ['allowed', 'denied'],
    WORKER: ['denied', 'denied'],
    MANAGER: ['denied', 'denied'],
    ADMIN: ['denied', 'denied'],
  },
  'self-or-staff-owner': {
    anonymous: ['401', '-'],
    USER: ['allowed', 'denied'],
    WORKER: ['allowed', 'denied'],
    MANAGER: ['allowed', 'denied'],
    ADMIN: ['allowed', 'allowed'],
  },
  'staff-owner': {
    anonymous: ['401', '-'],
    USER: ['403', '403'],
    WORKER: ['allowed', '403'],
    MANAGER: ['allowed', '403'],
    ADMIN: ['allowed', 'allowed'],
  },
  staff: { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['allowed', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'manager-of-worker': {
    anonymous: ['401', '-'],
    USER: ['403', '403'],
    WORKER: ['403', '403'],
    MANAGER: ['allowed', '403'],
    ADMIN: ['allowed', 'allowed'],
  },
  'manager-owner': {
    anonymous: ['401', '-'],
    USER: ['403', '403'],
    WORKER: ['403', '403'],
    MANAGER: ['allowed', '403'],
    ADMIN: ['allowed', 'allowed'],
  },
  'manager-only': { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['403', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'worker-only': { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['allowed', '-'], MANAGER: ['403', '-'], ADMIN: ['403', '-'] },
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

  // Staff actions on a customer: the access rule of server/shared/access.ts.
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
  'GET /api/v1/payment-methods': {
    policy: 'signed-in',
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'GET /api/v1/payment-methods/:id': {
    policy: 'customer-self',
    request: (ids) => ({ url: `/api/v1/payment-methods/${ids.bankId}` }),
    expect: { 'USER/own': 'ok' },
  },
  'DELETE /api/v1/payment-methods/:id': {
    policy: 'customer-self',
    request: (ids) => ({ url: `/api/v1/payment-methods/${ids.spareBankId}` }),
  },

  // Notifications.
  'GET /api/v1/notifications': {
    policy: 'signed-in',
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'POST /api/v1/notifications/:id/read': {
    policy: 'customer-self',
    request: (ids) => ({ url: `/api/v1/notifications/${ids.notificationId}/read` }),
    expect: { 'USER/own': 'ok' },
  },
  // The customer's own notification choices (no id: a foreign target does not exist); staff are refused.
  'GET /api/v1/notification-preferences': {
    policy: 'customer-self',
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'PUT /api/v1/notification-preferences': {
    policy: 'customer-self',
    request: () => ({ body: { transactionsInApp: true, accountChangesEmail: false, accountChangesInApp: true } }),
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'POST /api/v1/notifications/read-all': {
    policy: 'signed-in',
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },

  // Customer money.
  'POST /functions/v1/get-user-profile-details': {
    policy: 'self-or-staff-owner',
    request: (ids) => ({ body: { targetUserId: ids.userId } }),
    expect: { 'USER/own': 'ok', 'ADMIN/foreign': 'ok' },
  },
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
  'GET /api/v1/transactions': {
    policy: 'signed-in',
    expect: { 'USER/own': 'ok', 'USER/foreign': '-', 'WORKER/foreign': '-', 'MANAGER/foreign': '-', 'ADMIN/foreign': '-' },
  },
  'GET /api/v1/transactions/:id': {
    policy: 'customer-self',
    request: (ids) => ({ url: `/api/v1/transactions/${ids.transactionId}` }),
    expect: { 'USER/own': 'ok' },
  },

  'GET /api/v1/balance-history': { policy: 'signed-in', expect: { 'USER/own': 'ok' } },
  'GET /api/v1/statement': { policy: 'signed-in', request: () => ({ query: { from: '2026-01-01', to: '2026-12-31' } }) },
  'GET /api/v1/scheduled-transactions': { policy: 'signed-in', expect: { 'USER/own': 'ok' } },
  'POST /functions/v1/create-swap-request': {
    policy: 'signed-in',
    request: () => ({ body: { fromTokenId: 'BTC', toTokenId: 'ETH', fromAmount: '0.01' } }),
  },
  'POST /functions/v1/create-stake-transaction': {
    policy: 'signed-in',
    request: () => ({ body: { assetId: 'BTC', amount: '0.01', durationDays: 30, rate: '5' } }),
  },

  // Staff work on one customer's profile: the access rule of server/shared/access.ts.
  'POST /functions/v1/set-dashboard-note': {
    policy: 'staff-owner',
    request: (ids) => ({ body: { userId: ids.userId, noteContent: 'Checked by staff' } }),
  },
  'POST /functions/v1/reset-user-password': {
    policy: 'staff-owner',
    request: (ids) => ({ body: { targetUserId: ids.userId, newPassword: 'reset-by-staff-1' } }),
  },
  'POST /functions/v1/remove-user-mfa': {
    policy: 'manager-owner',
    request: (ids) => ({ body: { targetUserId: ids.userId, reason: 'Lost phone, identity checked' } }),
  },
  'POST /functions/v1/update-all-user-permissions': {
    policy: 'staff-owner',
    request: (ids) => ({
      body: { targetUserId: ids.userId, permissions: { can_send: true, can_swap: true, can_buy: true, can_sell: true, can_stake: true } },
    }),
  },
  // Without targetUserId the caller's own; with one, the customer themself or staff who manage them.
  'GET /functions/v1/get-login-history': {
    policy: 'self-or-staff-owner',
    request: (ids) => ({ query: { targetUserId: ids.userId } }),
    expect: { 'USER/own': 'ok' },
  },
  'POST /functions/v1/set-user-wallet-address': {
    policy: 'staff-owner',
    request: (ids) => ({ body: { targetUserId: ids.userId, assetId: 'BTC', newAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } }),
  },
  'POST /functions/v1/add-transaction': {
    policy: 'staff-owner',
    request: (ids) => ({ body: { targetUserId: ids.userId, assetId: 'BTC', amount: '0.001', status: 'Complete', note: 'matrix' } }),
  },
  'GET /api/v1/users/:userId/transactions': {
    policy: 'staff-owner',
    request: (ids) => ({ url: `/api/v1/users/${ids.userId}/transactions` }),
  },
  'GET /api/v1/users/:userId/approvals': { policy: 'staff-owner', request: (ids) => ({ url: `/api/v1/users/${ids.userId}/approvals` }) },
  // The two-person rule: checkers are managers and admins; a worker reads only their own requests (scope 'mine').
  'POST /functions/v1/list-approvals': { policy: 'manager-only', request: () => ({ body: {} }) },
  'POST /functions/v1/decide-approval': {
    policy: 'manager-only',
    request: () => ({ body: { requestId: randomUUID(), decision: 'approve', reason: 'checked' } }),
  },
  'GET /api/v1/users/:userId/payment-methods': {
    policy: 'staff-owner',
    request: (ids) => ({ url: `/api/v1/users/${ids.userId}/payment-methods` }),
  },
  'GET /api/v1/users/:userId/payment-methods/:id': {
    policy: 'staff-owner',
    request: (ids) => ({ url: `/api/v1/users/${ids.userId}/payment-methods/${ids.bankId}` }),
  },
  'GET /api/v1/users/:userId/event-trail': {
    policy: 'staff-owner',
    request: (ids) => ({ url: `/api/v1/users/${ids.userId}/event-trail` }),
  },
  'POST /functions/v1/approve-kyc': { policy: 'staff-owner', request: (ids) => ({ body: { targetUserId: ids.userId } }) },
  'POST /functions/v1/get-kyc-details': { policy: 'staff-owner', request: (ids) => ({ body: { targetUserId: ids.userId } }) },
  'GET /api/v1/admin/staff-actions': { policy: 'admin-only', request: () => ({ query: {} }) },
  'GET /api/v1/admin/balance-at': {
    policy: 'admin-only',
    request: (ids) => ({ query: { userId: ids.userId } }),
    expect: { 'ADMIN/foreign': 'allowed' },
  },

  // Buying links: the customer sees their own; staff who manage the customer set them.
  'GET /api/v1/buying-links': { policy: 'self-or-staff-owner', request: (ids) => ({ query: { userId: ids.userId } }) },
  'POST /api/v1/buying-links': {
    policy: 'staff-owner',
    request: (ids) => ({ body: { userId: ids.userId, url: 'https://buy.example.com', name: 'Buy here' } }),
  },
  'DELETE /api/v1/buying-links/:id': {
    policy: 'staff-owner',
    request: (ids) => ({ url: `/api/v1/buying-links/${ids.cardId}`, query: { userId: ids.userId } }),
  },
  // A logo is a public picture shown on the customer's page.
  'GET /api/v1/buying-links/:id/logo': { policy: 'public', request: () => ({ url: `/api/v1/buying-links/${randomUUID()}/logo` }) },
  // The signed link is the credential: a made-up one is refused with 403 whoever opens it.
  'GET /api/v1/kyc-documents': {
    policy: 'public',
    request: () => ({ query: { token: 'made-up-link' } }),
    expect: { 'anonymous/own': '403', 'USER/own': '403', 'WORKER/own': '403', 'MANAGER/own': '403', 'ADMIN/own': '403' },
  },
  // Multipart: identity documents are sent by the customer themself (tests/reliability/hostile-input covers the parts).
  'POST /functions/v1/submit-kyc-data': { policy: 'signed-in', expect: { 'WORKER/own': '403', 'MANAGER/own': '403', 'ADMIN/own': '403' } },

  // Claiming and the worker's own list.
  'POST /functions/v1/search-user-by-email': { policy: 'worker-only', request: () => ({ body: { emailToSearch: 'nobody@example.com' } }) },
  'POST /functions/v1/claim-user': { policy: 'worker-only', request: (ids) => ({ body: { userIdToClaim: ids.userId } }) },
  'POST /functions/v1/list-my-users': { policy: 'worker-only' },
  'POST /functions/v1/check-user-ownership': { policy: 'staff', request: (ids) => ({ body: { profileUserId: ids.userId } }) },
  'POST /functions/v1/check-manager-user-access': { policy: 'staff', request: (ids) => ({ body: { targetUserId: ids.userId } }) },

  // Managers and their workers.
  'POST /functions/v1/create-worker-for-manager': {
    policy: 'manager-only',
    request: () => ({
      body: { fullName: 'New Worker', email: `w-${randomUUID().slice(0, 8)}@example.com`, password: 'new-worker-pass-1' },
    }),
    expect: { 'ADMIN/own': '403' },
  },
  'POST /functions/v1/reset-worker-password': {
    policy: 'manager-of-worker',
    request: (ids) => ({ body: { workerId: ids.spareWorkerId } }),
  },
  'POST /functions/v1/get-users-for-manager': { policy: 'manager-only', request: () => ({ body: {} }) },
  'POST /api/v1/rpc/get_worker_info': { policy: 'manager-of-worker', request: (ids) => ({ body: { p_manager_id: ids.managerId } }) },
  'POST /api/v1/rpc/create_announcement': {
    policy: 'manager-of-worker',
    request: (ids) => ({ body: { p_manager_id: ids.managerId, p_message: 'Team meeting at noon' } }),
    why: 'only a manager announces, to their own workers; an admin has no workers of their own',
    expect: { 'ADMIN/own': '403', 'ADMIN/foreign': '403' },
  },
  // A worker looks up their own manager; a manager their own workers'; an admin anyone's.
  'POST /api/v1/rpc/get_worker_manager': { policy: 'staff-owner', request: (ids) => ({ body: { p_worker_id: ids.workerId } }) },
  'GET /api/v1/announcements': { policy: 'staff-owner', request: (ids) => ({ query: { manager_id: ids.managerId } }) },

  // Support tickets: the customer who opened one, the worker it is assigned to, their manager, an admin.
  'POST /functions/v1/create-support-ticket': {
    policy: 'customer-self',
    request: (ids) => ({ body: { subject: 'Matrix', message: 'A question', urgency: 'low', userId: ids.userId } }),
    expect: { 'USER/own': 'ok' },
  },
  'POST /functions/v1/get-worker-tickets': {
    policy: 'manager-of-worker',
    request: (ids) => ({ body: { workerId: ids.workerId } }),
    expect: { 'WORKER/own': 'allowed' },
  },
  // Only the staff side moves a ticket's status; the customer who opened it may not.
  'POST /functions/v1/update-ticket-status': {
    policy: 'self-or-staff-owner',
    request: (ids) => ({ body: { ticketId: ids.ticketId, status: 'in_progress' } }),
    expect: { 'USER/own': '403' },
  },
  'POST /functions/v1/assign-ticket': {
    policy: 'manager-of-worker',
    request: (ids) => ({ body: { ticketId: ids.ticketId, workerId: ids.workerId } }),
  },
  'GET /api/v1/support-tickets': { policy: 'signed-in', expect: { 'USER/own': 'ok' } },
  'GET /api/v1/support-tickets/unassigned': { policy: 'manager-only' },
  'GET /api/v1/support-tickets/:id': {
    policy: 'self-or-staff-owner',
    request: (ids) => ({ url: `/api/v1/support-tickets/${ids.ticketId}` }),
  },
  'GET /api/v1/ticket-responses': { policy: 'self-or-staff-owner', request: (ids) => ({ query: { ticket_id: ids.ticketId } }) },
  'POST /api/v1/ticket-responses': {
    policy: 'self-or-staff-owner',
    request: (ids) => ({ body: { ticket_id: ids.ticketId, message: 'A reply' } }),
  },
  'POST /functions/v1/upload-ticket-attachment': { policy: 'signed-in' },
  'GET /functions/v1/get-ticket-attachment': { policy: 'signed-in', request: () => ({ query: { id: randomUUID() } }) },
  'GET /api/v1/ticket-attachments': { policy: 'self-or-staff-owner', request: (ids) => ({ query: { ticket_id: ids.ticketId } }) },
  'PATCH /api/v1/ticket-attachments/:id': {
    policy: 'signed-in',
    request: () => ({ url: `/api/v1/ticket-attachments/${randomUUID()}`, body: { response_id: randomUUID() } }),
  },
  'DELETE /api/v1/ticket-attachments/:id': { policy: 'signed-in', request: () => ({ url: `/api/v1/ticket-attachments/${randomUUID()}` }) },
};
