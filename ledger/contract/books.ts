import { z } from 'zod';
import { Bytes, Decimal } from './common.js';

/* The books (docs/finance.md): the customer's statement and an admin's balances at a moment. */

/** The statement download: CSV, one line per settled movement, reconciling with the balance. */
export const StatementCsv = Bytes('text/csv: the statement');

/** One asset's buckets at the moment: `available` is the balance plus the pending withdrawals. */
export const AssetBalanceAt = z.object({
  assetId: z.string(),
  balance: Decimal,
  pendingDeposits: Decimal,
  pendingWithdrawals: Decimal,
  available: Decimal,
});

/** A customer's balances as the log stood at a moment or just after one of their events. */
export const BalanceAt = z.object({
  userId: z.string(),
  at: z.string(),
  lastEvent: z
    .object({ eventId: z.string(), type: z.string(), revision: z.string(), position: z.string(), recordedAt: z.string() })
    .nullable(),
  assets: z.array(AssetBalanceAt),
});
