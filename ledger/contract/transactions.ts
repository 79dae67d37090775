import { z } from 'zod';
import { Decimal } from './common.js';

/*
 * Transactions (spec 001 section 5): the customer's list, where a swap's two legs are one
 * entry, one transaction, and the balance chart.
 */

export const TRANSACTION_STATUSES = ['Pending', 'Complete', 'Failed'] as const;

/** A listed transaction: amounts as decimal text, times as ISO text in UTC. */
export const TransactionRow = z.object({
  id: z.string(),
  user_id: z.string(),
  asset_id: z.string(),
  amount: Decimal,
  fee: Decimal,
  type: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  sent_at: z.string(),
  created_at: z.string(),
  sender_address: z.string().nullable(),
  recipient_address: z.string().nullable(),
  txid: z.string().nullable(),
  note: z.string().nullable(),
  is_hidden: z.boolean(),
  request_id: z.string().nullable(),
});

/** An entry of the list: a swap is its spent leg with the received one linked. */
export const TransactionEntry = TransactionRow.extend({ linkedTransaction: TransactionRow.nullable() });

/** The customer's transactions list: one page. */
export const TransactionsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

export const TransactionsPage = z.object({
  transactions: z.array(TransactionEntry),
  count: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

/** The balance chart's read: the last `days` days. */
export const BalanceHistoryQuery = z.object({ days: z.coerce.number().int().min(2).max(365).default(30) });

/** The balance chart: the settled balance per asset at the end of each UTC day (YYYY-MM-DD). */
export const BalanceHistory = z.object({
  assets: z.array(z.string()),
  days: z.array(z.object({ date: z.string(), balances: z.record(z.string(), Decimal) })),
});
