/** Who may call the customer's routes: payment methods, notifications, money (the entries of ROUTE_POLICY, route-policy.ts). */
import type { RoutePolicy } from './route-policy.js';

export const CUSTOMER_ROUTES: Record<string, RoutePolicy> = {
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
    request: () => ({ body: { transactionsInApp: true, transactionsEmail: false, accountChangesEmail: false, accountChangesInApp: true } }),
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
  // Answers 404 until the books publish a proof of liabilities: past the access rule is what counts here.
  'GET /api/v1/liabilities-proof': { policy: 'signed-in' },
  'GET /api/v1/scheduled-transactions': { policy: 'signed-in', expect: { 'USER/own': 'ok' } },
  'POST /functions/v1/create-swap-request': {
    policy: 'signed-in',
    request: () => ({ body: { fromTokenId: 'BTC', toTokenId: 'ETH', fromAmount: '0.01' } }),
  },
  'POST /functions/v1/create-stake-transaction': {
    policy: 'signed-in',
    request: () => ({ body: { assetId: 'BTC', amount: '0.01', durationDays: 30, rate: '5' } }),
  },
};
