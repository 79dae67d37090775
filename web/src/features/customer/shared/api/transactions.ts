import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { TransactionEntry, TransactionRow, TransactionsPage, type TransactionsQuery } from '@ledger/contract/transactions.js';
import { getJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';
import { useRefetchOn } from '@/lib/query-realtime.js';
import { customerKeys } from './keys.js';

/** A transaction as the API returns it (the transactions contract); amounts are signed decimal strings. */
export type Transaction = z.infer<typeof TransactionRow>;
export type TransactionStatus = Transaction['status'];
/** A list entry: a swap is its spent leg with the received leg linked. */
export type TransactionEntryView = z.infer<typeof TransactionEntry>;
export type TransactionPage = z.infer<typeof TransactionsPage>;

const PAGE_FAILED = 'The transactions could not be read.';

/** GET /api/v1/transactions: own, not hidden, newest sent_at first. */
export async function fetchTransactions(page: number, pageSize: number, signal?: AbortSignal): Promise<TransactionPage> {
  const query = { page, pageSize } satisfies z.input<typeof TransactionsQuery>;
  return parseAnswer(TransactionsPage, await getJson('api/v1/transactions', { signal, searchParams: query }), PAGE_FAILED);
}

export async function fetchTransaction(id: string, signal?: AbortSignal): Promise<Transaction> {
  return parseAnswer(TransactionEntry, await getJson(`api/v1/transactions/${encodeURIComponent(id)}`, { signal }), PAGE_FAILED);
}

/** A page of the customer's transactions: the read, for the hook and for a read ahead of the screen. */
export const transactionsQuery = (page: number, pageSize: number) => ({
  queryKey: customerKeys.transactions(page, pageSize),
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchTransactions(page, pageSize, signal),
});

/**
 * One page of the customer's transactions; the page shown stays while another loads, and a
 * change to their transactions (the realtime hint) reads it again.
 */
export function useTransactionsQuery(page: number, pageSize: number) {
  useRefetchOn('transactions', [customerKeys.transactions(page, pageSize)]);
  return useQuery({ ...transactionsQuery(page, pageSize), placeholderData: keepPreviousData });
}
