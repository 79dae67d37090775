import { postJson } from '@/lib/api-client.js';
import { idempotent } from '@/features/customer/shared/api/idempotency.js';

export type PaymentKind = 'withdrawal' | 'deposit';

export type PaymentRequest = { tokenId: string; amount: string; paymentMethodId: string; userId: string };
export type PaymentAnswer = { success: boolean; transactionId: string; amount: string; fee: string };

/** create-deposit-request / create-withdrawal-request (docs/api-money.md). */
export function requestPayment(kind: PaymentKind, body: PaymentRequest): Promise<PaymentAnswer> {
  const path = kind === 'deposit' ? 'functions/v1/create-deposit-request' : 'functions/v1/create-withdrawal-request';
  return postJson(path, body, idempotent());
}
