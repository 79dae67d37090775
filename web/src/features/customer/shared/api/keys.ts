/**
 * The customer area's cached reads (TanStack Query). The cache is emptied whenever another
 * user signs in (lib/query.tsx), so the keys need not name the customer.
 */
export const customerKeys = {
  /** Everything a transaction changes: balances, the lists, the history, stakes. */
  money: ['customer', 'money'] as const,
  profile: ['customer', 'money', 'profile'] as const,
  transactions: (page: number, pageSize: number) => ['customer', 'money', 'transactions', page, pageSize] as const,
  balanceHistory: (days: number) => ['customer', 'money', 'balance-history', days] as const,
  activeStakes: ['customer', 'money', 'active-stakes'] as const,
  paymentMethods: ['customer', 'payment-methods'] as const,
  prices: ['prices'] as const,
};
