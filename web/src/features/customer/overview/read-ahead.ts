import { readAhead } from '@/lib/query.js';
import { pricesQuery } from '../shared/api/prices.js';
import { profileQuery } from '../shared/api/profile.js';
import { transactionsQuery } from '../shared/api/transactions.js';
import { balanceHistoryQuery, HISTORY_DAYS } from './api/balance-history.js';
import { RECENT_COUNT } from './api/recent-transactions.js';

/**
 * The overview's four reads, started as soon as a signed-in customer's page load knows where it
 * goes (web/src/main.tsx): in parallel with the shell's code and before the overview renders,
 * instead of after both (docs/performance.md, "The signed-in overview").
 */
export function readOverviewAhead(userId: string): void {
  readAhead(pricesQuery);
  readAhead(profileQuery(userId));
  readAhead(transactionsQuery(1, RECENT_COUNT));
  readAhead(balanceHistoryQuery(HISTORY_DAYS));
}
