/** Who may call the staff routes: actions on a customer and their profile, approvals, KYC, buying links, claiming, managers and workers, support tickets (the entries of ROUTE_POLICY, route-policy.ts). */
import { randomUUID } from 'node:crypto';
import type { RoutePolicy } from './route-policy.js';

export const STAFF_ROUTES: Record<string, RoutePolicy> = {
  // Staff actions on a customer: the access rule of server/shared/access.ts.
  'POST /functions/v1/ban-user': { policy: 'staff-owner', request: (ids) => ({ body: { targetUserId: ids.userId } }) },
  'POST /functions/v1/unban-user': { policy: 'staff-owner', request: (ids) => ({ body: { targetUserId: ids.userId } }) },
  'POST /functions/v1/update-transaction': {
    policy: 'staff-owner',
    request: (ids) => ({ body: { targetUserId: ids.userId, transactionId: ids.transactionId, note: 'checked' } }),
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
    // Staff are refused by role at onRequest (its config.auth), whatever the body names.
    expect: {
      'USER/own': 'ok',
      'WORKER/own': '403',
      'WORKER/foreign': '403',
      'MANAGER/own': '403',
      'MANAGER/foreign': '403',
      'ADMIN/own': '403',
      'ADMIN/foreign': '403',
    },
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
