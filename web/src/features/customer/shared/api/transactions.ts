import { getJson } from '../../../../lib/api-client.js';

export type TransactionStatus = 'Pending' | 'Complete' | 'Failed';

/** A transaction as the API returns it (docs/api-money.md); amounts are signed decimal strings. */
export type Transaction = {
  id: string;
  user_id: string;
  asset_id: string;
  amount: string;
  fee: string | null;
  type: 'deposit' | 'withdrawal' | 'send' | 'adjustment' | 'swap' | string;
  status: TransactionStatus | string;
  sent_at: string;
  created_at: string;
  sender_address: string | null;
  recipient_address: string | null;
  txid: string | null;
  note: string | null;
  is_hidden: boolean;
  request_id: string | null;
};

export type TransactionPage = { transactions: Transaction[]; count: number; page: number; pageSize: number };

/** GET /api/v1/transactions: own, not hidden, newest sent_at first. */
export function fetchTransactions(page: number, pageSize: number, signal?: AbortSignal): Promise<TransactionPage> {
  return getJson<TransactionPage>(`api/v1/transactions?page=${page}&pageSize=${pageSize}`, { signal });
}

export function fetchTransaction(id: string, signal?: AbortSignal): Promise<Transaction> {
  return getJson<Transaction>(`api/v1/transactions/${encodeURIComponent(id)}`, { signal });
}
