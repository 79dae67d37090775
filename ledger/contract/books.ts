import { z } from 'zod';
import { Bytes, Decimal } from './common.js';
import { ASSET_IDS } from '../assets.js';

/* The books (docs/finance.md): the customer's statement and an admin's balances at a moment. */

/** A date alone (2026-03-01): the start of that day for `from`, its end for `to` and `at`, in UTC. */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A moment of a books query: a date (2026-03-01) or an ISO time. */
export const Moment = z
  .string()
  .refine(
    (s) => (DATE_ONLY.test(s) || /^\d{4}-\d{2}-\d{2}T/.test(s)) && !Number.isNaN(Date.parse(DATE_ONLY.test(s) ? `${s}T00:00:00Z` : s)),
    {
      message: 'must be a date (2026-03-01) or an ISO time',
    },
  );

/** The statement: the customer's own booked movements from one moment to another, then what is pending; CSV (default) or JSON. */
export const StatementQuery = z.object({ from: Moment, to: Moment, format: z.enum(['csv', 'json']).optional() });

/** An admin's balances of a customer just after one of their events, or at a moment (one of the two), of all assets or one. */
export const BalanceAtQuery = z.object({
  userId: z.uuid(),
  eventId: z.uuid().optional(),
  at: Moment.optional(),
  asset: z.enum(ASSET_IDS).optional(),
});

/**
 * The statement: CSV (one row per booked movement and per fee, with the running balance, then
 * the pending items and the available balance, docs/finance.md), or with format=json the same
 * content as an object (`{userId, from, to, assets, lines, pending}`).
 */
export const StatementCsv = Bytes('text/csv (or application/json with format=json): the statement');

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

/** What a customer downloads in Settings: their proof of inclusion in the last published liabilities (docs/finance.md). */
export const LiabilitiesProof = z.object({
  format: z.literal('wallet-ledger-liabilities-proof/1'),
  at: z.string(),
  root: z.string(),
  customerHash: z.string(),
  balances: z.record(z.string(), z.string()),
  path: z.array(z.object({ side: z.enum(['left', 'right']), hash: z.string() })),
});

export const NO_PUBLISHED_LIABILITIES = 'No published liabilities include your account yet.';
