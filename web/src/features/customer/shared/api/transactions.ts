import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../../../../lib/api-client.js';
import { parseAnswer } from '../../../../lib/query.js';
import { useRefetchOn } from '../../../../lib/query-realtime.js';
import { customerKeys } from './keys.js';

export type TransactionStatus = 'Pending' | 'Complete' | 'Failed';

/** A transaction as the API returns it (docs/api-money.md); amounts are signed decimal strings. */
export const TransactionSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  asset_id: z.string(),
  amount: z.string(),
  fee: z.string().nullable(),
  type: z.string(),
  status: z.string(),
  sent_at: z.string(),
  created_at: z.string(),
  sender_address: z.string().nullable(),
  recipient_address: z.string().nullable(),
  txid: z.string().nullable(),
  note: z.string().nullable(),
  is_hidden: z.boolean(),
  request_id: z.string().nullable(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

/** A list entry: a swap is its spent leg with the received leg linked. */
export const TransactionEntrySchema = TransactionSchema.extend({ linkedTransaction: TransactionSchema.nullable().optional() });

export const TransactionPageSchema = z.object({
  transactions: z.array(TransactionEntrySchema),
  count: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

const PAGE_FAILED = 'The transactions could not be read.';

/** GET /api/v1/transactions: own, not hidden, newest sent_at first. */
export async function fetchTransactions(page: number, pageSize: number, signal?: AbortSignal): Promise<TransactionPage> {
  return parseAnswer(
    TransactionPageSchema,
    await getJson(`api/v1/transactions?page=${page}&pageSize=${pageSize}`, { signal }),
    PAGE_FAILED,
  );
}

export async function fetchTransaction(id: string, signal?: AbortSignal): Promise<Transaction> {
  return parseAnswer(TransactionEntrySchema, await getJson(`api/v1/transactions/${encodeURIComponent(id)}`, { signal }), PAGE_FAILED);
}

/**
 * One page of the customer's transactions; the page shown stays while another loads, and a
 * change to their transactions (the realtime hint) reads it again.
 */
export function useTransactionsQuery(page: number, pageSize: number) {
  useRefetchOn('transactions', [customerKeys.transactions(page, pageSize)]);
  return useQuery({
    queryKey: customerKeys.transactions(page, pageSize),
    queryFn: ({ signal }) => fetchTransactions(page, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}
